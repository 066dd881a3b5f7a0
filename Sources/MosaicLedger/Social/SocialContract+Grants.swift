import MosaicProtocol

/// App authorizations (docs/SOCIAL.md §7): `register_app`, `grant`, `revoke` and the `grants`
/// and `app` views. The ledger itself is the authorization server: a grant is a signed
/// transaction of the user, and every app-signed operation is checked against it (`authorize`).
extension SocialContract {
    /// Args: `name` (3–32 of [a-z0-9-], unique), `redirect_url` (http:// or https://). The
    /// caller's account becomes the app; calling again changes its redirect URL.
    func registerApp(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let name = try a.string("name")
        guard SocialRules.isValidAppName(name) else {
            throw .invalidArguments("app name \"\(name.prefix(40))\" must be 3–32 characters of a-z, 0-9 and -")
        }
        let redirect = try a.string("redirect_url")
        guard redirect.hasPrefix("http://") || redirect.hasPrefix("https://"), redirect.utf8.count > 8,
            redirect.utf8.count <= SocialRules.maxRedirectBytes, !redirect.contains(where: { $0.isWhitespace })
        else {
            throw .invalidArguments(
                "redirect_url must be an http:// or https:// URL of at most \(SocialRules.maxRedirectBytes) bytes, without spaces")
        }
        if let owner = try context.get(SocialKeys.appName(name)).map({ String(decoding: $0, as: UTF8.self) }), owner != context.caller {
            throw .refused(.alreadyExists, "app name \(name) is taken by \(owner); choose another name")
        }
        if let existing = try store.app(context.caller), existing.name != name {
            throw .refused(
                .alreadyExists,
                "this account is already app \(existing.name); an app keeps its name (register another account for a new app)")
        }
        let registered = try store.app(context.caller)?.registered ?? context.now
        let app = SocialApp(clientID: context.caller, name: name, redirectURL: redirect, registered: registered)
        try context.set(SocialKeys.app(context.caller), try SocialCodec.encodeJSON(app))
        try context.set(SocialKeys.appName(name), Array(context.caller.utf8))
        try context.emit("register_app", ["app": context.caller, "name": name])
        return "registered app \(name) (\(context.caller))"
    }

    /// Args: `app` (client id or name), `scopes` (["vote","comment"] or "vote,comment"),
    /// `expires_at` (unix seconds, after now, at most a year ahead). Replaces an earlier grant
    /// of the caller to that app.
    func grant(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let appText = try a.string("app")
        guard let app = try store.app(named: appText) else {
            throw .refused(
                .notFound,
                "no app \(appText.prefix(80)) is registered; apps register with social.register_app ('mosaic social app register')")
        }
        guard app.clientID != context.caller else {
            throw .refused(.invalidArgument, "an app cannot grant itself; it already acts as itself")
        }
        let words = try a.optionalStrings("scopes") ?? []
        let scopes: [SocialScope]
        switch SocialScope.parseList(words.joined(separator: ",")) {
        case .success(let s): scopes = s
        case .failure(let e): throw .invalidArguments("scopes: \(e.description)")
        }
        let expires = try a.int64("expires_at")
        let now = context.now
        guard expires > now else {
            throw .invalidArguments("expires_at \(UTCTime.iso8601(expires)) is not in the future (now is \(UTCTime.iso8601(now)))")
        }
        guard StorageContract.seconds(from: now, to: expires) <= UInt64(SocialRules.maxGrantSeconds) else {
            throw .invalidArguments("a grant lasts at most 365 days")
        }
        let grant = SocialGrant(
            id: context.transactionHash, user: context.caller, app: app.clientID, appName: app.name, scopes: scopes, granted: now,
            expiresAt: expires)
        try context.set(SocialKeys.grant(context.caller, app.clientID), try SocialCodec.encodeJSON(grant))
        let list = scopes.map(\.rawValue).joined(separator: ",")
        try context.emit("grant", ["user": context.caller, "app": app.clientID, "scopes": list, "expires_at": String(expires)])
        return "granted app \(app.name) scopes \(list) until \(UTCTime.iso8601(expires))"
    }

    /// Args: `app` (client id or name). Ends the caller's grant to that app at once.
    func revoke(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let appText = try a.string("app")
        guard let app = try store.app(named: appText) else { throw .refused(.notFound, "no app \(appText.prefix(80)) is registered") }
        guard try store.grant(context.caller, app.clientID) != nil else {
            throw .refused(.notFound, "you have no grant for app \(app.name); list yours with 'mosaic social grants'")
        }
        try context.set(SocialKeys.grant(context.caller, app.clientID), nil)
        try context.emit("revoke", ["user": context.caller, "app": app.clientID])
        return "revoked the grant of app \(app.name)"
    }

    /// `grants`: arg `user`; every grant of that user, expired ones included (flagged).
    func grantsView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let user = try a.clientID("user")
        let rows = try store.reader.scan(prefix: SocialKeys.grants(user), after: nil, limit: 1000, reverse: false)
        var out: [JSONValue] = []
        for row in rows {
            var g = try SocialCodec.decodeJSON(row.value, as: SocialGrant.self, key: row.key)
            g.expired = store.now >= g.expiresAt
            out.append(g.jsonValue)
        }
        return .object(["grants": .array(out)])
    }

    /// `app`: arg `app` (client id or name); the app or null.
    func appView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        guard let app = try store.app(named: try a.string("app")) else { return .null }
        return .object([
            "client_id": .string(app.clientID), "name": .string(app.name), "redirect_url": .string(app.redirectURL),
            "registered": .integer(app.registered),
        ])
    }
}

extension SocialGrant {
    var jsonValue: JSONValue {
        .object([
            "id": .string(id), "user": .string(user), "app": .string(app), "app_name": .string(appName),
            "scopes": .array(scopes.map { .string($0.rawValue) }), "granted": .integer(granted),
            "expires_at": .integer(expiresAt), "expired": .bool(expired),
        ])
    }
}
