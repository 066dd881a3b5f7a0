import Foundation
import MosaicCrypto
import MosaicProtocol

/// What `mosaic share` prints and `download --ticket` reads: the owner-signed `AuthTicket` and the
/// file's content key, either in clear (a public link: whoever holds the string can read) or sealed
/// to the recipient's key (only that wallet can open it). The key is outside the ticket's
/// signature (docs/STORAGE.md §6): a wrong key cannot pass the AEAD check.
/// Text form: "mosaic-ticket:" + base64url of the JSON, one copyable word.
public struct ShareToken: Sendable, Codable, Equatable {
    /// The owner-signed permission to read `ticket.path`.
    public var ticket: AuthTicket
    /// Hex content key (public links).
    public var key: String?
    /// Hex sealed box of the content key to the recipient's Ed25519 key.
    public var sealedKey: String?

    enum CodingKeys: String, CodingKey {
        case ticket, key
        case sealedKey = "sealed_key"
    }

    /// What every share string starts with.
    public static let prefix = "mosaic-ticket:"

    /// Signs a ticket for `path` of allocation `allocationID` and wraps `contentKey` for
    /// `recipient` (nil: anyone holding the string). `readBudget`: the most the allocation's write
    /// pool pays for reads under the ticket (base units, all readers together; 0: readers pay
    /// from their own read pools), see `defaultReadBudget`.
    /// - Parameters:
    ///   - owner: the allocation owner's key, which signs the ticket.
    ///   - allocationID: the allocation.
    ///   - path: the file or folder shared.
    ///   - kind: a file or a folder ticket.
    ///   - contentKey: the file's content key; nil shares metadata only.
    ///   - recipient: the wallet it is shared with; nil for a public link.
    ///   - expiration: unix seconds after which blobbers refuse it.
    ///   - readBudget: base units the owner's write pool may pay for its reads.
    /// - Throws: `CryptoError` when the key cannot be sealed to `recipient`.
    public init(
        owner: Ed25519.SigningKey, allocationID: String, path: String, kind: AuthTicket.Kind, contentKey: SecretBytes?,
        recipient: Ed25519.PublicKey?, expiration: Int64, readBudget: UInt64 = 0
    ) throws {
        var t = AuthTicket(
            allocationID: allocationID, ownerID: owner.publicKey.clientID, ownerPublicKey: owner.publicKey.hex, path: path,
            kind: kind, recipientID: recipient?.clientID ?? "", expiration: expiration, nonce: Hex.encode(Random.bytes(8)),
            readBudget: readBudget)
        t.sign(with: owner)
        ticket = t
        if let contentKey {
            if let recipient {
                sealedKey = Hex.encode(try SealedBox.seal(contentKey, to: recipient))
            } else {
                key = Hex.encode(contentKey.copyBytes())
            }
        }
    }

    /// Full reads of a shared file the default budget pays for.
    public static let defaultBudgetReads: UInt64 = 10

    /// What `reads` full downloads of a `fileSize`-byte file cost at the allocation's agreed read
    /// prices, counting every blobber's fragment (a download may hedge onto parity) plus a block
    /// each for padding: the owner's default bound on what a shared link can spend of its write
    /// pool. Saturates instead of overflowing.
    /// - Parameters:
    ///   - fileSize: the file's size in bytes.
    ///   - allocation: the allocation, for its agreed read prices.
    ///   - reads: full downloads to pay for.
    /// - Returns: base units.
    public static func defaultReadBudget(fileSize: Int64, allocation: StorageAllocation, reads: UInt64 = defaultBudgetReads) -> UInt64 {
        let size = UInt64(max(0, fileSize))
        let d = UInt64(max(1, allocation.dataShards))
        let block = UInt64(MerkleRules.blockSize)
        let fragment = size / d + (size % d == 0 ? 0 : 1)
        let blocks = fragment / block + (fragment % block == 0 ? 0 : 1) + 1
        var total: UInt64 = 0
        for b in allocation.blobbers {
            let one = StoragePricing.readCost(price: b.readPrice, blocks: blocks) ?? .max
            let (all, o1) = one.multipliedReportingOverflow(by: reads)
            let (sum, o2) = total.addingReportingOverflow(all)
            if o1 || o2 { return .max }
            total = sum
        }
        return total
    }

    /// The one-word text form: `mosaic-ticket:` and base64url of the JSON.
    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        let b64 = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return ShareToken.prefix + b64
    }

    /// Reads the text form and checks the ticket's signature.
    /// - Parameter text: a string `encoded` made (surrounding white space is ignored).
    /// - Returns: the token.
    /// - Throws: `ShareTokenError.malformed` when it is not a share string or its signature fails.
    public static func decode(_ text: String) throws(ShareTokenError) -> ShareToken {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard s.hasPrefix(prefix) else {
            throw .malformed("a ticket starts with \"\(prefix)\"; copy the whole line 'mosaic share' printed")
        }
        var b64 = String(s.dropFirst(prefix.count)).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let token = try? JSONDecoder().decode(ShareToken.self, from: data) else {
            throw .malformed("the ticket is damaged (not base64 JSON); copy it again")
        }
        do { try token.ticket.verify() } catch { throw .malformed("the ticket's signature does not verify: \(error)") }
        return token
    }

    /// The content key for the wallet `reader`: in clear for public links, else opened with its key.
    /// - Parameter reader: the reading wallet's key.
    /// - Returns: the file's content key.
    /// - Throws: `ShareTokenError.notForThisWallet` when it was shared with another wallet,
    ///   `.malformed` when it carries no key.
    public func contentKey(for reader: Ed25519.SigningKey) throws(ShareTokenError) -> SecretBytes {
        if let key, let bytes = Hex.decode(key), bytes.count == 32 { return SecretBytes(bytes) }
        guard let sealedKey, let box = Hex.decode(sealedKey) else { throw .malformed("the ticket carries no content key") }
        if !ticket.recipientID.isEmpty, ticket.recipientID != reader.publicKey.clientID {
            throw .notForThisWallet(recipient: ticket.recipientID)
        }
        do { return try SealedBox.open(box, with: reader) } catch { throw .notForThisWallet(recipient: ticket.recipientID) }
    }
}
