import Foundation
import MosaicHTTP
import MosaicHTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a quiet server on an ephemeral loopback port, runs `body`, and always stops it.
func withServer(_ configure: (HTTPServer) -> Void, _ body: (HTTPServer, HTTPClient) async throws -> Void) async throws {
    var cfg = HTTPServer.Configuration()
    cfg.logger = nil
    let server = HTTPServer(configuration: cfg)
    configure(server)
    try server.start()
    let client = HTTPClient(baseURL: server.baseURL)
    do {
        try await body(server, client)
    } catch {
        await server.stop(grace: .seconds(1))
        throw error
    }
    await server.stop(grace: .seconds(1))
}

/// A blocking TCP socket for sending deliberately broken requests.
final class RawSocket {
    let fd: Int32

    /// `source` binds the client end to another loopback address (all of 127/8 is loopback on
    /// Linux), so a test can play several client IPs.
    init?(port: UInt16, receiveTimeout: Int = 20, source: String? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var tv = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                return nil
            }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
    }

    func send(_ s: String) { send(Data(s.utf8)) }

    func send(_ d: Data) {
        d.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                guard let base = raw.baseAddress else { return }
                let n = Glibc.send(fd, base + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                off += n
            }
        }
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Everything until the peer closes or the timeout hits.
    func readAll() -> String {
        var out = Data()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buf, buf.count, 0)
            if n <= 0 { break }
            out.append(contentsOf: buf[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True while the peer has neither closed the connection nor sent anything: a peek that
    /// does not wait.
    var isOpenAndSilent: Bool {
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    deinit { close(fd) }
}

/// 64-bit FNV-1a, enough to check that streamed bytes arrive intact and in order.
struct Checksum {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func update(_ d: Data) {
        d.withUnsafeBytes { raw in
            var h = value
            for b in raw.bindMemory(to: UInt8.self) {
                h = (h ^ UInt64(b)) &* 0x100_0000_01b3
            }
            value = h
        }
    }
}

/// Deterministic pseudo-random bytes, generated piece by piece.
func pattern(offset: Int64, count: Int) -> Data {
    var d = Data(count: count)
    d.withUnsafeMutableBytes { raw in
        let p = raw.bindMemory(to: UInt8.self)
        for i in 0..<count {
            let x = UInt64(offset) &+ UInt64(i)
            p[i] = UInt8(truncatingIfNeeded: (x &* 2_654_435_761) >> 7)
        }
    }
    return d
}

/// Collects values from concurrent handlers.
final class Box<T: Sendable>: Sendable {
    private let m: Mutex<T>
    init(_ v: T) { m = Mutex(v) }
    var value: T { m.withLock { $0 } }
    func set(_ v: T) { m.withLock { $0 = v } }
    func mutate(_ f: (inout T) -> Void) { m.withLock { f(&$0) } }
}

/// Parent of all suites: serialized, so the memory measurement of one test is not skewed by another.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MosaicHTTPTests {}
