import Foundation
import MosaicCrypto
import MosaicSDK
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
        var env = ProcessInfo.processInfo.environment
        env["MOSAIC_HOME"] = home.path
        env.removeValue(forKey: "MOSAIC_PASSPHRASE")
        for (k, v) in environment { env[k] = v }
        // Output goes to files, so a child writing much to both streams never blocks on a pipe.
        let stem = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-cli-out-\(UUID().uuidString)").path
        let outFD = open(stem + ".out", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFD = open(stem + ".err", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if outFD >= 0 { close(outFD) }
            if errFD >= 0 { close(errFD) }
            unlink(stem + ".out")
            unlink(stem + ".err")
        }
        guard outFD >= 0, errFD >= 0 else { throw Subprocess.Failure.spawn(stem, errno) }
        let input = try SubprocessPipe()
        let child = try Subprocess(
            executable: CLIRunner.binary.path, arguments: args, environment: env,
            stdin: input.read, stdout: outFD, stderr: errFD)
        input.closeRead()
        if let stdin {
            let bytes = Array(stdin.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }  // the child closed its input
                sent += n
            }
        }
        input.closeWrite()
        let code = child.waitUntilExit()
        let o = (try? Data(contentsOf: URL(fileURLWithPath: stem + ".out"))) ?? Data()
        let e = (try? Data(contentsOf: URL(fileURLWithPath: stem + ".err"))) ?? Data()
        return Result(code: code, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    func cleanup() { try? FileManager.default.removeItem(at: home) }

    /// Stores a wallet the way `mosaic wallet create` does, but with the smallest Argon2id cost the
    /// file format allows (its cost is recorded in the file, so every later command opens it in
    /// microseconds instead of a 256 MiB derivation). For tests whose subject is not the wallet.
    /// - Returns: the wallet's client id.
    @discardableResult
    func cheapWallet(_ name: String = "default") throws -> String {
        let passphrase = environment["MOSAIC_PASSPHRASE"] ?? "correct horse"
        return try Keystore(home: home, kdfParameters: .testing)
            .create(name: name, passphrase: SecretBytes(Array(passphrase.utf8))).wallet.clientID
    }
}

/// `Result` carries `[String: Any]` JSON only as computed properties; its stored fields are plain.
extension CLIRunner.Result {
    var unchecked: UncheckedResult { UncheckedResult(value: self) }
}

struct UncheckedResult: @unchecked Sendable {
    let value: CLIRunner.Result
}
