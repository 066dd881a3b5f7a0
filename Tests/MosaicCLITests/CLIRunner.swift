import Foundation
import MosaicTestSupport

/// Runs the real `mosaic` binary built next to the tests, in a throw-away home folder.
struct CLIRunner {
    struct Result {
        let code: Int32
        let out: String
        let err: String

        /// The `--json` output parsed as an object.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any] ?? [:]
        }
    }

    let home: URL
    var environment: [String: String] = [:]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    static var binary: URL {
        // Tests/MosaicCLITests/CLIRunner.swift → package root → .build/debug/mosaic
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/mosaic")
    }

    /// Runs `mosaic args` to completion, off the cooperative pool (see `blocking`).
    @discardableResult
    func run(_ args: [String], stdin: String? = nil) async throws -> Result {
        let runner = self
        return try await blocking { try runner.runBlocking(args, stdin: stdin).unchecked }.value
    }

    private func runBlocking(_ args: [String], stdin: String?) throws -> Result {
        let p = Process()
        p.executableURL = CLIRunner.binary
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["MOSAIC_HOME"] = home.path
        env.removeValue(forKey: "MOSAIC_PASSPHRASE")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(code: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    func cleanup() { try? FileManager.default.removeItem(at: home) }
}

/// `Result` carries `[String: Any]` JSON only as computed properties; its stored fields are plain.
extension CLIRunner.Result {
    var unchecked: UncheckedResult { UncheckedResult(value: self) }
}

struct UncheckedResult: @unchecked Sendable {
    let value: CLIRunner.Result
}
