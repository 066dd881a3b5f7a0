import Foundation
import Synchronization

/// A child process of the real `mosaic` binary whose first stdout line (the URL, as JSON) the
/// test waits for with a deadline instead of sleeping.
public final class MosaicProcess: Sendable {
    public let process: Process
    private let buffer = Mutex<Data>(Data())
    private let lineReady = DispatchSemaphore(value: 0)

    /// The debug build of `mosaic` next to the tests (`swift test` builds it first).
    public static var binary: URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/mosaic")
    }

    /// Another executable built next to the tests (a test fixture such as `ledger-trap-fixture`).
    public static func sibling(_ name: String) -> URL { binary.deletingLastPathComponent().appendingPathComponent(name) }

    public init(_ arguments: [String], environment: [String: String] = [:], executable: URL = MosaicProcess.binary) throws {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        process = p
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self else { return }
            if d.isEmpty { h.readabilityHandler = nil; self.lineReady.signal(); return }
            let hadLine = self.buffer.withLock { b in
                let before = b.contains(0x0a)
                b.append(d)
                return before || !b.contains(0x0a)
            }
            if !hadLine { self.lineReady.signal() }
        }
        try p.run()
    }

    /// The first line printed, or nil if none came within `timeout`.
    public func firstLine(timeout: Double) async -> String? {
        (try? await blocking { self.firstLineBlocking(timeout: timeout) }) ?? nil
    }

    private func firstLineBlocking(timeout: Double) -> String? {
        _ = lineReady.wait(timeout: .now() + timeout)
        return buffer.withLock { b in
            guard let i = b.firstIndex(of: 0x0a) else { return nil }
            return String(decoding: b[b.startIndex..<i], as: UTF8.self)
        }
    }

    /// The first line parsed as a JSON object.
    public func firstJSON(timeout: Double) async -> [String: Any]? {
        guard let line = await firstLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    public func signal(_ sig: Int32) { if process.isRunning { kill(process.processIdentifier, sig) } }

    /// Waits for exit (bounded) and returns the exit status, or nil when it did not exit in time.
    public func waitForExit(timeout: Double) async -> Int32? {
        (try? await blocking { self.waitForExitBlocking(timeout: timeout) }) ?? nil
    }

    /// For `defer` blocks, which cannot await.
    public func waitForExitBlocking(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
