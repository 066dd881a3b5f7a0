import Foundation

/// A throw-away CA and a server certificate it signed for 127.0.0.1 and localhost, made with the
/// `openssl` CLI in a fresh temp folder at test time (keys are never committed).
public struct TestCertificates: Sendable {
    public let directory: URL
    public let caFile: String
    public let certificateFile: String
    public let keyFile: String

    public enum Failure: Error, CustomStringConvertible {
        case openssl([String], Int32)
        public var description: String {
            switch self {
            case .openssl(let args, let code): return "openssl \(args.joined(separator: " ")) exited with \(code)"
            }
        }
    }

    /// Makes the CA (P-256, one day) and the server certificate, both PEM.
    public static func make() throws -> TestCertificates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "1", "-subj", "/CN=Mosaic test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try run(["req"] + ec + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(to: URL(fileURLWithPath: path("ext.cnf")))
        try run([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
            "-out", path("server.pem"), "-days", "1", "-extfile", path("ext.cnf"),
        ])
        return TestCertificates(directory: dir, caFile: path("ca.pem"), certificateFile: path("server.pem"), keyFile: path("server.key"))
    }

    public func remove() { try? FileManager.default.removeItem(at: directory) }

    /// `openssl s_client` against 127.0.0.1:`port`, verifying against this CA, with `extra` options
    /// (a TLS version, ciphers); its exit status and everything it printed. The connection closes as
    /// soon as the handshake is done (stdin is empty).
    public func handshake(port: UInt16, _ extra: [String]) throws -> (status: Int32, output: String) {
        let out = try SubprocessPipe()
        let p = try Subprocess(
            executable: "/usr/bin/openssl",
            arguments: ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", caFile, "-verify_return_error", "-brief"] + extra,
            environment: ProcessInfo.processInfo.environment, stdout: out.write, stderr: out.write)
        out.closeWrite()
        let text = String(decoding: out.readToEnd(), as: UTF8.self)
        return (p.waitUntilExit(), text)
    }

    private static func run(_ args: [String]) throws {
        let p = try Subprocess(executable: "/usr/bin/openssl", arguments: args, environment: ProcessInfo.processInfo.environment)
        let code = p.waitUntilExit()
        guard code == 0 else { throw Failure.openssl(args, code) }
    }
}
