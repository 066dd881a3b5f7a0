import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server cut off mid-network, as a test sees it: a loopback port whose connections the kernel
/// completes (the listen backlog) and nobody ever reads or answers. The socket closes on deinit.
public final class SilentPeer: Sendable {
    public let port: UInt16
    private let listener: Int32

    public struct SetupError: Error { public let message: String }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(message: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && listen(fd, 128) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw SetupError(message: "bind/listen on loopback failed")
        }
        listener = fd
        port = UInt16(bigEndian: addr.sin_port)
    }

    deinit { close(listener) }

    /// Takes the next waiting connection off the backlog (-1 on failure): for a test that reads
    /// what a client sent, or answers it late. The caller closes it.
    public func accept() -> Int32 { Glibc.accept(listener, nil, nil) }

    /// The peer's URL (plain HTTP).
    public var url: URL {
        guard let u = URL(string: "http://127.0.0.1:\(port)") else { preconditionFailure("a loopback URL always parses") }
        return u
    }
}
