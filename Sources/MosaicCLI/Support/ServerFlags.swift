import Foundation
import MosaicHTTPServer

/// `--listen HOST:PORT` (or the older `--port P`, meaning 127.0.0.1:P) and `--tls-cert FILE
/// --tls-key FILE`: how `mosaic node`, `blobber` and `app` listen. A group embedded in each
/// command's options.
struct ListenOptions: CommandOptions {
    @Option("listen", "HOST:PORT", help: "address and port to listen on (default 127.0.0.1; 0.0.0.0 or [::] for every address)")
    var listen: ListenAddress?
    @Option("port", "P", help: "port on 127.0.0.1, the same as --listen 127.0.0.1:P (0 picks a free one)") var port: Port?
    @Option("tls-cert", "FILE", help: "serve HTTPS with this certificate chain (PEM); needs --tls-key") var tlsCert: String?
    @Option("tls-key", "FILE", help: "the certificate's private key (PEM)") var tlsKey: String?

    /// Where to listen and with which certificate, `defaultPort` on 127.0.0.1 when neither is given.
    func resolve(defaultPort: UInt16) throws -> ServerListen {
        var out = ServerListen(host: "127.0.0.1", port: defaultPort)
        if let listen {
            guard port == nil else { throw CLIError.usage("give --listen HOST:PORT or --port P, not both") }
            out.host = listen.host
            out.port = listen.port
        } else if let port {
            out.port = port.value
        }
        switch (tlsCert, tlsKey) {
        case (nil, nil): break
        case (let cert?, let key?):
            do { out.tls = try TLSCredentials(certificateFile: cert, keyFile: key) } catch {
                throw CLIError.usage("--tls-cert/--tls-key: \(error)")
            }
        default: throw CLIError.usage("give --tls-cert FILE and --tls-key FILE together")
        }
        return out
    }
}

/// `--public-url URL`: what others use to reach a node or blobber (default: the listen address).
struct PublicURLOption: CommandOptions {
    @Option("public-url", "URL", help: "the URL others reach this server at (default: the listen address)") var publicURL: PublicURL?
}

/// Where a server listens, from `ListenOptions.resolve`.
struct ServerListen {
    var host: String
    var port: UInt16
    var tls: TLSCredentials?

    /// What the startup message says: where the server listens.
    var listenText: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// "HOST:PORT" with an IPv4 HOST, or "[HOST]:PORT" with an IPv6 one ("[::]" is every address).
struct ListenAddress: OptionValue {
    let host: String
    let port: UInt16
    static var valueName: String { "HOST:PORT" }

    static func parse(_ text: String, option: String) throws -> ListenAddress {
        let example = "give HOST:PORT, e.g. 0.0.0.0:7100, 10.0.0.5:5051 or [::]:7100"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CLIError.usage("--\(option) \(text): \(example)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            var addr = in6_addr()
            guard inet_pton(AF_INET6, host, &addr) == 1 else {
                throw CLIError.usage("--\(option) \(text): \(host) is not an IPv6 address (give e.g. [::] or [fd00::5])")
            }
            return ListenAddress(host: host, port: port)
        }
        var addr = in_addr()
        guard inet_pton(AF_INET, host, &addr) == 1 else {
            if host.contains(":") {
                throw CLIError.usage("--\(option) \(text): put an IPv6 address in brackets, e.g. [\(host)]:\(port)")
            }
            throw CLIError.usage("--\(option) \(text): \(host) is not an IP address (give e.g. 0.0.0.0, 10.0.0.5 or [::])")
        }
        return ListenAddress(host: host, port: port)
    }
}

/// An http:// or https:// URL with a host, at most 256 bytes.
struct PublicURL: OptionValue {
    let url: URL
    static var valueName: String { "URL" }

    static func parse(_ text: String, option: String) throws -> PublicURL {
        guard let u = URL(string: text), ["http", "https"].contains(u.scheme?.lowercased() ?? ""), u.host != nil, text.utf8.count <= 256
        else { throw CLIError.usage("--\(option) \(text): give an http:// or https:// URL such as https://blobber1.example.org:5051") }
        return PublicURL(url: u)
    }
}
