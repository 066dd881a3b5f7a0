import Foundation
import MosaicTestSupport
import Testing

@testable import MosaicHTTP
@testable import MosaicHTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MosaicHTTPTests {
    /// Server-side paths never reach a client, whichever code built the error; and the admission
    /// check answers for every request, routed or not.
    @Suite(.timeLimit(.minutes(2)))
    struct PathRedactionTests {
        func get(_ server: HTTPServer, _ path: String) async throws -> (Int, String) {
            let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: server.baseURL.absoluteString + path)))
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        @Test func errorBodiesNeverShowAPrivateFolder() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)").path
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.privatePaths = [dir: "$DATA_DIR"]
            let server = HTTPServer(configuration: cfg)
            server.route(.get, "/io", summary: "An I/O error naming a file") { _ in
                throw HTTPError.internalError("write failed for \(dir)/fragments/ab/cd: errno 28")
            }
            server.route(.get, "/escaped", summary: "A JSONSerialization body, slashes escaped") { _ in
                let body = try JSONSerialization.data(withJSONObject: ["error": ["code": "x", "message": "cannot open \(dir)/meta.sqlite"]])
                return HTTPResponse(status: 409, body: body, contentType: "application/json")
            }
            server.route(.get, "/page", summary: "An HTML error page") { _ in .html("<p>cannot read \(dir)/x</p>", status: 404) }
            server.route(.get, "/thrown", summary: "A plain error") { _ in
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: dir])
            }
            server.route(.get, "/ok", summary: "A success naming the folder is not an error") { _ in .text(dir) }
            try server.start()
            let (s1, io) = try await get(server, "/io")
            #expect(s1 == 500)
            #expect(io.contains("write failed for $DATA_DIR/fragments/ab/cd: errno 28"), "\(io)")
            let (s2, escaped) = try await get(server, "/escaped")
            #expect(s2 == 409)
            #expect(!escaped.contains(dir.replacingOccurrences(of: "/", with: "\\/")), "\(escaped)")
            #expect(escaped.contains("$DATA_DIR"))
            let (_, page) = try await get(server, "/page")
            #expect(page == "<p>cannot read $DATA_DIR/x</p>")
            let (s4, thrown) = try await get(server, "/thrown")
            #expect(s4 == 500)
            #expect(!thrown.contains(dir))
            #expect(try await get(server, "/ok").1 == dir, "success bodies (file contents, listings) are left alone")
            await server.stop(grace: .seconds(1))
        }

        @Test func variantsCoverTrailingSlashesAndEscapes() {
            let r = PathRedaction(["/srv/data/": "$D", "/": "$ROOT", "x": "$X"])
            #expect(r.pairs.map(\.0).contains("/srv/data"))
            #expect(r.pairs.map(\.0).contains("\\/srv\\/data"))
            #expect(!r.pairs.contains { $0.0 == "/" || $0.0 == "x" }, "a root or a bare name is never treated as a private folder")
        }

        @Test func admissionAnswersBeforeRoutingForEveryRequest() async throws {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.admit = { req in
                if req.headers["Host"]?.hasPrefix("127.0.0.1:") != true { throw HTTPError(status: 421, code: "wrong_host", message: "no") }
                if req.path == "/blocked" { throw HTTPError.forbidden("blocked", code: "blocked") }
            }
            let server = HTTPServer(configuration: cfg)
            server.route(.get, "/fine", summary: "A route") { _ in .text("fine") }
            try server.start()
            #expect(try await get(server, "/fine") == (200, "fine"))
            #expect(try await get(server, "/blocked").0 == 403)
            #expect(try await get(server, "/nowhere").0 == 404)
            let raw = try #require(RawSocket(port: server.port))
            raw.send("GET /fine HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            let answer = raw.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 421"), "\(answer)")
            await server.stop(grace: .seconds(1))
        }
    }
}
