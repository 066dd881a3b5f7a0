import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK

/// Onboarding, unlock and sign-out: the keystore stays here; the page gets public data only.
extension AppServer {
    struct CreateBody: Decodable {
        let name: String?
        let passphrase: String
        let passphraseConfirm: String?
        let mnemonic: String?
        enum CodingKeys: String, CodingKey {
            case name, passphrase, mnemonic
            case passphraseConfirm = "passphrase_confirm"
        }
    }

    struct UnlockBody: Decodable {
        let name: String?
        let passphrase: String
    }

    static let minimumPassphraseLength = 8

    /// Bodies of wallet creation and recovery: a name (default: the next free one) and the passphrase twice.
    static let createSchema = JSONSchema.object(
        [
            ("name", .string(maxLength: 64, pattern: "^[A-Za-z0-9_-]{1,64}$")), ("passphrase", .string(maxLength: 1024)),
            ("passphrase_confirm", .string(maxLength: 1024)), ("mnemonic", .string(maxLength: 1024)),
        ], required: ["passphrase"])
    static let unlockSchema = JSONSchema.object(
        [("name", .string(maxLength: 64)), ("passphrase", .string(maxLength: 1024))],
        required: ["passphrase"])

    func registerSessionRoutes() {
        api(.get, "/api/session", summary: "Session state, wallets and the CSRF token", access: .open) { [self] req in
            let ks = keystore
            let wallets = ks.list()
            let state = req.session.wallet != nil ? "unlocked" : (wallets.isEmpty ? "no_wallet" : "locked")
            var body: [String: Any] = [
                "state": state,
                "wallets": wallets.map { ["name": $0.name, "client_id": $0.clientID] },
                "csrf": req.session.csrf,
                "version": AppServer.version,
                "idle_timeout_s": Int(configuration.idleTimeout),
                "default_wallet": ks.defaultName ?? NSNull(),
                "expired": req.session.expired,
            ]
            body["wallet"] = req.session.wallet.map(AppServer.walletJSON) ?? NSNull()
            return try AppServer.json(body)
        }

        api(
            .post, "/api/wallets", summary: "Create a wallet; the mnemonic is returned this once", access: .session,
            body: .json(AppServer.createSchema), statuses: [201], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(CreateBody.self)
            try AppServer.checkNewPassphrase(body.passphrase, body.passphraseConfirm)
            let name = try walletName(body.name)
            let (stored, mnemonic) = try mapKeystore { try keystore.create(name: name, passphrase: body.passphrase) }
            let wallet = try mapKeystore { try keystore.unlock(name: stored.name, passphrase: body.passphrase) }
            sessions.update(req.session.id) {
                $0.wallet = wallet
                $0.expired = false
            }
            var json = AppServer.walletJSON(wallet)
            json["mnemonic"] = mnemonic.revealPhrase()
            return try AppServer.json(json, status: 201)
        }

        api(
            .post, "/api/wallets/recover", summary: "Recover a wallet from its mnemonic", access: .session,
            body: .json(AppServer.createSchema), statuses: [201], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(CreateBody.self)
            guard let phrase = body.mnemonic, !phrase.isEmpty else {
                throw HTTPError.unprocessable("enter the 24 words of the mnemonic", code: "invalid_mnemonic")
            }
            try AppServer.checkNewPassphrase(body.passphrase, body.passphraseConfirm)
            let name = try walletName(body.name)
            let stored = try mapKeystore { try keystore.recover(name: name, phrase: phrase, passphrase: body.passphrase) }
            let wallet = try mapKeystore { try keystore.unlock(name: stored.name, passphrase: body.passphrase) }
            sessions.update(req.session.id) {
                $0.wallet = wallet
                $0.expired = false
            }
            return try AppServer.json(AppServer.walletJSON(wallet), status: 201)
        }

        api(
            .post, "/api/unlock", summary: "Unlock a wallet with its passphrase", access: .session,
            body: .json(AppServer.unlockSchema), errors: [404, 422, 429]
        ) { [self] req in
            let body = try req.decode(UnlockBody.self)
            let ks = keystore
            let name = try mapKeystore { try ks.resolveName(body.name?.isEmpty == false ? body.name : nil) }
            let wallet = try guessing(req) { try mapKeystore { try ks.unlock(name: name, passphrase: body.passphrase) } }
            sessions.update(req.session.id) {
                $0.wallet = wallet
                $0.expired = false
            }
            return try AppServer.json(AppServer.walletJSON(wallet))
        }

        api(.post, "/api/lock", summary: "Sign out: forget the unlocked wallet", access: .session, statuses: [204]) { [self] req in
            sessions.update(req.session.id) {
                $0.wallet = nil
                $0.expired = false
            }
            return HTTPResponse(status: 204, body: Data(), contentType: "text/plain")
        }

        api(.get, "/api/wallet", summary: "The unlocked wallet's public data", access: .wallet) { req in
            try AppServer.json(AppServer.walletJSON(try req.wallet()))
        }

        api(
            .post, "/api/wallet/reveal", summary: "The mnemonic, after checking the passphrase again", access: .wallet,
            body: .json(.object([("passphrase", .string(maxLength: 1024))])), errors: [429]
        ) { [self] req in
            let body = try req.decode(UnlockBody.self)
            let current = try req.wallet()
            let wallet = try guessing(req) { try mapKeystore { try keystore.unlock(name: current.name, passphrase: body.passphrase) } }
            return try AppServer.json(["mnemonic": wallet.mnemonic.revealPhrase()])
        }

        api(
            .get, "/api/qr", summary: "A QR code (SVG) of a short text such as a client id", access: .open,
            parameters: [AppParameters.qrText], errors: [422]
        ) { req in
            let text = try req.http[AppParameters.qrText]
            guard let svg = QRCode.svg(text) else { throw HTTPError.unprocessable("this text cannot be drawn as a QR code") }
            return HTTPResponse(status: 200, body: Data(svg.utf8), contentType: "image/svg+xml")
        }
    }

    static func walletJSON(_ w: UnlockedWallet) -> [String: Any] {
        ["name": w.name, "client_id": w.clientID, "public_key": w.publicKey.hex]
    }

    static func checkNewPassphrase(_ pass: String, _ confirm: String?) throws {
        guard pass.count >= minimumPassphraseLength else {
            throw HTTPError.unprocessable(
                "the passphrase must have at least \(minimumPassphraseLength) characters", code: "weak_passphrase")
        }
        guard let confirm, confirm == pass else {
            throw HTTPError.unprocessable("the two passphrases do not match", code: "passphrase_mismatch")
        }
    }

    func walletName(_ given: String?) throws -> String {
        if let given, !given.trimmingCharacters(in: .whitespaces).isEmpty { return given.trimmingCharacters(in: .whitespaces) }
        let names = Set(keystore.names())
        if !names.contains("default") { return "default" }
        var i = 2
        while names.contains("wallet-\(i)") { i += 1 }
        return "wallet-\(i)"
    }

    /// A passphrase check under the unlock limits (`UnlockThrottle`): 429 while a wait runs.
    func guessing<T>(_ req: AppRequest, _ body: () throws -> T) throws -> T {
        try unlockThrottle.attempt(session: req.session.id, isWrongPassphrase: { ($0 as? HTTPError)?.code == "wrong_passphrase" }, body)
    }

    /// Keystore failures as HTTP answers with the keystore's own message.
    func mapKeystore<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KeystoreError {
            switch error {
            case .wrongPassphrase: throw HTTPError.unauthorized(error.description, code: "wrong_passphrase")
            case .walletExists: throw HTTPError.conflict(error.description, code: "wallet_exists")
            case .unknownWallet, .noDefaultWallet: throw HTTPError.notFound(error.description, code: "unknown_wallet")
            case .invalidName: throw HTTPError.unprocessable(error.description, code: "invalid_name")
            case .invalidMnemonic: throw HTTPError.unprocessable(error.description, code: "invalid_mnemonic")
            case .emptyPassphrase: throw HTTPError.unprocessable(error.description, code: "weak_passphrase")
            default: throw HTTPError(status: 500, code: "keystore", message: error.description)
            }
        }
    }
}
