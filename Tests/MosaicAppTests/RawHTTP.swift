import Foundation
import MosaicTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One hand-written HTTP/1.1 request over a loopback socket, for what URLSession will not send
/// (a forged Host header, a missing one, exact header bytes). `Connection: close`, whole answer read.
enum RawHTTP {
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `head` (request line and headers, without the blank line) plus `body` to 127.0.0.1:`port`,
    /// on a thread of its own (a blocked cooperative thread could starve the server's handlers).
    static func send(port: UInt16, _ head: [String], body: Data = Data()) async throws -> Answer {
        try await blocking { try sendBlocking(port: port, head, body: body) }
    }

    static func sendBlocking(port: UInt16, _ head: [String], body: Data) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect failed") }
        var request = Data((head + ["Connection: close", "Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n").utf8)
        request.append(body)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed") }
            sent += n
        }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no answer") }
        let lines = String(decoding: answer[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return Answer(status: status, headers: headers, body: Data(answer[split.upperBound...]))
    }
}
