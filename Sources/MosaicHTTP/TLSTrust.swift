import CSSL
import Foundation
import MosaicErrors
import Synchronization

/// What every client in this process trusts and allows: the system CAs plus the CA files of the
/// networks in use (`mosaic network add NAME URL --ca FILE`), and whether plain HTTP may leave
/// loopback (`--insecure`). Process-wide because one process speaks to one network's node and
/// blobbers, and because the TLS context is shared by every connection.
package enum TLSTrust {
    private struct State {
        var authorities: [String] = []
        var allowPlainHTTP = false
        /// Built on first use; CA files added later go into its store. Never freed: every
        /// connection of the process uses it.
        var context: OpaquePointer?
    }
    private static let state = Mutex(State())

    /// Trusts the PEM certificates in `file` beside the system CAs, for connections opened from now on.
    public static func addAuthority(file: String) throws(TransportSecurityError) {
        guard FileManager.default.isReadableFile(atPath: file) else { throw .caFileUnreadable(file) }
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        let result: Result<Void, TransportSecurityError> = state.withLock { s in
            if s.authorities.contains(path) { return .success(()) }
            // Added to the live context's store (OpenSSL locks it): files trusted earlier are not
            // read again, so one removed since (a test's temp CA) does not fail the next.
            if let ctx = s.context {
                guard SSL_CTX_load_verify_locations(ctx, path, nil) == 1 else { return .failure(.caFileInvalid(path)) }
            } else {
                guard let ctx = makeContext([path]) else { return .failure(.caFileInvalid(path)) }
                s.context = ctx
            }
            s.authorities.append(path)
            return .success(())
        }
        try result.get()
    }

    /// `--insecure`: plain HTTP to hosts beyond loopback is allowed (for private networks without TLS).
    public static func allowPlainHTTP(_ allowed: Bool) {
        state.withLock { $0.allowPlainHTTP = allowed }
    }

    /// Refuses `http://` to a host that is not loopback unless plain HTTP was allowed: traffic to
    /// another machine is encrypted by default.
    public static func check(_ url: URL) throws(TransportSecurityError) {
        guard url.scheme?.lowercased() == "http" else { return }
        let host = url.host ?? ""
        if isLoopback(host) || state.withLock({ $0.allowPlainHTTP }) { return }
        throw .plainHTTPRefused(host)
    }

    /// 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The shared client context.
    static func context() throws(TransportSecurityError) -> OpaquePointer {
        let result: Result<OpaquePointer, TransportSecurityError> = state.withLock { s in
            if let c = s.context { return .success(c) }
            guard let c = makeContext(s.authorities) else { return .failure(.contextUnavailable) }
            s.context = c
            return .success(c)
        }
        return try result.get()
    }

    private static func makeContext(_ files: [String]) -> OpaquePointer? {
        var err = [CChar](repeating: 0, count: 512)
        let copies = files.map { strdup($0) }
        defer { for c in copies { free(c) } }
        var pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeMutableBufferPointer { buf in
            cssl_client_context(buf.baseAddress, Int32(buf.count), &err, err.count)
        }
    }
}

/// Why a client would not connect: plain HTTP off loopback, an unusable CA file, or a peer whose
/// certificate does not verify.
package enum TransportSecurityError: CodedError, Equatable, CustomStringConvertible {
    case plainHTTPRefused(String)
    case caFileUnreadable(String)
    case caFileInvalid(String)
    case contextUnavailable
    case handshakeFailed(host: String, reason: String)

    /// Stable code, carried by the `HTTPClientError` a client throws.
    public var code: String {
        switch self {
        case .plainHTTPRefused: return "plain_http_refused"
        case .caFileUnreadable: return "ca_file_unreadable"
        case .caFileInvalid: return "ca_file_invalid"
        case .contextUnavailable: return "tls_unavailable"
        case .handshakeFailed: return "tls_handshake_failed"
        }
    }

    public var description: String {
        switch self {
        case .plainHTTPRefused(let host):
            return
                "refusing plain http:// to \(host): traffic beyond loopback is encrypted by default; use an https:// URL (servers take --tls-cert and --tls-key), or pass --insecure to 'mosaic network add' for a private network without TLS"
        case .caFileUnreadable(let f): return "cannot read the CA file \(f)"
        case .caFileInvalid(let f): return "\(f) holds no PEM certificate OpenSSL can load"
        case .contextUnavailable: return "OpenSSL could not create a TLS context"
        case .handshakeFailed(let host, let reason):
            return "TLS to \(host) failed (\(reason)); if the network uses its own CA, add it: 'mosaic network add NAME URL --ca FILE'"
        }
    }

    /// The form every client call throws.
    public var clientError: HTTPClientError { HTTPClientError(status: 0, code: code, message: description) }
}
