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
}
