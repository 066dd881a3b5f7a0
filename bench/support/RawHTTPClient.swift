import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over one keep-alive socket, for the benchmark's load
/// generators: URLSession on Linux spends a third of a core per busy client in libcurl and
/// dispatch, which would be charged to the node it shares the machine with.
public final class RawHTTPClient {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    private let fd: Int32
    private var buffer: [UInt8] = []

    public init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    public func get(_ path: String) throws -> (status: Int, body: [UInt8]) {
        try exchange(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    }

    public func post(_ path: String, body: Data, contentType: String) throws -> (status: Int, body: [UInt8]) {
        var request = Array(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        request.append(contentsOf: body)
        return try exchange(request)
    }

    private func exchange(_ request: [UInt8]) throws -> (status: Int, body: [UInt8]) {
        try request.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                guard let base = raw.baseAddress else { return }
                let n = send(fd, base + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
                off += n
            }
        }
        // Headers.
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = find([13, 10, 13, 10])
            if headerEnd == nil { try fill() }
        }
        guard let end = headerEnd else { throw Failure(description: "no header") }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "bad status line")
        }
        var length = 0
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        while buffer.count < length { try fill() }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return (status, body)
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] && Array(buffer[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    /// Reused receive buffer (a fresh zeroed 64 KiB per read cost the client more than the reads).
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    private func fill() throws {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && errno == EINTR { return }
        guard n > 0 else { throw Failure(description: "connection closed") }
        buffer.append(contentsOf: chunk[0..<n])
    }
}
