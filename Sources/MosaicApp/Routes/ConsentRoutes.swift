import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// The consent page an app sends its users to: `GET /authorize?app=NAME&scopes=vote,comment&
/// redirect=URL&expires=7d&state=S`. It shows the app, where the user will return and the scopes
/// in words; Approve records the grant (a `social.grant` transaction signed here, waited on until
/// sealed) and sends the browser to `redirect?grant=TX_HASH&user=CLIENT_ID&state=S`, Deny to
/// `redirect?error=access_denied&state=S`. A request naming an unknown app or scope, or a
/// redirect other than the one the app registered on the ledger, gets an error page and never a
/// redirect (no open redirector).
extension AppServer {
    /// A checked consent request.
    struct ConsentRequest: Sendable {
        let app: SocialApp
        let scopes: [SocialScope]
        let redirect: String
        let expiresSeconds: Int64
        let expiresText: String
        let state: String
    }

    struct ConsentBody: Decodable {
        let app: String
        let scopes: String?
        let redirect: String
        let expires: String?
        let state: String?
    }

    static let defaultGrantDuration = "7d"

    /// The consent link's query, as the app sends it (checked again by `consentRequest`).
    static let consentParameters: [any RouteParameter] = [
        Query.string("app", .string(maxLength: 64), "the app's registered name"),
        Query.string("scopes", .string(maxLength: 256), "comma-separated scopes: vote, comment"),
        Query.string("redirect", .string(maxLength: 2048), "the redirect URL the app registered"),
        Query.string("expires", .string(maxLength: 32), "how long the grant lasts, e.g. 7d (1m to 365d)"),
        Query.string("state", .string(maxLength: 512), "opaque value handed back to the app"),
        Query.string("bounced", .string(maxLength: 8), "set by the page itself when it reloads through this origin"),
    ]
    static let consentSchema = JSONSchema.object(
        [
            ("app", .string(maxLength: 64)), ("scopes", .string(maxLength: 256)), ("redirect", .string(maxLength: 2048)),
            ("expires", .string(maxLength: 32)), ("state", .string(maxLength: 512)),
        ], required: ["app", "redirect"])

    func registerConsentRoutes() {
        let sessions = self.sessions
        server.route(
            .get, "/authorize", summary: "Consent page: grant an app scopes on this wallet's social account",
            parameters: AppServer.consentParameters, errors: [404]
        ) { [self] req in
            let query = req.query
            // A SameSite=Strict cookie is not sent when another site links here. Bounce once
            // through this origin (a same-site navigation carries it) instead of starting a new
            // session, which would sign the user out of the app's other tabs.
            let cookie = req.cookies[AppServer.cookieName]
            if cookie == nil && query["bounced"] == nil {
                var q = query
                q["bounced"] = "1"
                let target = "/authorize?" + AppServer.queryString(q)
                return AppServer.secured(
                    .html(
                        AppServer.consentShell(
                            title: "Mosaic",
                            body: """
                                <p class="muted">Opening the consent page… <a href="\(AppServer.escape(target))">continue</a></p>
                                """, refresh: target)))
            }
            let existing = cookie.flatMap { sessions.touch($0) }
            let session = existing ?? sessions.create()
            var response: HTTPResponse
            do {
                let consent = try await consentRequest(query)
                response = try consentPage(consent, session: session)
            } catch let e as HTTPError {
                response = AppServer.consentErrorPage(e)
            }
            if existing == nil { response.headers.add("Set-Cookie", AppServer.cookie(session.id)) }
            return AppServer.secured(response)
        }

        api(
            .post, "/api/authorize/approve", summary: "Approve a consent request: record the grant, answer the redirect URL",
            access: .wallet,
            body: .json(AppServer.consentSchema), errors: [404, 409, 422]
        ) { [self] req in
            let body = try req.decode(ConsentBody.self)
            let consent = try await consentRequest(body.query)
            let wallet = try ledgerWallet(req)
            let social = SocialClient(wallet: wallet)
            let grant = try await mapSocial {
                try await social.authorize(app: consent.app.clientID, scopes: consent.scopes, expiresIn: consent.expiresSeconds)
            }
            let hash = grant.id
            let url = AppServer.redirectURL(consent.redirect, [("grant", hash), ("user", wallet.clientID), ("state", consent.state)])
            return try AppServer.json([
                "redirect": url, "grant": hash, "user": wallet.clientID, "expires_at": grant.expiresAt,
                "scopes": grant.scopes.map(\.rawValue),
            ])
        }

        api(
            .post, "/api/authorize/deny", summary: "Deny a consent request: answer the redirect URL with error=access_denied",
            access: .session,
            body: .json(AppServer.consentSchema), errors: [404, 409, 422]
        ) { [self] req in
            let body = try req.decode(ConsentBody.self)
            let consent = try await consentRequest(body.query)
            let url = AppServer.redirectURL(consent.redirect, [("error", "access_denied"), ("state", consent.state)])
            return try AppServer.json(["redirect": url])
        }
    }

    /// Checks a consent request against the ledger: the app exists, the redirect is the one it
    /// registered, the scopes and the expiry are valid.
    func consentRequest(_ query: [String: String]) async throws -> ConsentRequest {
        let appText = (query["app"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !appText.isEmpty else {
            throw HTTPError.badRequest(
                "this authorization link names no app (?app=NAME); the app that sent you here is misconfigured", code: "invalid_request")
        }
        guard appText.utf8.count <= 64 else { throw HTTPError.badRequest("the app name in this link is too long", code: "invalid_request") }
        let redirect = query["redirect"] ?? ""
        guard !redirect.isEmpty else {
            throw HTTPError.badRequest(
                "this authorization link has no redirect URL (?redirect=URL); the app that sent you here is misconfigured",
                code: "invalid_request")
        }
        let state = query["state"] ?? ""
        guard state.utf8.count <= 512 else {
            throw HTTPError.badRequest("the state in this link is longer than 512 bytes", code: "invalid_request")
        }
        let scopes: [SocialScope]
        switch SocialScope.parseList(query["scopes"] ?? "") {
        case .success(let s): scopes = s
        case .failure(let e):
            throw HTTPError.badRequest("\(e.description); this link asks for something Mosaic cannot grant", code: "invalid_scope")
        }
        let expiresText =
            (query["expires"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            ? AppServer.defaultGrantDuration
            : (query["expires"] ?? "").trimmingCharacters(in: .whitespaces)
        guard let ms = Quantity.milliseconds(expiresText), ms >= 60_000, ms / 1000 <= SocialRules.maxGrantSeconds else {
            throw HTTPError.badRequest(
                "invalid expiry \"\(expiresText.prefix(40))\": give a duration from 1m to 365d such as 1h, 7d or 30d",
                code: "invalid_expires")
        }
        let network = try mapConfig { try networkState.current() }
        let ledger = try mapConfig { try LedgerClient(network: network) }
        guard let app = try await mapSocial({ try await SocialClient(client: ledger).app(appText) }) else {
            throw HTTPError.notFound(
                "no app named \"\(appText)\" is registered on network \(network.name); nothing can be granted to it", code: "unknown_app")
        }
        guard redirect == app.redirectURL else {
            throw HTTPError.badRequest(
                "the redirect URL \(redirect.prefix(200)) is not the one app \(app.name) registered (\(app.redirectURL)); the link may be forged, so Mosaic will not send you there",
                code: "redirect_mismatch")
        }
        return ConsentRequest(
            app: app, scopes: scopes, redirect: redirect, expiresSeconds: ms / 1000, expiresText: expiresText, state: state)
    }

    static func redirectURL(_ base: String, _ items: [(String, String)]) -> String {
        let extra = items.map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&")
        let sep = base.contains("?") ? "&" : "?"
        return base + sep + extra
    }

    static func formEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func queryString(_ q: [String: String]) -> String {
        q.sorted { $0.key < $1.key }.map { "\(formEncode($0.key))=\(formEncode($0.value))" }.joined(separator: "&")
    }

    static func scopeWords(_ scope: SocialScope) -> (String, String) {
        switch scope {
        case .vote: return ("Vote for you", "Upvote and downvote posts and replies as you, with any weight, spending your voting power.")
        case .comment: return ("Post and reply for you", "Write posts and replies as you, and edit them.")
        }
    }

    func consentPage(_ c: ConsentRequest, session: Session) throws -> HTTPResponse {
        let e = AppServer.escape
        let until = AppServer.utcDate(Int64(Date().timeIntervalSince1970) + c.expiresSeconds)
        let scopes = c.scopes.map { s -> String in
            let (title, detail) = AppServer.scopeWords(s)
            return
                "<li class=\"consent-scope\" data-scope=\"\(s.rawValue)\"><strong>\(e(title))</strong><span class=\"muted\">\(e(detail))</span></li>"
        }.joined()
        let appCard = """
            <div class="consent-app" id="consent-app">
            <p class="consent-lead"><strong id="consent-app-name">\(e(c.app.name))</strong> asks to use your Mosaic social account.</p>
            <dl class="details">
            <div class="detail-row"><dt>App account</dt><dd class="mono" data-field="app_client_id">\(e(c.app.clientID))</dd></div>
            <div class="detail-row"><dt>Returns you to</dt><dd class="mono" id="consent-redirect">\(e(c.app.redirectURL))</dd></div>
            <div class="detail-row"><dt>Until</dt><dd id="consent-expires">\(e(until)) (\(e(c.expiresText)))</dd></div>
            </dl>
            <h2>It will be able to</h2>
            <ul class="consent-scopes" id="consent-scopes">\(scopes)</ul>
            <p class="muted small">It cannot send your tokens, read your files or see your recovery phrase. You can revoke it any time in Social → Apps.</p>
            </div>
            """
        let data = """
            data-app="\(e(c.app.name))" data-scopes="\(e(c.scopes.map(\.rawValue).joined(separator: ",")))" \
            data-redirect="\(e(c.redirect))" data-expires="\(e(c.expiresText))" data-state="\(e(c.state))" data-csrf="\(e(session.csrf))"
            """
        let body: String
        if let wallet = session.wallet {
            body = """
                <section class="card narrow consent" id="consent" \(data)>
                <h1>Authorize \(e(c.app.name))</h1>
                \(appCard)
                <p class="muted small">Signing as <strong id="consent-wallet">\(e(wallet.name))</strong> <span class="mono">\(e(String(wallet.clientID.prefix(12))))…</span></p>
                <p class="form-error" id="consent-error" role="alert" hidden></p>
                <p class="muted" id="consent-status" role="status" hidden></p>
                <div class="actions"><button type="button" class="btn" id="consent-deny">Deny</button>
                <button type="button" class="btn btn-primary" id="consent-approve">Approve</button></div>
                </section>
                """
        } else {
            let wallets = keystore.list()
            let form: String
            if wallets.isEmpty {
                form = """
                    <p id="consent-no-wallet">There is no wallet on this computer yet. <a href="/">Create one in Mosaic</a>, then open this link again.</p>
                    """
            } else {
                let picker =
                    wallets.count > 1
                    ? """
                    <div class="field"><label for="consent-wallet-select">Wallet</label><select id="consent-wallet-select">\(wallets.map { "<option value=\"\(e($0.name))\">\(e($0.name))</option>" }.joined())</select></div>
                    """ : ""
                form = """
                    <form id="consent-unlock-form" class="stack" novalidate>
                    <p class="notice">\(session.expired ? "Your session expired. " : "")Unlock your wallet to continue.</p>
                    \(picker)
                    <div class="field"><label for="consent-passphrase">Passphrase</label><input type="password" id="consent-passphrase" autocomplete="current-password" required></div>
                    <p class="form-error" id="consent-error" role="alert" hidden></p>
                    <button type="submit" class="btn btn-primary btn-block" id="consent-unlock">Unlock</button>
                    <button type="button" class="btn btn-ghost btn-block" id="consent-deny">Deny without signing in</button>
                    </form>
                    """
            }
            body = """
                <section class="card narrow consent" id="consent" \(data) data-locked="true">
                <h1>Authorize \(e(c.app.name))</h1>
                \(appCard)
                \(form)
                </section>
                """
        }
        return .html(AppServer.consentShell(title: "Authorize \(c.app.name)", body: body))
    }

    static func consentErrorPage(_ error: HTTPError) -> HTTPResponse {
        let body = """
            <section class="card narrow consent" id="consent-refused" data-code="\(escape(error.code))">
            <h1>This authorization request is not valid</h1>
            <p class="form-error" id="consent-refused-message" role="alert">\(escape(error.message))</p>
            <p class="muted">Nothing was granted. You can close this page and tell the app's developer.</p>
            <p><a class="btn" href="/">Open Mosaic</a></p>
            </section>
            """
        return .html(consentShell(title: "Authorization refused", body: body), status: error.status)
    }

    static func consentShell(title: String, body: String, refresh: String? = nil) -> String {
        let meta = refresh.map { "<meta http-equiv=\"refresh\" content=\"0;url=\(escape($0))\">" } ?? ""
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">\(meta)<title>\(escape(title)) · Mosaic</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/app.css"><script src="/consent.js" defer></script></head>
            <body><header class="topbar"><a class="brand" href="/"><img src="/icon.svg" alt="" width="28" height="28"><span>Mosaic</span></a></header>
            <main class="view">\(body)</main></body></html>
            """
    }
}

extension AppServer.ConsentBody {
    var query: [String: String] {
        var q = ["app": app, "redirect": redirect]
        if let scopes { q["scopes"] = scopes }
        if let expires { q["expires"] = expires }
        if let state { q["state"] = state }
        return q
    }
}
