import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// Sharing: the owner makes a signed ticket for one file; a public link `/s/TICKET#key=HEX` carries
/// the file's key in its fragment (never sent to a server, never in a `Referer`), so the page at
/// `/s/TICKET` can hand it over in the body of a POST and the app fetches, verifies and decrypts
/// the file for anyone holding the link, with a throw-away reader key (no wallet needed).
extension AppServer {
    struct ShareBody: Decodable {
        let alloc: String
        let path: String
        let toClientID: String?
        let expire: String?
        enum CodingKeys: String, CodingKey {
            case alloc, path, expire
            case toClientID = "to_client_id"
        }
    }

    func registerShareRoutes() {
        api(
            .post, "/api/files/share", summary: "Share a file: a signed ticket and a link", access: .wallet,
            body: .json(
                .object(
                    [
                        ("alloc", .hex64), ("path", .string(maxLength: RemotePath.maxBytes)), ("to_client_id", .string(maxLength: 128)),
                        ("expire", .described(.string(maxLength: 32), "a duration such as 1d or 7d")),
                    ], required: ["alloc", "path"])),
            errors: [403, 404, 422]
        ) { [self] req in
            let body = try req.decode(ShareBody.self)
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            let wallet = try ledgerWallet(req)
            var recipient: Ed25519.PublicKey?
            if let to = body.toClientID, !to.trimmingCharacters(in: .whitespaces).isEmpty {
                recipient = try await mapStorage { try await wallet.client.shareRecipient(to) }
            }
            var expiration: Int64 = 0
            if let e = body.expire, !e.isEmpty {
                guard let ms = Quantity.milliseconds(e), ms > 0 else {
                    throw HTTPError.unprocessable("invalid expiry \"\(e)\": give a duration such as 1d or 7d", code: "invalid_expire")
                }
                expiration = Int64(Date().timeIntervalSince1970) + ms / 1000
            }
            let token = try await mapStorage {
                try await client.share(body.path, allocation: alloc, recipient: recipient, expiration: expiration)
            }
            let url = token.link(base: server.baseURL)
            try? shareLog.add(
                ShareLog.Entry(
                    ticketID: token.ticket.id, allocationID: alloc.id, path: token.ticket.path,
                    recipientID: token.ticket.recipientID, expiration: expiration,
                    created: Int64(Date().timeIntervalSince1970), url: url, revoked: false),
                owner: wallet.clientID)
            return try AppServer.json([
                "ticket": token.encoded, "ticket_id": token.ticket.id, "url": url,
                "public": recipient == nil, "expiration": expiration,
            ])
        }

        server.route(.get, "/s/:ticket", summary: "A shared file's page", parameters: [AppParameters.ticket], errors: [404]) { [self] req in
            let token: ShareToken
            do { token = try ShareToken.decode(try req[AppParameters.ticket]) } catch {
                return AppServer.secured(
                    .html(
                        AppServer.sharedPage(title: "Link not valid", body: "<p id=\"shared-error\">\(AppServer.escape("\(error)"))</p>"),
                        status: 400))
            }
            // An old link has the key in its path: send the browser to the new form (key in the fragment).
            if token.key != nil {
                var moved = HTTPResponse.html(AppServer.sharedPage(title: "Moved", body: "<p>This link moved.</p>"), status: 303)
                moved.headers.add("Location", token.linkPath)
                return AppServer.secured(moved)
            }
            // Shared with one wallet: only that wallet's key can list or open it, so the page hands
            // the ticket to the web app, where the recipient is signed in (or unlocks first).
            if !token.ticket.recipientID.isEmpty {
                let inApp = "/#/shared?t=" + (token.encoded.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? token.encoded)
                let body = """
                    <div id="shared-for-wallet" class="card"><h2>A file shared with one wallet</h2>
                    <p>This file was shared with wallet <span class="mono">\(AppServer.escape(String(token.ticket.recipientID.prefix(12))))…</span>. Open it in Mosaic while that wallet is unlocked.</p>
                    <p><a class="btn btn-primary" id="shared-open-in-app" href="\(AppServer.escape(inApp))">Open in Mosaic</a></p></div>
                    """
                return AppServer.secured(.html(AppServer.sharedPage(title: "Shared file", body: body)))
            }
            do {
                let (meta, _) = try await sharedFile(token)
                let name = (meta.path as NSString).lastPathComponent
                let expires =
                    token.ticket.expiration == 0
                    ? "never"
                    : AppServer.utcDate(token.ticket.expiration)
                let type = meta.contentType.isEmpty ? "unknown" : meta.contentType
                let body = """
                    <div id="shared-file" class="card" data-name="\(AppServer.escape(name))" data-mime="\(AppServer.escape(type))" data-size="\(max(0, meta.size))"><h2 class="wrap">\(AppServer.escape(name))</h2>
                    <dl class="details">
                    <div class="detail-row"><dt>Size</dt><dd data-field="size">\(Quantity.formatBytes(UInt64(max(0, meta.size))))</dd></div>
                    <div class="detail-row"><dt>Type</dt><dd data-field="mime">\(AppServer.escape(type))</dd></div>
                    <div class="detail-row"><dt>Expires</dt><dd data-field="expiration">\(AppServer.escape(expires))</dd></div>
                    <div class="detail-row"><dt>Shared by</dt><dd class="mono" data-field="owner">\(AppServer.escape(String(token.ticket.ownerID.prefix(12))))…</dd></div>
                    </dl>
                    <div class="share-preview" id="shared-preview"></div>
                    <p class="form-error" id="shared-download-error" role="alert" hidden></p>
                    <p><button type="button" class="btn btn-primary" id="shared-download">Download</button></p></div>
                    """
                return AppServer.secured(.html(AppServer.sharedPage(title: name, body: body)))
            } catch let e as HTTPError {
                return AppServer.secured(
                    .html(
                        AppServer.sharedPage(
                            title: "Cannot open this file", body: "<p id=\"shared-error\">\(AppServer.escape(e.message))</p>"), status: 404)
                )
            } catch {
                return AppServer.secured(
                    .html(
                        AppServer.sharedPage(
                            title: "Cannot open this file",
                            body:
                                "<p id=\"shared-error\">This link cannot be opened now; the file may have been deleted or the share revoked.</p>"
                        ), status: 404))
            }
        }

        server.route(
            .post, "/s/:ticket/download", summary: "Download a shared file: JSON {\"key\": HEX from the link's #key=}",
            parameters: [AppParameters.ticket],
            body: .json(.object([("key", .string(maxLength: 128))], required: [])),
            errors: [400, 403, 404, 415, 422], bodyLimit: 4096
        ) { [self] req in
            do {
                try RequestGuard.checkJSONBody(req)
                let body = req.body.isEmpty ? SharedDownloadBody(key: nil) : try req.decodeJSON(SharedDownloadBody.self)
                var token = try ShareToken.decode(try req[AppParameters.ticket])
                if let key = body.key, !key.isEmpty { token = try token.with(keyHex: key) }
                guard token.key != nil || token.sealedKey != nil else {
                    throw HTTPError.badRequest(
                        "this link has no key (the part after #key=); copy the whole link again", code: "missing_key")
                }
                let reader = Ed25519.SigningKey.generate()
                let key = try token.contentKey(for: reader)
                let (_, alloc) = try await sharedFile(token)
                let client = StorageClient(signingKey: reader, home: configuration.home.appendingPathComponent("app-readers"))
                let spool = try spoolFile()
                // The response holds the open file; the name can go, so nothing stays on disk.
                defer { try? FileManager.default.removeItem(at: spool) }
                _ = try await mapStorage {
                    try await client.download(
                        remotePath: token.ticket.path, to: spool, allocation: alloc, ticket: token.ticket, contentKey: key)
                }
                return AppServer.secured(
                    try AppServer.userFile(atPath: spool.path, name: (token.ticket.path as NSString).lastPathComponent, inline: false))
            } catch let e as HTTPError {
                return AppServer.secured(e.response)
            } catch let e as ShareTokenError {
                return AppServer.secured(HTTPError.badRequest(e.description, code: "invalid_ticket").response)
            } catch is CryptoError {
                // The key sits outside the ticket's signature: a wrong one shows when AES-GCM fails.
                return AppServer.secured(
                    HTTPError.forbidden(
                        "the link's key does not open this file; copy the whole link again, including the part after #",
                        code: "wrong_key"
                    ).response)
            }
        }
    }

    /// What the share page posts: the key from the link's fragment (absent for a link sealed to a wallet).
    struct SharedDownloadBody: Decodable {
        let key: String?
    }

    /// The file a ticket names, read with the ticket (so a revoked or expired ticket fails here).
    func sharedFile(_ token: ShareToken) async throws -> (FileMeta, StorageAllocation) {
        let network = try mapConfig { try networkState.current() }
        let ledger = try mapConfig { try LedgerClient(network: network) }
        guard let onLedger = try await mapWallet({ try await ledger.storageAllocation(token.ticket.allocationID) }) else {
            throw HTTPError.notFound("the shared allocation no longer exists", code: "unknown_allocation")
        }
        let alloc: StorageAllocation
        do { alloc = try StorageAllocation(onLedger) } catch {
            throw HTTPError(status: 502, code: "invalid_allocation", message: error.description)
        }
        if token.ticket.expiration != 0 && token.ticket.expiration < Int64(Date().timeIntervalSince1970) {
            throw HTTPError.forbidden("this link expired; ask the owner to share the file again", code: "ticket_expired")
        }
        let reader = StorageClient(
            signingKey: Ed25519.SigningKey.generate(), home: configuration.home.appendingPathComponent("app-readers"))
        let meta = try await mapStorage { try await reader.stat(token.ticket.path, allocation: alloc, ticket: token.ticket) }
        return (meta, alloc)
    }

    static func sharedPage(title: String, body: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark"><title>\(escape(title)) · Mosaic</title><link rel="stylesheet" href="/app.css"><script src="/share.js" defer></script></head>
        <body><header class="topbar"><a class="brand" href="/"><img src="/icon.svg" alt="" width="28" height="28"><span>Mosaic</span></a></header>
        <main class="view">\(body)</main></body></html>
        """
    }

    /// "9 Dec 2026, 01:21 UTC": the same on every server, whatever its time zone.
    static func utcDate(_ seconds: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "d MMM yyyy, HH:mm 'UTC'"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
