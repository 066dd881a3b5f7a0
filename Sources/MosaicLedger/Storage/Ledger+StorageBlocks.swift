import Foundation

/// Challenges are issued and expire at block ends, so an otherwise idle ledger keeps making
/// blocks while storage has something to challenge or a challenge is open; without it, stored
/// data would never be checked on a quiet network and a missed deadline would never close.
extension Ledger {
    /// True when the committed storage state lists challengeable (allocation, blobber) pairs or
    /// open challenges. Called under the ledger lock.
    func storageWantsBlocks(_ store: LedgerStore) -> Bool {
        for key in [StorageState.challengeableKey, StorageState.openChallengesKey] {
            if let bytes = try? store.contractValue("storage", key), bytes.count > 2 { return true }
        }
        return false
    }
}
