import MosaicLedger
import MosaicProtocol

/// The storage contract's typed views (StorageContract+Views.swift) as one-line ledger reads, so
/// tests read storage state the way the node's `/v1/storage` routes do, at the latest round.
extension Ledger {
    public func storageBlobbers() throws(LedgerError) -> [BlobberInfo] {
        try storageView { s, v throws(ContractError) in try s.blobbers(v) }
    }

    public func storageBlobber(_ id: String) throws(LedgerError) -> BlobberInfo? {
        try storageView { s, v throws(ContractError) in try s.blobber(v, id: id) }
    }

    public func storageAllocation(_ id: String) throws(LedgerError) -> Allocation? {
        try storageView { s, v throws(ContractError) in try s.allocation(v, id: id) }
    }

    public func storageAllocations(owner: String) throws(LedgerError) -> [Allocation] {
        try storageView { s, v throws(ContractError) in try s.allocations(v, owner: owner) }
    }

    public func storageChallenge(_ id: String) throws(LedgerError) -> Challenge? {
        try storageView { s, v throws(ContractError) in try s.challenge(v, id: id) }
    }

    public func storageOpenChallenges(blobber: String? = nil) throws(LedgerError) -> [Challenge] {
        try storageView { s, v throws(ContractError) in try s.openChallenges(v, blobber: blobber) }
    }

    public func isTicketRevoked(_ ticketID: String, owner: String) throws(LedgerError) -> Bool {
        try storageView { s, v throws(ContractError) in try s.isTicketRevoked(v, ticketID: ticketID, owner: owner) }
    }

    public func storageReadPool(_ clientID: String) throws(LedgerError) -> UInt64 {
        try storageView { s, v throws(ContractError) in try s.readPool(v, clientID: clientID) }
    }

    public func storageReadCounter(allocation: String, blobber: String, reader: String) throws(LedgerError) -> UInt64 {
        try storageView { s, v throws(ContractError) in try s.readCounter(v, allocation: allocation, blobber: blobber, reader: reader) }
    }

    public func storageAllocationQuote(dataShards: Int, parityShards: Int, size: UInt64, seconds: UInt64) throws(LedgerError) -> UInt64? {
        try storageView { s, v throws(ContractError) in
            try s.allocationQuote(v, dataShards: dataShards, parityShards: parityShards, size: size, seconds: seconds)
        }
    }

    private func storageView<R>(_ body: (StorageContract, ContractView) throws(ContractError) -> R) throws(LedgerError) -> R {
        try read("storage", as: StorageContract.self, body)
    }
}
