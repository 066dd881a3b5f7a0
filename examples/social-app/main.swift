// A small third-party app on Mosaic's social network (see README.md next to this file).
//
// It has its own wallet key, registers itself on the ledger as an app (`social.register_app`)
// with its /callback as redirect URL, and serves on 127.0.0.1 a page with "Sign in with
// Mosaic". The user approves on the Mosaic web app's consent page (/authorize), which records a
// grant on the ledger and sends the browser back to /callback?grant=TX&user=CLIENT_ID&state=S.
// The app checks that grant on the ledger, then lists the feed with upvote buttons: each vote
// is signed with the APP's key naming the user as voter (`SocialClient.acting(for:)`), and the
// ledger checks the user's grant before counting it.
import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import Synchronization

struct Options {
    var dir = ""
    var node = ""
    var mosaic = "http://127.0.0.1:7300"
    var port: UInt16 = 0
    var name = "example-social-app"
    var scopes = "vote"
    var expires = "7d"
    var json = false

    static let usage = """
        usage: example-social-app --dir DIR --node URL [--mosaic URL] [--port N] [--name NAME] [--scopes vote,comment] [--expires 7d] [--json]
          --dir      folder for the app's key (app.key, created on first run) and its grants
          --node     the Mosaic node's URL (printed by `mosaic devnet`)
          --mosaic   the Mosaic web app's URL, where users approve (default http://127.0.0.1:7300)
          --port     port to serve on, on 127.0.0.1 (default: any free port)
          --name     the app's name on the ledger, 3–32 of a-z, 0-9, - (default example-social-app)
          --json     print one JSON line {"url","app","client_id"} when ready
        """

    static func parse(_ args: [String]) -> Result<Options, ExampleError> {
        var o = Options()
        var i = 0
        func value(_ flag: String) -> String? {
            i += 1
            return i < args.count ? args[i] : nil
        }
        while i < args.count {
            let flag = args[i]
            switch flag {
            case "--json": o.json = true
            case "--help", "-h": return .failure(.usage(""))
            case "--dir", "--node", "--mosaic", "--port", "--name", "--scopes", "--expires":
                guard let v = value(flag) else { return .failure(.usage("\(flag) needs a value")) }
                switch flag {
                case "--dir": o.dir = v
                case "--node": o.node = v
                case "--mosaic": o.mosaic = v
                case "--name": o.name = v
                case "--scopes": o.scopes = v
                case "--expires": o.expires = v
                default:
                    guard let p = UInt16(v) else { return .failure(.usage("--port must be a number from 0 to 65535, not \(v)")) }
                    o.port = p
                }
            default: return .failure(.usage("unknown argument \(flag)"))
            }
            i += 1
        }
        if o.dir.isEmpty { return .failure(.usage("give --dir DIR (the app's key is kept there)")) }
        if o.node.isEmpty { return .failure(.usage("give --node URL (the node of `mosaic devnet`)")) }
        return .success(o)
    }
}

enum ExampleError: Error, CustomStringConvertible {
    case usage(String)
    case startup(String)
    /// The callback's grant does not check out on the ledger.
    case grant(String)

    var description: String {
        switch self {
        case .usage(let m): return (m.isEmpty ? "" : "error: \(m)\n") + Options.usage
        case .startup(let m): return "error: \(m)"
        case .grant(let m): return m
        }
    }
}

/// The app's key: a 32-byte Ed25519 seed in hex, created on first run (mode 0600).
func loadOrCreateKey(dir: URL) throws -> Ed25519.SigningKey {
    let file = dir.appendingPathComponent("app.key")
    if let text = try? String(contentsOf: file, encoding: .utf8) {
        guard let bytes = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == Ed25519.seedCount else {
            throw ExampleError.startup("\(file.path) is not a 64-hex-character key; delete it to make a new app key")
        }
        return try Ed25519.SigningKey(seed: SecretBytes(bytes))
    }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let key = Ed25519.SigningKey.generate()
    let ok = FileManager.default.createFile(
        atPath: file.path, contents: Data(Hex.encode(key.seed.copyBytes()).utf8),
        attributes: [.posixPermissions: 0o600])
    guard ok else { throw ExampleError.startup("cannot write \(file.path)") }
    return key
}

/// Signed-in users (cookie → client id) and the grants the app holds, saved in DIR/grants.json.
final class Store: Sendable {
    struct Grant: Codable, Sendable {
        var user: String
        var grant: String
        var scopes: [String]
        var expiresAt: Int64
    }

    let file: URL
    private let sessions = Mutex<[String: String]>([:])
    private let grants: Mutex<[String: Grant]>

    init(file: URL) {
        self.file = file
        let saved = (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode([String: Grant].self, from: $0) } ?? [:]
        grants = Mutex(saved)
    }

    func user(cookie: String?) -> String? {
        guard let cookie else { return nil }
        return sessions.withLock { $0[cookie] }
    }

    func signIn(_ user: String) -> String {
        let id = Hex.encode(Random.bytes(24))
        sessions.withLock { $0[id] = user }
        return id
    }

    func signOut(_ cookie: String?) {
        guard let cookie else { return }
        _ = sessions.withLock { $0.removeValue(forKey: cookie) }
    }

    func save(_ g: Grant) {
        let all = grants.withLock { all -> [String: Grant] in
            all[g.user] = g
            return all
        }
        if let data = try? JSONEncoder().encode(all) { try? data.write(to: file, options: .atomic) }
    }
}

struct App: Sendable {
    let options: Options
    let wallet: Wallet
    let social: SocialClient
    let store: Store
    let base: String

    var redirectURL: String { base + "/callback" }

    // MARK: pages

    func register(on server: HTTPServer) {
        server.route(.get, "/", summary: "Home: sign in with Mosaic") { req in
            if store.user(cookie: req.cookies["example_session"]) != nil { return App.redirect("/feed") }
            return App.page(
                "Example social app",
                """
                <h1>Example social app</h1>
                <p>A third-party app on Mosaic's social network. It never sees your keys: you grant it the right to
                <strong>\(App.escape(options.scopes))</strong> for you on the Mosaic consent page, and it signs those operations with its own key.</p>
                <p><a class="button" id="signin" href="/login">Sign in with Mosaic</a></p>
                <p class="muted">App account <code>\(wallet.clientID)</code> · registered as <code>\(App.escape(options.name))</code></p>
                """)
        }

        server.route(.get, "/login", summary: "Start the consent flow") { _ in
            let state = Hex.encode(Random.bytes(16))
            let q = [
                ("app", options.name), ("scopes", options.scopes), ("redirect", redirectURL), ("expires", options.expires),
                ("state", state),
            ]
            let url = options.mosaic.trimmingSuffix("/") + "/authorize?" + q.map { "\($0.0)=\(App.encode($0.1))" }.joined(separator: "&")
            var r = App.redirect(url)
            r.headers.add("Set-Cookie", "example_state=\(state); Path=/; HttpOnly; SameSite=Lax")
            return r
        }

        server.route(.get, "/callback", summary: "Where the consent page sends the user back") { req in
            let q = req.query
            guard let state = q["state"], !state.isEmpty, state == req.cookies["example_state"] else {
                return App.page(
                    "Sign-in failed",
                    "<h1>Sign-in failed</h1><p id=\"error\">The state does not match the one this browser started with; start again.</p><p><a href=\"/\">Back</a></p>",
                    status: 400)
            }
            if let error = q["error"] {
                let text = error == "access_denied" ? "You denied access, so this app cannot vote for you." : "Mosaic answered: \(error)"
                return App.page(
                    "Not signed in", "<h1>Not signed in</h1><p id=\"denied\">\(App.escape(text))</p><p><a href=\"/\">Back</a></p>")
            }
            guard let hash = q["grant"], let user = q["user"], Transaction.isHexID(user) else {
                return App.page(
                    "Sign-in failed", "<h1>Sign-in failed</h1><p id=\"error\">The callback lacks grant and user.</p>", status: 400)
            }
            do {
                let g = try await verify(grant: hash, user: user)
                store.save(g)
                var r = App.redirect("/feed")
                r.headers.add("Set-Cookie", "example_session=\(store.signIn(user)); Path=/; HttpOnly; SameSite=Lax")
                return r
            } catch {
                return App.page(
                    "Sign-in failed", "<h1>Sign-in failed</h1><p id=\"error\">\(App.escape("\(error)"))</p><p><a href=\"/\">Back</a></p>",
                    status: 400)
            }
        }

        server.route(.get, "/feed", summary: "The feed with upvote buttons") { req in
            guard let user = store.user(cookie: req.cookies["example_session"]) else { return App.redirect("/") }
            let sort = SocialSort(rawValue: req.query["sort"] ?? "") ?? .trending
            let notice = req.query["msg"].map { "<p class=\"notice\" id=\"notice\">\(App.escape($0))</p>" } ?? ""
            let failure = req.query["error"].map { "<p class=\"error\" id=\"vote-error\" role=\"alert\">\(App.escape($0))</p>" } ?? ""
            let rows: String
            do {
                let page = try await social.feed(sort, limit: 50, truncateBody: 200)
                rows =
                    page.posts.isEmpty
                    ? "<li id=\"empty\">No posts in this feed.</li>"
                    : page.posts.map { p in
                        """
                        <li class="post" data-id="\(App.escape(p.path))"><div><strong>\(App.escape(p.title.isEmpty ? "(untitled)" : p.title))</strong>
                        <span class="muted">by \(p.author.prefix(8))… · <span class="votes">\(p.voteCount) vote\(p.voteCount == 1 ? "" : "s")</span> · \(p.netRshares) rshares</span></div>
                        <form method="post" action="/vote"><input type="hidden" name="id" value="\(App.escape(p.path))">
                        <button type="submit" class="upvote">Upvote</button></form></li>
                        """
                    }.joined()
            } catch {
                rows = "<li class=\"error\">Cannot read the feed: \(App.escape("\(error)"))</li>"
            }
            let tabs = SocialSort.allCases.map { s in
                s == sort
                    ? "<strong>\(s.rawValue)</strong>" : "<a id=\"tab-\(s.rawValue)\" href=\"/feed?sort=\(s.rawValue)\">\(s.rawValue)</a>"
            }.joined(separator: " · ")
            return App.page(
                "Feed",
                """
                <h1>Feed</h1><p class="muted">Signed in as <code id="user">\(user)</code> · <a href="/signout">sign out</a></p>
                \(notice)\(failure)<p>\(tabs)</p><ul id="feed">\(rows)</ul>
                """)
        }

        server.route(.post, "/vote", summary: "Upvote a post for the signed-in user (signed by the app)") { req in
            guard let user = store.user(cookie: req.cookies["example_session"]) else { return App.redirect("/") }
            let form = App.form(req.body)
            guard let text = form["id"], let id = SocialPostID(path: text) else {
                return App.redirect("/feed?error=" + App.encode("which post?"))
            }
            let weight = Int(form["weight"] ?? "") ?? 10_000
            do {
                try await social.acting(for: user).vote(id, weight: weight)
                return App.redirect("/feed?sort=created&msg=" + App.encode("Upvoted \(id.permlink) for you"))
            } catch {
                // The ledger's own reason, e.g. a revoked or expired grant, or a missing scope.
                return App.redirect("/feed?sort=created&error=" + App.encode("\(error)"))
            }
        }

        server.route(.get, "/signout", summary: "Forget the signed-in user") { req in
            store.signOut(req.cookies["example_session"])
            return App.redirect("/")
        }
    }

    /// Checks on the ledger that `hash` is a sealed, successful `social.grant` by `user` to this
    /// app, and that the grant is in force now.
    func verify(grant hash: String, user: String) async throws -> Store.Grant {
        let view = try await wallet.client.transaction(hash)
        let tx = view.transaction
        guard view.status == .sealed || view.status == .finalized, view.outcome == .success else {
            throw ExampleError.grant("grant transaction \(hash) is \(view.status.rawValue) \(view.error?.message ?? "")")
        }
        guard tx.clientID == user, let call = try? ContractCall.parse(tx.transactionData),
            call.contract == "social", call.method == "grant",
            call.args["app"] == .string(wallet.clientID) || call.args["app"] == .string(options.name)
        else {
            throw ExampleError.grant("transaction \(hash) is not a grant by \(user) to this app")
        }
        guard let g = try await social.grants(of: user).first(where: { $0.app == wallet.clientID }), !g.expired else {
            throw ExampleError.grant("user \(user) has no grant in force for this app (revoked or expired)")
        }
        return Store.Grant(user: user, grant: hash, scopes: g.scopes.map(\.rawValue), expiresAt: g.expiresAt)
    }

    // MARK: helpers

    static func page(_ title: String, _ body: String, status: Int = 200) -> HTTPResponse {
        .html(
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/style.css"></head>
            <body><main>\(body)</main></body></html>
            """, status: status)
    }

    static let css = """
        body { font: 16px system-ui, sans-serif; margin: 0; background: #fbf7ef; color: #2a2118; }
        main { max-width: 720px; margin: 40px auto; padding: 0 16px; }
        .button, button { background: #2a6b4f; color: #fff; border: 0; border-radius: 8px; padding: 10px 16px; font: inherit; text-decoration: none; cursor: pointer; }
        .muted { color: #7a6e60; } .notice { background: #e3f3ea; padding: 8px 12px; border-radius: 8px; }
        .error { background: #fde7e5; color: #a2261f; padding: 8px 12px; border-radius: 8px; }
        ul { list-style: none; padding: 0; } li.post { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 10px 0; border-bottom: 1px solid #e6dccd; }
        """

    static func redirect(_ location: String) -> HTTPResponse {
        var r = HTTPResponse(status: 303, body: Data(), contentType: "text/plain")
        r.headers.add("Location", location)
        return r
    }

    static func encode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func form(_ body: Data) -> [String: String] {
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: " ")
        var out: [String: String] = [:]
        for item in URLComponents(string: "?" + text)?.queryItems ?? [] { out[item.name] = item.value ?? "" }
        return out
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// Faucet tokens for the app's fees when its balance is empty (devnet), then register the app.
func prepare(_ app: App) async throws {
    if try await app.wallet.balance().baseUnits == 0 {
        let tx = try await app.wallet.faucet()
        _ = try await app.wallet.wait(for: tx.hash, until: .sealed, timeout: .seconds(60))
    }
    try await app.social.registerApp(name: app.options.name, redirectURL: app.redirectURL)
}

func run() async -> Int32 {
    let options: Options
    switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .success(let o): options = o
    case .failure(let e):
        FileHandle.standardError.write(Data((e.description + "\n").utf8))
        return 2
    }
    do {
        let dir = URL(fileURLWithPath: options.dir)
        let key = try loadOrCreateKey(dir: dir)
        guard let nodeURL = URL(string: options.node), nodeURL.scheme == "http" || nodeURL.scheme == "https" else {
            throw ExampleError.usage("--node must be an http:// URL, not \(options.node)")
        }
        let wallet = Wallet(signingKey: key, client: LedgerClient(baseURL: nodeURL), name: options.name)
        var config = HTTPServer.Configuration()
        config.port = options.port
        config.title = "Example social app"
        config.logger = nil
        let server = HTTPServer(configuration: config)
        server.route(.get, "/style.css", summary: "Styles") { _ in
            HTTPResponse(status: 200, body: Data(App.css.utf8), contentType: "text/css")
        }
        // The redirect URL needs the bound port, so the pages are added once the server runs.
        try server.start()
        let base = server.baseURL.absoluteString.trimmingSuffix("/")
        let app = App(
            options: options, wallet: wallet, social: SocialClient(wallet: wallet),
            store: Store(file: dir.appendingPathComponent("grants.json")), base: base)
        app.register(on: server)
        try await prepare(app)
        if options.json {
            let line = try JSONSerialization.data(
                withJSONObject: ["url": base, "app": options.name, "client_id": wallet.clientID], options: [.sortedKeys])
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        } else {
            print("\(options.name) (app account \(wallet.clientID)) on \(base); sign in at \(base)/")
        }
        while true { try await Task.sleep(for: .seconds(3600)) }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        return 1
    }
}

exit(await run())
