import MosaicCrypto

/// A committed block. `hash` covers every other field but `signature` through `signingBytes`, so a
/// block and its transactions can be checked offline from the previous block's hash; the
/// signature by `producer` says which allowed node made it (docs/PROTOCOL.md §2.9).
public struct Block: Sendable, Hashable, Codable, CanonicalSigned {
    public var round: UInt64
    public var hash: String
    public var previousHash: String
    /// Unix seconds (ledger clock) when the block was produced.
    public var timestamp: Int64
    /// Merkle root over the transaction hashes in block order (docs/PROTOCOL.md §2.5).
    public var transactionRoot: String
    /// SHA-256 chain over the account and contract rows this block changed.
    public var stateRoot: String
    public var transactionCount: Int
    public var minerID: String
    /// Hex Ed25519 public key of the node that made the block: one of the genesis `producers`.
    /// Empty for block 0 (the genesis defines it) and for blocks of a chain made before blocks
    /// were signed.
    public var producer: String
    /// Hex Ed25519 signature by `producer` over the signing digest; empty when `producer` is.
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case round, hash
        case previousHash = "previous_hash"
        case timestamp
        case transactionRoot = "transaction_root"
        case stateRoot = "state_root"
        case transactionCount = "transaction_count"
        case minerID = "miner_id"
        case producer, signature
    }

    public init(
        round: UInt64, previousHash: String, timestamp: Int64, transactionRoot: String, stateRoot: String,
        transactionCount: Int, minerID: String, producer: String = ""
    ) {
        self.round = round
        self.previousHash = previousHash
        self.timestamp = timestamp
        self.transactionRoot = transactionRoot
        self.stateRoot = stateRoot
        self.transactionCount = transactionCount
        self.minerID = minerID
        self.producer = producer
        self.signature = ""
        self.hash = ""
        self.hash = computedHash
    }

    /// Reads a block; one stored or served before blocks were signed has no producer or signature.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        round = try c.decode(UInt64.self, forKey: .round)
        hash = try c.decode(String.self, forKey: .hash)
        previousHash = try c.decode(String.self, forKey: .previousHash)
        timestamp = try c.decode(Int64.self, forKey: .timestamp)
        transactionRoot = try c.decode(String.self, forKey: .transactionRoot)
        stateRoot = try c.decode(String.self, forKey: .stateRoot)
        transactionCount = try c.decode(Int.self, forKey: .transactionCount)
        minerID = try c.decode(String.self, forKey: .minerID)
        producer = try c.decodeIfPresent(String.self, forKey: .producer) ?? ""
        signature = try c.decodeIfPresent(String.self, forKey: .signature) ?? ""
    }

    /// The layout of an unsigned block (block 0, and chains made before blocks were signed).
    public static let signingDomain = "mosaic-block-v1"
    /// The layout of a block with a producer: the v1 fields, then the producer's key.
    public static let producedDomain = "mosaic-block-v2"

    /// This block made by `key`: its producer set, its hash recomputed over it, and signed.
    public func signed(by key: Ed25519.SigningKey) -> Block {
        var b = self
        b.producer = key.publicKey.hex
        b.hash = b.computedHash
        b.signature = b.signature(by: key)
        return b
    }

    /// Why this block is not one the chain may hold, or nil when it is: its hash must be the hash
    /// of its fields, and after block 0 it must be signed by one of `producers` (a chain whose
    /// genesis lists none accepts an unsigned block, or one whose signature verifies).
    public func fault(producers: [String]) -> BlockFault? {
        guard hash == computedHash else { return .hashMismatch }
        if round == 0 { return producer.isEmpty && signature.isEmpty ? nil : .signedGenesis }
        if producer.isEmpty {
            return producers.isEmpty && signature.isEmpty ? nil : .unsigned
        }
        if !producers.isEmpty, !producers.contains(producer) { return .unknownProducer(producer) }
        guard let key = Ed25519.PublicKey(hex: producer) else { return .unknownProducer(producer) }
        return signatureFault(signature, by: key).map(BlockFault.badSignature)
    }

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: producer.isEmpty ? Block.signingDomain : Block.producedDomain)
        w.append(uint64: round)
        w.append(string: previousHash)
        w.append(int64: timestamp)
        w.append(string: transactionRoot)
        w.append(string: stateRoot)
        // Bit pattern, so a negative count (only from a hostile JSON block) hashes apart from every real one instead of trapping.
        w.append(uint64: UInt64(truncatingIfNeeded: transactionCount))
        w.append(string: minerID)
        if !producer.isEmpty { w.append(string: producer) }
        return w.bytes
    }

    public var computedHash: String { signingHash }

    /// Merkle root of hex transaction hashes (docs/PROTOCOL.md §2.5): a leaf is
    /// SHA-256(0x00 ‖ the 32 hash bytes), a node SHA-256(0x01 ‖ left ‖ right), an odd last node is
    /// promoted to the next level unchanged, no transactions → 64 zeros. The distinct prefixes keep
    /// a leaf from passing for a node, and promotion (instead of pairing a node with itself) keeps
    /// `[a, b, c]` and `[a, b, c, c]` apart.
    public static func merkleRoot(_ hashes: [String]) -> String {
        Hex.encode(MerkleRules.root(leaves: hashes.map { MerkleRules.leafHash(Hex.decode($0) ?? Array($0.utf8)) }))
    }
}

/// Why a block is refused by a reader (`Block.fault(producers:)`).
public enum BlockFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// `hash` is not the hash of the block's fields: something in it was changed.
    case hashMismatch
    /// Block 0 carries a producer or signature; it is defined by the genesis alone.
    case signedGenesis
    /// No producer or signature, on a chain whose genesis lists producers.
    case unsigned
    /// Signed by a key the genesis does not list as a producer.
    case unknownProducer(String)
    /// The producer's signature does not verify over the block's signing bytes.
    case badSignature(SignatureFault)

    public var description: String {
        switch self {
        case .hashMismatch: "its hash is not the hash of its fields"
        case .signedGenesis: "block 0 carries a producer signature; the genesis alone defines it"
        case .unsigned: "it is not signed, but the chain's genesis lists the producers that must sign"
        case .unknownProducer(let key): "it is signed by \(key), which the chain's genesis does not list as a producer"
        case .badSignature(let f): "its producer signature does not verify (\(f))"
        }
    }
}
