import Foundation
import MosaicCrypto
import MosaicProtocol

/// The storage contract's records in its key-value store, as sorted-key JSON. Every set or list
/// that grows with the network is one key per member, so no call reads or rewrites a value whose
/// size follows the number of blobbers, allocations or challenges (gas stays flat):
///
/// | key | value |
/// |---|---|
/// | `blobber:<id>` | `BlobberInfo` |
/// | `blobber_order:<seq, 16 hex>` | blobber id (registration order) |
/// | `blobber_seq:<id>` | u64 seq of the blobber's order key |
/// | `blobber_count` | u64 last seq given |
/// | `allocation:<id>` | `Allocation` |
/// | `owner:<client id>:<n, 16 hex>` | allocation id (the owner's n-th allocation, creation order) |
/// | `owner_count:<client id>` | u64 allocations the owner created |
/// | `challengeable:<hex SHA-256("<allocation>:<blobber>")>` | u64 position + 1 of the pair below: an active allocation's blobber with a non-empty root |
/// | `challengeable_at:<position, 16 hex>` | "<allocation>:<blobber>" (positions 0 ..< count, no gaps) |
/// | `challengeable_count` | u64 pairs in the set |
/// | `challenge:<id>` | `Challenge` |
/// | `open:<deadline, 16 hex biased>:<challenge id>` | challenge id (open challenges by deadline) |
/// | `open_pair:<allocation>:<blobber>` | id of the pair's open challenge |
/// | `read_pool:<client id>` | u64 |
/// | `read_counter:<allocation>:<blobber>:<reader>` | u64 |
/// | `revoked:<owner id>:<ticket id>` | i64 revocation time |
/// | `ticket_spent:<ticket id>` | u64 paid from the write pool under the ticket so far |
///
/// `Ledger`'s storage reads decode the same keys.
struct StorageState {
    let context: ContractContext

    static let blobberPrefix = "blobber:"
    static func blobberKey(_ id: String) -> String { blobberPrefix + id }
    static let blobberOrderPrefix = "blobber_order:"
    static func blobberOrderKey(_ seq: UInt64) -> String { blobberOrderPrefix + hex16(seq) }
    static func blobberSeqKey(_ id: String) -> String { "blobber_seq:\(id)" }
    static let blobberCountKey = "blobber_count"
    static func allocationKey(_ id: String) -> String { "allocation:\(id)" }
    static func ownerPrefix(_ owner: String) -> String { "owner:\(owner):" }
    static func ownerKey(_ owner: String, _ n: UInt64) -> String { ownerPrefix(owner) + hex16(n) }
    static func ownerCountKey(_ owner: String) -> String { "owner_count:\(owner)" }
    static let challengeablePrefix = "challengeable:"
    static func challengeableKey(_ allocationID: String, _ blobberID: String) -> String {
        challengeableKey(pair: "\(allocationID):\(blobberID)")
    }
    static func challengeableKey(pair: String) -> String { challengeablePrefix + Hex.encode(SHA256.hash(Array(pair.utf8))) }
    static func challengeableAtKey(_ position: UInt64) -> String { "challengeable_at:" + hex16(position) }
    static let challengeableCountKey = "challengeable_count"
    static func challengeKey(_ id: String) -> String { "challenge:\(id)" }
    static let openPrefix = "open:"
    /// Sorts by deadline (sign bit flipped so byte order is numeric order), then id.
    static func openKey(deadline: Int64, id: String) -> String {
        openPrefix + hex16(UInt64(bitPattern: deadline) ^ (1 << 63)) + ":" + id
    }
    static func openPairKey(_ allocationID: String, _ blobberID: String) -> String { "open_pair:\(allocationID):\(blobberID)" }
    static func readPoolKey(_ id: String) -> String { "read_pool:\(id)" }
    static func readCounterKey(_ a: String, _ b: String, _ r: String) -> String { "read_counter:\(a):\(b):\(r)" }
    static func revokedKey(owner: String, ticket: String) -> String { "revoked:\(owner):\(ticket)" }
    static func ticketSpentKey(_ ticket: String) -> String { "ticket_spent:\(ticket)" }

    /// 16 lowercase hex digits, zero-padded: byte order is numeric order.
    static func hex16(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    func load<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> T? {
        guard let bytes = try context.get(key) else { return nil }
        return try Self.decode(bytes, key: key, as: type)
    }

    static func decode<T: Decodable>(_ bytes: [UInt8], key: String, as type: T.Type) throws(ContractError) -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .refused(.stateUnavailable, "storage state \(key) is unreadable: \(error)")
        }
    }

    func save<T: Encodable>(_ key: String, _ value: T?) throws(ContractError) {
        guard let value else {
            try context.set(key, nil)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { try context.set(key, [UInt8](try encoder.encode(value))) } catch let e as ContractError { throw e } catch {
            throw .refused(.stateUnavailable, "cannot encode \(key): \(error)")
        }
    }

    func blobber(_ id: String) throws(ContractError) -> BlobberInfo? { try load(Self.blobberKey(id), as: BlobberInfo.self) }
    func save(_ b: BlobberInfo) throws(ContractError) { try save(Self.blobberKey(b.id), b) }

    func allocation(_ id: String) throws(ContractError) -> Allocation {
        guard let a = try load(Self.allocationKey(id), as: Allocation.self) else {
            throw .refused(.notFound, "no allocation \(id); list yours with storage allocations")
        }
        return a
    }

    func save(_ a: Allocation) throws(ContractError) { try save(Self.allocationKey(a.id), a) }

    func challenge(_ id: String) throws(ContractError) -> Challenge? { try load(Self.challengeKey(id), as: Challenge.self) }
    func save(_ c: Challenge) throws(ContractError) { try save(Self.challengeKey(c.id), c) }

    func uint(_ key: String) throws(ContractError) -> UInt64 { try load(key, as: UInt64.self) ?? 0 }
    func setUInt(_ key: String, _ v: UInt64) throws(ContractError) { try save(key, v == 0 ? nil : v) }

    /// Gives the next number of the counter at `key` (1, 2, …).
    func nextSequence(_ key: String) throws(ContractError) -> UInt64 {
        let n = try checkedAdd(try uint(key), 1, "sequence \(key)")
        try setUInt(key, n)
        return n
    }

    /// Adds a blobber to the registration order.
    func addBlobberToOrder(_ id: String) throws(ContractError) {
        let seq = try nextSequence(Self.blobberCountKey)
        try context.set(Self.blobberOrderKey(seq), Array(id.utf8))
        try setUInt(Self.blobberSeqKey(id), seq)
    }

    func removeBlobberFromOrder(_ id: String) throws(ContractError) {
        let seq = try uint(Self.blobberSeqKey(id))
        if seq > 0 { try context.set(Self.blobberOrderKey(seq), nil) }
        try setUInt(Self.blobberSeqKey(id), 0)
    }

    /// Records `allocationID` as its owner's next allocation.
    func addToOwner(_ owner: String, _ allocationID: String) throws(ContractError) {
        let n = try nextSequence(Self.ownerCountKey(owner))
        try context.set(Self.ownerKey(owner, n), Array(allocationID.utf8))
    }

    /// Adds or removes the (allocation, blobber) pair in the challengeable set. The set is dense
    /// (positions 0 ..< count; a removal moves the last pair into the gap), so a challenge picks
    /// a pair uniformly by position, and every change touches a fixed number of keys whatever
    /// the size of the set.
    func setChallengeable(_ allocationID: String, _ blobberID: String, _ on: Bool) throws(ContractError) {
        let pair = "\(allocationID):\(blobberID)"
        let key = Self.challengeableKey(pair: pair)
        let slot = try uint(key)  // position + 1, 0 when absent
        let count = try uint(Self.challengeableCountKey)
        if on {
            guard slot == 0 else { return }
            try context.set(Self.challengeableAtKey(count), Array(pair.utf8))
            try setUInt(key, try checkedAdd(count, 1, "challengeable set"))
            try setUInt(Self.challengeableCountKey, try checkedAdd(count, 1, "challengeable set"))
        } else {
            guard slot > 0, count > 0 else { return }
            let position = slot - 1
            let last = count - 1
            if position != last, let moved = try context.get(Self.challengeableAtKey(last)) {
                try context.set(Self.challengeableAtKey(position), moved)
                try setUInt(Self.challengeableKey(pair: String(decoding: moved, as: UTF8.self)), slot)
            }
            try context.set(Self.challengeableAtKey(last), nil)
            try setUInt(key, 0)
            try setUInt(Self.challengeableCountKey, last)
        }
    }

    /// The pair at `position` of the challengeable set, nil past its end.
    func challengeable(at position: UInt64) throws(ContractError) -> String? {
        try context.get(Self.challengeableAtKey(position)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Pairs in the challengeable set.
    func challengeableCount() throws(ContractError) -> UInt64 { try uint(Self.challengeableCountKey) }
}

/// Overflow-checked arithmetic for contract amounts: an overflow refuses the call.
func checkedAdd(_ a: UInt64, _ b: UInt64, _ what: String) throws(ContractError) -> UInt64 {
    let (s, o) = a.addingReportingOverflow(b)
    if o { throw .refused(.overflow, "\(what) would overflow") }
    return s
}

/// `n + 1`, staying at UInt64.max (event counters: never a trap, never a wrap to 0).
func incremented(_ n: UInt64) -> UInt64 { n == .max ? n : n + 1 }

/// `a + b`, or the nearest Int64 bound when that overflows (for time limits such as now + skew).
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (s, o) = a.addingReportingOverflow(b)
    return o ? (b > 0 ? .max : .min) : s
}

/// `seconds × 1000`, or the nearest Int64 bound when that overflows.
func milliseconds(_ seconds: Int64) -> Int64 {
    let (v, o) = seconds.multipliedReportingOverflow(by: 1000)
    return o ? (seconds > 0 ? .max : .min) : v
}

func checkedSub(_ a: UInt64, _ b: UInt64, _ what: String) throws(ContractError) -> UInt64 {
    guard a >= b else { throw .refused(.overflow, "\(what): \(b) exceeds \(a)") }
    return a - b
}
