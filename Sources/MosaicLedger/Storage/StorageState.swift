import Foundation
import MosaicProtocol

/// The storage contract's records in its key-value store, as sorted-key JSON:
///
/// | key | value |
/// |---|---|
/// | `blobber:<id>` | `BlobberInfo` |
/// | `blobbers` | [id] in registration order |
/// | `allocation:<id>` | `Allocation` |
/// | `owner:<client id>` | [allocation id] in creation order |
/// | `challengeable` | ["<allocation id>:<blobber id>"]: active allocations' blobbers with a non-empty root |
/// | `challenge:<id>` | `Challenge` |
/// | `open_challenges` | [challenge id] in issue order |
/// | `read_pool:<client id>` | u64 |
/// | `read_counter:<allocation>:<blobber>:<reader>` | u64 |
/// | `revoked:<owner id>:<ticket id>` | i64 revocation time |
///
/// `Ledger`'s storage reads decode the same keys.
struct StorageState {
    let context: ContractContext

    static func blobberKey(_ id: String) -> String { "blobber:\(id)" }
    static func allocationKey(_ id: String) -> String { "allocation:\(id)" }
    static func ownerKey(_ id: String) -> String { "owner:\(id)" }
    static func challengeKey(_ id: String) -> String { "challenge:\(id)" }
    static func readPoolKey(_ id: String) -> String { "read_pool:\(id)" }
    static func readCounterKey(_ a: String, _ b: String, _ r: String) -> String { "read_counter:\(a):\(b):\(r)" }
    static func revokedKey(owner: String, ticket: String) -> String { "revoked:\(owner):\(ticket)" }
    static let blobbersKey = "blobbers"
    static let challengeableKey = "challengeable"
    static let openChallengesKey = "open_challenges"

    func load<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> T? {
        guard let bytes = try context.get(key) else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .refused("storage state \(key) is unreadable: \(error)")
        }
    }

    func save<T: Encodable>(_ key: String, _ value: T?) throws(ContractError) {
        guard let value else { try context.set(key, nil); return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { try context.set(key, [UInt8](try encoder.encode(value))) } catch let e as ContractError { throw e } catch {
            throw .refused("cannot encode \(key): \(error)")
        }
    }

    func list(_ key: String) throws(ContractError) -> [String] { try load(key, as: [String].self) ?? [] }

    func blobber(_ id: String) throws(ContractError) -> BlobberInfo? { try load(Self.blobberKey(id), as: BlobberInfo.self) }
    func save(_ b: BlobberInfo) throws(ContractError) { try save(Self.blobberKey(b.id), b) }

    func allocation(_ id: String) throws(ContractError) -> Allocation {
        guard let a = try load(Self.allocationKey(id), as: Allocation.self) else {
            throw .refused("no allocation \(id); list yours with storage allocations")
        }
        return a
    }

    func save(_ a: Allocation) throws(ContractError) { try save(Self.allocationKey(a.id), a) }

    func challenge(_ id: String) throws(ContractError) -> Challenge? { try load(Self.challengeKey(id), as: Challenge.self) }
    func save(_ c: Challenge) throws(ContractError) { try save(Self.challengeKey(c.id), c) }

    func uint(_ key: String) throws(ContractError) -> UInt64 { try load(key, as: UInt64.self) ?? 0 }
    func setUInt(_ key: String, _ v: UInt64) throws(ContractError) { try save(key, v == 0 ? nil : v) }

    /// Adds or removes "<allocation>:<blobber>" in the challengeable list.
    func setChallengeable(_ allocationID: String, _ blobberID: String, _ on: Bool) throws(ContractError) {
        let item = "\(allocationID):\(blobberID)"
        var items = try list(Self.challengeableKey)
        let has = items.contains(item)
        if on, !has { items.append(item) } else if !on, has { items.removeAll { $0 == item } } else { return }
        try save(Self.challengeableKey, items)
    }
}

/// Overflow-checked arithmetic for contract amounts: an overflow refuses the call.
func checkedAdd(_ a: UInt64, _ b: UInt64, _ what: String) throws(ContractError) -> UInt64 {
    let (s, o) = a.addingReportingOverflow(b)
    if o { throw .refused("\(what) would overflow") }
    return s
}

func checkedSub(_ a: UInt64, _ b: UInt64, _ what: String) throws(ContractError) -> UInt64 {
    guard a >= b else { throw .refused("\(what): \(b) exceeds \(a)") }
    return a - b
}
