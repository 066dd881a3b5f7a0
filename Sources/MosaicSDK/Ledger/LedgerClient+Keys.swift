import Foundation
import MosaicCrypto
import MosaicProtocol

extension LedgerClient {
    /// The public key behind a client id, learned from a transaction the account signed (the
    /// ledger stores keys with transactions, and a client id is only a hash of the key).
    /// Nil when the account has never sent anything.
    /// - Parameter clientID: the account whose key is wanted.
    /// - Returns: the key, or nil when none of the account's last 100 transactions is its own.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func publicKey(of clientID: String) async throws(LedgerClientError) -> Ed25519.PublicKey? {
        let page = try await transactions(of: clientID, limit: 100)
        for v in page.transactions where v.transaction.clientID == clientID {
            if let key = Ed25519.PublicKey(hex: v.transaction.publicKey), key.clientID == clientID { return key }
        }
        return nil
    }

    /// The key to seal a shared file's key to: the recipient's client id as typed (trimmed, any
    /// case), checked and looked up with `publicKey(of:)`. The same checks for every client.
    /// - Parameter clientID: the recipient's client id.
    /// - Returns: its public key.
    /// - Throws: `ShareError.invalidRecipient` (not 64 hex characters), `ShareError.unknownRecipient`
    ///   (it never sent a transaction), or `LedgerClientError` when the node cannot be read.
    public func shareRecipient(_ clientID: String) async throws -> Ed25519.PublicKey {
        let id = clientID.trimmingCharacters(in: .whitespaces).lowercased()
        guard Transaction.isHexID(id) else { throw ShareError.invalidRecipient(clientID) }
        guard let key = try await publicKey(of: id) else { throw ShareError.unknownRecipient(id) }
        return key
    }
}
