import Foundation
import MosaicDatabase
import MosaicProtocol

extension Ledger {
    /// How many included transactions `clientID` sent or received, for paging its history.
    public func transactionCount(of clientID: String) throws(LedgerError) -> Int {
        try locked { _, store throws(LedgerError) in
            do {
                return try store.db.prepare(
                    "SELECT (SELECT COUNT(*) FROM transactions WHERE client_id = ?1) + (SELECT COUNT(*) FROM transactions WHERE to_client_id = ?1 AND client_id != ?1)"
                )
                .queryOne([.text(clientID)]) { Int($0.int64(0)) } ?? 0
            } catch { throw .storage("\(error)") }
        }
    }
}
