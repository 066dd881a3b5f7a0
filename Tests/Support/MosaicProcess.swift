import Foundation
import Synchronization

/// A child process of the real `mosaic` binary whose first stdout line (the URL, as JSON) the
/// test waits for with a deadline instead of sleeping.
public final class MosaicProcess: Sendable {
    public let process: Subprocess
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
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let out = try SubprocessPipe()
        process = try Subprocess(executable: executable.path, arguments: arguments, environment: env, stdout: out.write)
        out.closeWrite()
        // Standard output is read on its own thread until the child closes it.
        let reader = Thread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(out.read, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0, let self else { break }
                let hadLine = self.buffer.withLock { b in
                    let before = b.contains(0x0a)
                    b.append(contentsOf: chunk[0..<n])
                    return before || !b.contains(0x0a)
                }
                if !hadLine { self.lineReady.signal() }
            }
            self?.lineReady.signal()
            out.closeRead()
        }
        reader.start()
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

    /// Everything printed so far (for a failing test's message).
    public var output: String { buffer.withLock { String(decoding: $0, as: UTF8.self) } }

    public func signal(_ sig: Int32) { process.signal(sig) }

    /// The process has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Waits for exit (bounded) and returns the exit status, or nil when it did not exit in time.
    public func waitForExit(timeout: Double) async -> Int32? {
        (try? await blocking { self.waitForExitBlocking(timeout: timeout) }) ?? nil
    }

    /// For `defer` blocks, which cannot await.
    public func waitForExitBlocking(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.exitStatus
    }

    /// SIGTERM, then the exit status once it exits (nil: still running after `timeout` seconds).
    @discardableResult
    public func terminate(timeout: Double) async -> Int32? {
        signal(SIGTERM)
        return await waitForExit(timeout: timeout)
    }

    /// `terminate` for `defer` blocks, which cannot await.
    @discardableResult
    public func terminateBlocking(timeout: Double) -> Int32? {
        signal(SIGTERM)
        return waitForExitBlocking(timeout: timeout)
    }

    deinit { process.signal(SIGKILL) }
}
