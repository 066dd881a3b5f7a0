import Foundation
import MosaicHTTP

/// What a handler returns: a status, headers and one of three kinds of body.
package struct HTTPResponse: Sendable {
    /// Where the body bytes come from.
    public enum Body: Sendable {
        case data(Data)
        /// Bytes handed to the server without a copy (see `ResponseBuffer`).
        case buffer(ResponseBuffer)
        /// A pull producer called on a server thread until it returns nil; it should not block long.
        /// `length` (when known) is sent as Content-Length, otherwise the body is chunked.
        case stream(length: Int64?, producer: @Sendable (_ maxBytes: Int) throws -> Data?)
        /// A region of an open file, sent with sendfile; the server closes it.
        case file(FileBody)
    }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int = 200, body: Data, contentType: String) {
        self.status = status
        self.headers = ["Content-Type": contentType]
        self.body = .data(body)
    }

    /// JSON with sorted keys; key naming is the value's CodingKeys' business.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> HTTPResponse {
        do {
            return HTTPResponse(status: status, body: try JSONEncoder.mosaic.encode(value), contentType: "application/json")
        } catch {
            throw HTTPError.internalError("response encoding failed")
        }
    }

    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, body: Data(text.utf8), contentType: "text/html; charset=utf-8")
    }

    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, body: Data(text.utf8), contentType: "text/plain; charset=utf-8")
    }

    public static func bytes(_ data: Data, status: Int = 200, contentType: String = "application/octet-stream") -> HTTPResponse {
        HTTPResponse(status: status, body: data, contentType: contentType)
    }

    /// A body built in a `ResponseBuffer`, sent without another copy.
    public static func bytes(_ buffer: ResponseBuffer, status: Int = 200, contentType: String = "application/octet-stream") -> HTTPResponse
    {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .buffer(buffer))
    }

    /// A body produced piece by piece (e.g. fragments read from disk), never held whole in memory.
    public static func stream(
        status: Int = 200, contentType: String = "application/octet-stream", length: Int64? = nil,
        producer: @escaping @Sendable (_ maxBytes: Int) throws -> Data?
    ) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .stream(length: length, producer: producer))
    }

    /// A file download honouring a `Range: bytes=…` header (206 + Content-Range; 416 when unsatisfiable).
    /// Throws 404 when the file cannot be opened.
    /// Without `contentType` the type is guessed from the extension (for the web app's static files).
    public static func file(atPath path: String, contentType: String? = nil, range: String? = nil) throws -> HTTPResponse {
        let file = try FileBody(path: path)
        var headers: HTTPHeaders = ["Content-Type": contentType ?? MIMEType.guess(path), "Accept-Ranges": "bytes"]
        guard let range, !range.isEmpty else {
            return HTTPResponse(status: 200, headers: headers, body: .file(file))
        }
        guard let (start, end) = ByteRange.parse(range, size: file.size) else {
            var e = HTTPError(
                status: 416, code: "range_not_satisfiable", message: "range '\(range)' not satisfiable for \(file.size) bytes")
            e.headers["Content-Range"] = "bytes */\(file.size)"
            throw e
        }
        file.offset = start
        file.length = end - start + 1
        headers["Content-Range"] = "bytes \(start)-\(end)/\(file.size)"
        return HTTPResponse(status: 206, headers: headers, body: .file(file))
    }
}
