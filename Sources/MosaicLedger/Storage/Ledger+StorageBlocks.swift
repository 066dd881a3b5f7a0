import Foundation

/// Challenges are issued and expire at block ends, so an otherwise idle ledger keeps making
/// blocks while storage has something to challenge or a challenge is open; without it, stored
/// data would never be checked on a quiet network and a missed deadline would never close.
extension Ledger {
    /// True when the committed storage state holds a challengeable (allocation, blobber) pair or
    /// an open challenge: one key looked up per set, whatever their size. Called under the ledger lock.
    func storageWantsBlocks(_ store: LedgerStore) -> Bool {
        let get = StorageGetter(store: store)
        for prefix in [StorageState.challengeablePrefix, StorageState.openPrefix] where (try? get.any(prefix: prefix)) == true {
            return true
        }
        return false
    }
}
