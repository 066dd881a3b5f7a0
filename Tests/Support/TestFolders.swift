import Foundation
import Synchronization

/// Folders a test made, removed again when the test process exits. A suite that stops its servers
/// in a `defer { Task { … } }` cannot wait for that task, and the last ones of a run may never
/// finish: what they would have removed is removed here.
package enum TestFolders {
    private static let paths = Mutex<[String]>([])
    private static let hook: Bool = {
        atexit { TestFolders.removeAll() }
        return true
    }()

    /// Removes `path` (and all below it) at exit, if it is still there.
    package static func removeAtExit(_ path: String) {
        _ = hook
        paths.withLock { $0.append(path) }
    }

    /// Servers of a shutdown still running on other threads may write meanwhile: a few tries.
    static func removeAll() {
        for p in paths.withLock({ $0 }) {
            for _ in 0..<5 where FileManager.default.fileExists(atPath: p) {
                try? FileManager.default.removeItem(atPath: p)
                if FileManager.default.fileExists(atPath: p) { usleep(20_000) }
            }
        }
    }
}
