import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP socket to a loopback server, for requests no client library would send
/// (broken ones, forged headers, exact bytes) and for reading exactly what comes back.
package final class RawSocket {
    package let fd: Int32

    /// Connects to 127.0.0.1:`port`; nil when it cannot. `source` binds the client end to another
    /// loopback address (all of 127/8 is loopback on Linux), so a test can play several client IPs.
    package init?(port: UInt16, receiveTimeout: Int = 20, source: String? = nil) {
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

    package func send(_ s: String) { send(Data(s.utf8)) }

    /// Sends all of `d`; false when the peer stopped taking bytes first.
    @discardableResult
    package func send(_ d: Data) -> Bool {
        d.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                guard let base = raw.baseAddress else { return false }
                let n = Glibc.send(fd, base + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                off += n
            }
            return true
        }
    }

    package func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// What arrives until the peer closes, the timeout hits, or (with `limit`) at least `limit` bytes are in.
    package func read(limit: Int = .max) -> Data {
        var out = Data()
        var buf = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let n = recv(fd, &buf, buf.count, 0)
            if n <= 0 { break }
            out.append(contentsOf: buf[0..<n])
        }
        return out
    }

    /// Everything until the peer closes or the timeout hits, as text.
    package func readAll() -> String { String(decoding: read(), as: UTF8.self) }

    /// True while the peer has neither closed the connection nor sent anything: a peek that
    /// does not wait.
    package var isOpenAndSilent: Bool {
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    deinit { close(fd) }
}
