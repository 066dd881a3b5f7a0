import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK

/// What a route needs from the caller before it runs.
enum Access {
    /// Anyone; a session is created when missing.
    case open
    /// A session whose CSRF token the request carries (for changes that need no wallet).
    case session
    /// An unlocked wallet (and, for changes, the CSRF token).
    case wallet
}

/// A request with its session resolved.
struct AppRequest: Sendable {
    let http: HTTPRequest
    let session: Session
    /// Set when this request created the session; the answer then sets the cookie.
    let isNewSession: Bool

    func wallet() throws -> UnlockedWallet {
        guard let w = session.wallet else { throw AppServer.lockedError(session) }
        return w
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try http.decodeJSON(type)
    }
}

extension AppServer {
    static let cookieName = "mosaic_session"

    /// Registers an API route with session, CSRF and wallet checks and the security headers.
    /// `parameters` are checked by the server before anything else (a 400 naming the parameter);
    /// `body`, `statuses` and `errors` describe the route in `/openapi.json`.
    func api(
        _ method: HTTPMethod, _ path: String, summary: String, access: Access,
        parameters: [any RouteParameter] = [], body: RequestBody? = nil,
        statuses: [Int] = [200], errors: [Int] = [],
        bodyLimit: Int64 = HTTPServer.defaultBodyLimit,
        handler: @escaping @Sendable (AppRequest) async throws -> HTTPResponse
    ) {
        let sessions = self.sessions
        server.route(
            method, path, summary: summary, parameters: parameters, body: body, statuses: statuses,
            errors: AppServer.accessErrors(access, method) + errors, bodyLimit: bodyLimit
        ) { req in
            do {
                try RequestGuard.checkJSONBody(req)
                let app = try AppServer.resolve(req, access: access, sessions: sessions)
                var response = try await handler(app)
                if app.isNewSession {
                    response.headers.add("Set-Cookie", AppServer.cookie(app.session.id))
                }
                return AppServer.secured(response)
            } catch let e as HTTPError {
                return AppServer.secured(e.response)
            }
        }
    }

    /// What the session checks may answer: 401 without a session or wallet, 403 without the CSRF token.
    static func accessErrors(_ access: Access, _ method: HTTPMethod) -> [Int] {
        let changes = method != .get && method != .head
        switch access {
        case .open: return changes ? [401, 403] : []
        case .session: return changes ? [401, 403] : [401]
        case .wallet: return changes ? [401, 403] : [401]
        }
    }

    static func resolve(_ req: HTTPRequest, access: Access, sessions: SessionStore) throws -> AppRequest {
        let existing = req.cookies[cookieName].flatMap { sessions.touch($0) }
        let changes = req.method != .get && req.method != .head
        switch access {
        case .open where !changes:
            if let existing { return AppRequest(http: req, session: existing, isNewSession: false) }
            return AppRequest(http: req, session: sessions.create(), isNewSession: true)
        default:
            guard let session = existing else {
                throw HTTPError.unauthorized(
                    "there is no session (it may have ended when the app restarted); reload the page", code: "no_session")
            }
            if changes {
                guard let token = req.headers["X-CSRF-Token"], !token.isEmpty else {
                    throw HTTPError.forbidden(
                        "this request has no CSRF token (X-CSRF-Token header); reload the page and try again", code: "csrf_missing")
                }
                guard constantTimeEqual(token, session.csrf) else {
                    throw HTTPError.forbidden(
                        "the CSRF token does not match this session; reload the page and try again", code: "csrf_invalid")
                }
            }
            if access == .wallet && session.wallet == nil { throw lockedError(session) }
            return AppRequest(http: req, session: session, isNewSession: false)
        }
    }

    static func lockedError(_ session: Session) -> HTTPError {
        session.expired
            ? HTTPError.unauthorized("your session expired after being idle; unlock your wallet again", code: "session_expired")
            : HTTPError.unauthorized("the wallet is locked; unlock it with its passphrase", code: "locked")
    }

    static func cookie(_ id: String) -> String {
        "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict"
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// A JSON answer from a dictionary (the app API is small and flat; see docs/APP_API.md).
    static func json(_ object: [String: Any], status: Int = 200) throws -> HTTPResponse {
        guard JSONSerialization.isValidJSONObject(object) else { throw HTTPError.internalError("response encoding failed") }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return HTTPResponse(status: status, body: data, contentType: "application/json")
    }
}
