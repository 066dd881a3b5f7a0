import Foundation
import MosaicHTTPServer

/// `--listen HOST:PORT` (or the older `--port P`, meaning 127.0.0.1:P), `--public-url URL`,
/// `--tls-cert FILE --tls-key FILE`: how `mosaic node`, `blobber` and `app` listen and are reached.
struct ServerFlags {
    var host = "127.0.0.1"
    var port: UInt16
    var publicURL: URL?
    var tls: TLSCredentials?

    /// The flags, in the existing style; `publicURL` only for servers that advertise themselves.
    static func flags(defaultPort: UInt16, publicURL: Bool) -> [Flag] {
        var list: [Flag] = [
            .option(
                "listen", "HOST:PORT", "IPv4 address and port to listen on (default 127.0.0.1:\(defaultPort); 0.0.0.0 for every address)"),
            .option("port", "P", "port on 127.0.0.1, the same as --listen 127.0.0.1:P (0 picks a free one)"),
            .option("tls-cert", "FILE", "serve HTTPS with this certificate chain (PEM); needs --tls-key"),
            .option("tls-key", "FILE", "the certificate's private key (PEM)"),
        ]
        if publicURL { list.append(.option("public-url", "URL", "the URL others reach this server at (default: the listen address)")) }
        return list
    }

    init(_ inv: Invocation, defaultPort: UInt16) throws {
        port = defaultPort
        if let listen = inv.value("listen") {
            guard inv.value("port") == nil else { throw CLIError.usage("give --listen HOST:PORT or --port P, not both") }
            (host, port) = try Self.parseListen(listen)
        } else {
            port = try NodeCommand.parsePort(inv.value("port"), default: defaultPort)
        }
        if let text = inv.value("public-url") {
            guard let u = URL(string: text), ["http", "https"].contains(u.scheme?.lowercased() ?? ""), u.host != nil, text.utf8.count <= 256
            else { throw CLIError.usage("--public-url \(text): give an http:// or https:// URL such as https://blobber1.example.org:5051") }
            publicURL = u
        }
        switch (inv.value("tls-cert"), inv.value("tls-key")) {
        case (nil, nil): break
        case (let cert?, let key?):
            do { tls = try TLSCredentials(certificateFile: cert, keyFile: key) } catch {
                throw CLIError.usage("--tls-cert/--tls-key: \(error)")
            }
        default: throw CLIError.usage("give --tls-cert FILE and --tls-key FILE together")
        }
    }

    /// "HOST:PORT" with an IPv4 HOST (the server binds IPv4).
    static func parseListen(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CLIError.usage("--listen \(text): give HOST:PORT, e.g. 0.0.0.0:7100 or 10.0.0.5:5051")
        }
        let host = String(text[..<colon])
        var addr = in_addr()
        guard inet_pton(AF_INET, host, &addr) == 1 else {
            throw CLIError.usage("--listen \(text): \(host) is not an IPv4 address (give e.g. 0.0.0.0 or 10.0.0.5)")
        }
        return (host, port)
    }

    /// What the startup message says: where the server listens.
    var listenText: String { "\(host):\(port)" }
}
