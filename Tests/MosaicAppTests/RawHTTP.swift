import Foundation
import MosaicTestSupport

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
        guard let socket = RawSocket(port: port) else { throw Failure(description: "connect failed") }
        var request = Data((head + ["Connection: close", "Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n").utf8)
        request.append(body)
        guard socket.send(request) else { throw Failure(description: "send failed") }
        let answer = socket.read()
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
