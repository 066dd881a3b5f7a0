import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// A file shared with one wallet opens in the web app for that wallet: the ticket's content key is
/// sealed to the recipient, and blobbers serve the ticket only to the recipient's key, so both the
/// listing and the download use the signed-in wallet (not a throw-away reader key). The owner's
/// list of shares and their revocation are here too.
extension AppServer {
    struct TicketBody: Decodable { let ticket: String }
    struct RevokeShareBody: Decodable {
        let ticketID: String
        enum CodingKeys: String, CodingKey { case ticketID = "ticket_id" }
    }

    static let ticketSchema = JSONSchema.object([("ticket", .string(maxLength: 8192))])

    func registerSharedWithMeRoutes() {
        api(
            .post, "/api/shared/info", summary: "A file shared with the signed-in wallet: name, size, type, expiry", access: .wallet,
            body: .json(AppServer.ticketSchema), errors: [403, 404, 422]
        ) { [self] req in
            let body = try req.decode(TicketBody.self)
            let (token, meta, _, _) = try await sharedForWallet(req, ticket: body.ticket)
            return try AppServer.json([
                "name": (meta.path as NSString).lastPathComponent, "size": meta.size, "mime": meta.contentType,
                "owner_id": token.ticket.ownerID, "recipient_id": token.ticket.recipientID, "expiration": token.ticket.expiration,
            ])
        }

        api(
            .post, "/api/shared/download", summary: "Download a file shared with the signed-in wallet", access: .wallet,
            body: .json(AppServer.ticketSchema), errors: [403, 404, 422]
        ) { [self] req in
            let body = try req.decode(TicketBody.self)
            let (token, _, client, alloc) = try await sharedForWallet(req, ticket: body.ticket)
            let key: SecretBytes
            do { key = try token.contentKey(for: try req.wallet().signingKey) } catch { throw AppServer.notForThisWallet(token) }
            let spool = try spoolFile()
            defer { try? FileManager.default.removeItem(at: spool) }
            _ = try await mapStorage {
                try await client.download(
                    remotePath: token.ticket.path, to: spool, allocation: alloc, ticket: token.ticket, contentKey: key)
            }
            return try AppServer.userFile(atPath: spool.path, name: (token.ticket.path as NSString).lastPathComponent, inline: false)
        }

        api(.get, "/api/shares", summary: "The shares this wallet made from this app", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            return try AppServer.json(["shares": shareLog.list(owner: wallet.clientID).map(\.json)])
        }

        api(
            .post, "/api/shares/revoke", summary: "Revoke a share: blobbers refuse its ticket from then on", access: .wallet,
            body: .json(.object([("ticket_id", .hex64)])), errors: [404, 422]
        ) { [self] req in
            let body = try req.decode(RevokeShareBody.self)
            let wallet = try ledgerWallet(req)
            guard shareLog.list(owner: wallet.clientID).contains(where: { $0.ticketID == body.ticketID }) else {
                throw HTTPError.notFound("This wallet made no share with that ticket from this app.", code: "unknown_share")
            }
            _ = try await mapWallet { try await wallet.revokeTicket(body.ticketID) }
            _ = try shareLog.markRevoked(body.ticketID, owner: wallet.clientID)
            return try AppServer.json(["ticket_id": body.ticketID, "revoked": true])
        }
    }

    static func notForThisWallet(_ token: ShareToken) -> HTTPError {
        HTTPError.forbidden(
            "This file was shared with another wallet (\(token.ticket.recipientID.prefix(12))…). Sign out and unlock that wallet to open it.",
            code: "not_for_this_wallet")
    }

    /// The ticket, the file's metadata, and a storage client with the session's key.
    func sharedForWallet(_ req: AppRequest, ticket: String) async throws -> (ShareToken, FileMeta, StorageClient, StorageAllocation) {
        let token: ShareToken
        do { token = try ShareToken.decode(ticket) } catch {
            throw HTTPError.unprocessable(
                "This is not a share link Mosaic can read; ask the owner to send it again.", code: "invalid_ticket")
        }
        let unlocked = try req.wallet()
        if !token.ticket.recipientID.isEmpty && token.ticket.recipientID != unlocked.clientID { throw AppServer.notForThisWallet(token) }
        if token.ticket.expiration != 0 && token.ticket.expiration < Int64(Date().timeIntervalSince1970) {
            throw HTTPError.forbidden("This share expired; ask the owner to share the file again.", code: "ticket_expired")
        }
        let wallet = try ledgerWallet(req)
        guard let onLedger = try await mapWallet({ try await wallet.client.storageAllocation(token.ticket.allocationID) }) else {
            throw HTTPError.notFound("The shared allocation no longer exists.", code: "unknown_allocation")
        }
        let alloc: StorageAllocation
        do { alloc = try StorageAllocation(onLedger) } catch {
            throw HTTPError(status: 502, code: "invalid_allocation", message: error.description)
        }
        let client = StorageClient(signingKey: unlocked.signingKey, home: configuration.home)
        let meta = try await mapStorage { try await client.stat(token.ticket.path, allocation: alloc, ticket: token.ticket) }
        return (token, meta, client, alloc)
    }
}
