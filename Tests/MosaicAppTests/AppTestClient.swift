import Foundation
import MosaicTestSupport

@testable import MosaicApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A browser stand-in: keeps the session cookie and the CSRF token, talks JSON to a real app server.
final class AppTestClient: @unchecked Sendable {
    let base: URL
    var cookie: String?
    var csrf: String?
    let session: URLSession

    init(base: URL) {
        self.base = base
        let config = URLSessionConfiguration.ephemeral
        config.httpShouldSetCookies = false
        config.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: config)
    }

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    @discardableResult
    func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, csrf sendCSRF: Bool = true,
        rawBody: Data? = nil, contentType: String? = "application/json", headers extra: [String: String] = [:]
    ) async throws -> Reply {
        var req = URLRequest(url: URL(string: path, relativeTo: base)!)
        req.httpMethod = method
        if let cookie { req.setValue("mosaic_session=\(cookie)", forHTTPHeaderField: "Cookie") }
        if sendCSRF, method != "GET", let csrf { req.setValue(csrf, forHTTPHeaderField: "X-CSRF-Token") }
        if let json {
            req.httpBody = try JSONSerialization.data(withJSONObject: json)
            req.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let rawBody {
            req.httpBody = rawBody
            if let contentType { req.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        } else if method != "GET" {
            req.httpBody = Data()
        }
        for (name, value) in extra { req.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: req)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (k, v) in http.allHeaderFields { headers[String(describing: k).lowercased()] = String(describing: v) }
        if let setCookie = headers["set-cookie"],
            let value = setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last
        {
            cookie = String(value)
        }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    /// Opens a session the way the page does and keeps its CSRF token.
    @discardableResult
    func begin() async throws -> Reply {
        let r = try await send("GET", "/api/session")
        csrf = r.json["csrf"] as? String
        return r
    }
}

/// A real app server in a temporary home, stopped by `stop()`.
struct TestApp {
    let server: AppServer
    let home: URL

    static func start(
        idleTimeout: TimeInterval = 900, home given: URL? = nil, network: String? = nil,
        configure: (inout AppServer.Configuration) -> Void = { _ in }
    ) throws -> TestApp {
        let home = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var config = AppServer.Configuration(home: home, network: network)
        config.idleTimeout = idleTimeout
        config.kdf = .fast
        config.logRequests = false
        configure(&config)
        let server = try AppServer(configuration: config)
        try server.start()
        return TestApp(server: server, home: home)
    }

    func client() -> AppTestClient { AppTestClient(base: server.baseURL) }

    var port: UInt16 { UInt16(server.baseURL.port ?? 0) }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: home)
    }
}
