import Foundation
import MosaicSDK
import Synchronization

/// The shares a wallet made from this app, so its owner can list and revoke them: one JSON file
/// per wallet under `$MOSAIC_HOME/app-shares/` (mode 0600; a public link's key is in it, as it is
/// in the owner's own keystore folder). The ledger has no list of tickets; revoking one is a
/// `storage.revoke_ticket` call, after which blobbers refuse it.
final class ShareLog: Sendable {
    struct Entry: Codable, Sendable {
        var ticketID: String
        var allocationID: String
        var path: String
        var recipientID: String
        var expiration: Int64
        var created: Int64
        var url: String
        var revoked: Bool

        enum CodingKeys: String, CodingKey {
            case path, expiration, created, url, revoked
            case ticketID = "ticket_id"
            case allocationID = "alloc"
            case recipientID = "recipient_id"
        }

        var json: [String: Any] {
            [
                "ticket_id": ticketID, "alloc": allocationID, "path": path, "name": (path as NSString).lastPathComponent,
                "recipient_id": recipientID, "public": recipientID.isEmpty, "expiration": expiration, "created": created,
                "url": url, "revoked": revoked,
            ]
        }
    }

    private let dir: URL
    /// Serializes the read-modify-write of each file.
    private let lock = Mutex(())

    init(home: URL) {
        dir = home.appendingPathComponent("app-shares", isDirectory: true)
    }

    private func file(_ owner: String) -> URL { dir.appendingPathComponent(owner + ".json") }

    func list(owner: String) -> [Entry] {
        lock.withLock { _ in read(owner) }
    }

    func add(_ entry: Entry, owner: String) throws {
        try lock.withLock { _ in
            var all = read(owner)
            all.removeAll { $0.ticketID == entry.ticketID }
            all.insert(entry, at: 0)
            try write(all, owner: owner)
        }
    }

    /// Marks a share revoked; false when this wallet made no share with that ticket id.
    func markRevoked(_ ticketID: String, owner: String) throws -> Bool {
        try lock.withLock { _ in
            var all = read(owner)
            guard let i = all.firstIndex(where: { $0.ticketID == ticketID }) else { return false }
            all[i].revoked = true
            try write(all, owner: owner)
            return true
        }
    }

    private func read(_ owner: String) -> [Entry] {
        AtomicFile.readJSON([Entry].self, from: file(owner)) ?? []
    }

    private func write(_ all: [Entry], owner: String) throws {
        // Mode 0600: a public link's key is in it.
        try AtomicFile.writeJSON(all, to: file(owner), folderMode: 0o700)
    }
}
