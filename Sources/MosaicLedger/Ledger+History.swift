import Foundation
import MosaicProtocol

extension Ledger {
    /// How many included transactions `clientID` sent or received, for paging its history.
    public func transactionCount(of clientID: String) throws(LedgerError) -> Int {
        try locked { _, store throws(LedgerError) in
            do { return try store.transactionCount(of: clientID) } catch { throw .store(error, "counting transactions") }
        }
    }
}
