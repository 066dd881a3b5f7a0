import Foundation
import MosaicCrypto
import MosaicProtocol

/// The parameters a network starts with. Written to `genesis.json` in the ledger directory on
/// first start (or given), then fixed for the life of the chain: changing it means a new chain.
package struct Genesis: Sendable, Hashable, Codable {
    public var chainID: String
    public var symbol: String
    public var decimals: Int
    /// Unix seconds of block 0.
    public var genesisTime: Int64
    /// Smallest fee accepted, in base units (faucet pours are exempt so a new account can start).
    public var minimumFee: UInt64
    /// Display rate: integer micro-dollars per whole token.
    public var usdMicrosPerToken: UInt64
    public var blockTimeMillis: Int64
    /// Blocks after a transaction's block before it is sealed.
    public var confirmations: UInt64
    /// Blocks a transaction may wait in the pool before it expires.
    public var expiryBlocks: UInt64
    public var maxBlockTransactions: Int
    /// How far past the next nonce a transaction may be and still wait in the pool.
    public var maxNonceAhead: UInt64
    public var poolCapacity: Int
    /// Gas budget of one contract call (see `ContractContext`).
    public var contractGasLimit: UInt64
    /// Most `transaction_data` bytes of a transfer (its description).
    public var maxTransferDataBytes: Int
    /// Most `transaction_data` bytes of a paid contract call (a storage challenge answer carries a 64 KiB block).
    public var maxCallDataBytes: Int
    /// Most `transaction_data` bytes of a fee-exempt transaction (a faucet pour needs about 50).
    public var maxFreeDataBytes: Int
    /// How far `creation_date` may lag the ledger clock at admission. With the expired-hash
    /// record kept this long, old signed bytes can never come back (docs/PROTOCOL.md §2.3).
    public var creationDateMaxAgeSeconds: Int64
    /// How far `creation_date` may run ahead of the ledger clock at admission (client clock skew).
    public var creationDateMaxAheadSeconds: Int64
    /// Account that produces blocks and collects fees.
    public var nodeID: String
    public var faucet: FaucetConfig
    /// Extra opening balances by client id (e.g. for tests and benchmarks).
    public var allocations: [String: UInt64]
    /// The contracts this chain runs, by name; a node builds each from its `ContractRegistry`.
    /// A genesis written before the list existed runs `standardContracts`.
    public var contracts: [String]
    /// Hex Ed25519 public keys of the nodes allowed to make and sign blocks (docs/PROTOCOL.md
    /// §2.9). A new chain whose genesis lists none starts with the key of the node that makes it;
    /// a genesis written before blocks were signed lists none and keeps its unsigned blocks valid.
    public var producers: [String]

    /// The contracts of a chain whose genesis names none: every built-in one.
    public static let standardContracts = ["faucet", "storage", "notes", "social"]

    enum CodingKeys: String, CodingKey {
        case chainID = "chain_id"
        case symbol, decimals
        case genesisTime = "genesis_time"
        case minimumFee = "minimum_fee"
        case usdMicrosPerToken = "usd_micros_per_token"
        case blockTimeMillis = "block_time_ms"
        case confirmations
        case expiryBlocks = "expiry_blocks"
        case maxBlockTransactions = "max_block_transactions"
        case maxNonceAhead = "max_nonce_ahead"
        case poolCapacity = "pool_capacity"
        case contractGasLimit = "contract_gas_limit"
        case maxTransferDataBytes = "max_transfer_data_bytes"
        case maxCallDataBytes = "max_call_data_bytes"
        case maxFreeDataBytes = "max_free_data_bytes"
        case creationDateMaxAgeSeconds = "creation_date_max_age_seconds"
        case creationDateMaxAheadSeconds = "creation_date_max_ahead_seconds"
        case nodeID = "node_id"
        case faucet, allocations, contracts, producers
    }

    /// Devnet defaults: 1 s blocks, 3 confirmations, 0.0001 token minimum fee, $0.10 per token,
    /// a faucet of 1 billion tokens pouring 1 token, 10 per account per hour, 100,000 per day overall.
    public init(
        chainID: String = "mosaic-devnet", genesisTime: Int64 = Int64(Date().timeIntervalSince1970),
        allocations: [String: UInt64] = [:]
    ) {
        self.chainID = chainID
        symbol = "MSC"
        decimals = TokenAmount.decimals
        self.genesisTime = genesisTime
        minimumFee = 1_000_000
        usdMicrosPerToken = 100_000
        blockTimeMillis = 1000
        confirmations = 3
        expiryBlocks = 30
        maxBlockTransactions = 5000
        maxNonceAhead = 10
        poolCapacity = 200_000
        contractGasLimit = 1_000_000
        maxTransferDataBytes = Transaction.defaultMaxTransferDataBytes
        maxCallDataBytes = Transaction.maxDataBytes
        maxFreeDataBytes = 256
        creationDateMaxAgeSeconds = 3600
        creationDateMaxAheadSeconds = 600
        nodeID = Hex.encode(SHA256.hash(Array("mosaic-node:\(chainID)".utf8)))
        faucet = FaucetConfig()
        self.allocations = allocations
        contracts = Genesis.standardContracts
        producers = []
    }

    /// Reads a `genesis.json`; keys added after a chain started take their defaults, so an
    /// existing ledger keeps opening.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Genesis(
            chainID: try c.decode(String.self, forKey: .chainID), genesisTime: try c.decode(Int64.self, forKey: .genesisTime))
        self = defaults
        symbol = try c.decode(String.self, forKey: .symbol)
        decimals = try c.decode(Int.self, forKey: .decimals)
        minimumFee = try c.decode(UInt64.self, forKey: .minimumFee)
        usdMicrosPerToken = try c.decode(UInt64.self, forKey: .usdMicrosPerToken)
        blockTimeMillis = try c.decode(Int64.self, forKey: .blockTimeMillis)
        confirmations = try c.decode(UInt64.self, forKey: .confirmations)
        expiryBlocks = try c.decode(UInt64.self, forKey: .expiryBlocks)
        maxBlockTransactions = try c.decode(Int.self, forKey: .maxBlockTransactions)
        maxNonceAhead = try c.decode(UInt64.self, forKey: .maxNonceAhead)
        poolCapacity = try c.decode(Int.self, forKey: .poolCapacity)
        contractGasLimit = try c.decode(UInt64.self, forKey: .contractGasLimit)
        maxTransferDataBytes = try c.decodeIfPresent(Int.self, forKey: .maxTransferDataBytes) ?? defaults.maxTransferDataBytes
        maxCallDataBytes = try c.decodeIfPresent(Int.self, forKey: .maxCallDataBytes) ?? defaults.maxCallDataBytes
        maxFreeDataBytes = try c.decodeIfPresent(Int.self, forKey: .maxFreeDataBytes) ?? defaults.maxFreeDataBytes
        creationDateMaxAgeSeconds =
            try c.decodeIfPresent(Int64.self, forKey: .creationDateMaxAgeSeconds) ?? defaults.creationDateMaxAgeSeconds
        creationDateMaxAheadSeconds =
            try c.decodeIfPresent(Int64.self, forKey: .creationDateMaxAheadSeconds) ?? defaults.creationDateMaxAheadSeconds
        nodeID = try c.decode(String.self, forKey: .nodeID)
        faucet = try c.decode(FaucetConfig.self, forKey: .faucet)
        allocations = try c.decode([String: UInt64].self, forKey: .allocations)
        contracts = try c.decodeIfPresent([String].self, forKey: .contracts) ?? defaults.contracts
        producers = try c.decodeIfPresent([String].self, forKey: .producers) ?? []
    }

    /// Most `transaction_data` bytes a transaction of this kind may carry.
    func maxDataBytes(type: TransactionType, feeExempt: Bool) -> Int {
        if feeExempt { return maxFreeDataBytes }
        switch type {
        case .transfer: return maxTransferDataBytes
        case .contractCall: return maxCallDataBytes
        }
    }

    /// The balances the chain starts with: the allocations, plus the faucet's supply on the faucet
    /// contract's account; nil when they overflow 64 bits (`validate` refuses such a genesis).
    public var initialBalances: [String: UInt64]? {
        var accounts = allocations
        let faucetAccount = ContractCall.address(of: "faucet")
        let (funded, overflow) = (accounts[faucetAccount] ?? 0).addingReportingOverflow(faucet.supply)
        guard !overflow else { return nil }
        accounts[faucetAccount] = funded
        return accounts
    }

    /// Faucet supply plus allocations: the constant sum of all balances.
    public var totalSupply: UInt64? {
        var total = faucet.supply
        for v in allocations.values {
            let (s, o) = total.addingReportingOverflow(v)
            if o { return nil }
            total = s
        }
        return total
    }

    public static func load(from path: String) throws -> Genesis {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(Genesis.self, from: data)
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Checks the values a ledger cannot run with.
    func validate() throws(LedgerError) {
        guard !chainID.isEmpty, chainID.utf8.count <= 64 else { throw .malformed("genesis chain_id must be 1–64 bytes") }
        guard decimals == TokenAmount.decimals else { throw .malformed("genesis decimals must be \(TokenAmount.decimals)") }
        guard totalSupply != nil else { throw .malformed("genesis faucet supply plus allocations overflows 64 bits") }
        guard maxBlockTransactions > 0, poolCapacity > 0, expiryBlocks > 0 else {
            throw .malformed("genesis max_block_transactions, pool_capacity and expiry_blocks must be positive")
        }
        // Upper bounds keep every sum the engine makes with these values far from overflow.
        guard maxBlockTransactions <= 1_000_000, poolCapacity <= 100_000_000, expiryBlocks <= 100_000_000,
            confirmations <= 1_000_000, maxNonceAhead <= 1_000_000
        else {
            throw .malformed(
                "genesis max_block_transactions, pool_capacity (≤ 10^8), expiry_blocks (≤ 10^8), confirmations and max_nonce_ahead (≤ 10^6) are too large"
            )
        }
        guard (0...86_400_000).contains(blockTimeMillis) else { throw .malformed("genesis block_time_ms must be 0 to 86400000") }
        for (name, limit) in [
            ("max_transfer_data_bytes", maxTransferDataBytes), ("max_call_data_bytes", maxCallDataBytes),
            ("max_free_data_bytes", maxFreeDataBytes),
        ] where !(0...Transaction.maxDataBytes).contains(limit) {
            throw .malformed("genesis \(name) must be 0 to \(Transaction.maxDataBytes)")
        }
        let tenYears: Int64 = 10 * 366 * 86_400
        guard (1...tenYears).contains(creationDateMaxAgeSeconds), (0...tenYears).contains(creationDateMaxAheadSeconds) else {
            throw .malformed(
                "genesis creation_date_max_age_seconds must be 1 to \(tenYears) and creation_date_max_ahead_seconds 0 to \(tenYears)")
        }
        guard Transaction.isHexID(nodeID) else { throw .malformed("genesis node_id must be 64 lowercase hex characters") }
        for id in allocations.keys where !Transaction.isHexID(id) {
            throw .malformed("genesis allocation key \(id) is not a client id")
        }
        guard contracts.count <= 64, Set(contracts).count == contracts.count,
            contracts.allSatisfy(Genesis.isContractName)
        else {
            throw .malformed("genesis contracts must be at most 64 distinct names of 1–64 characters a-z, 0-9, _ starting with a letter")
        }
        guard producers.count <= 64, Set(producers).count == producers.count,
            producers.allSatisfy({ Transaction.isHexID($0) && Ed25519.PublicKey(hex: $0) != nil })
        else {
            throw .malformed("genesis producers must be at most 64 distinct Ed25519 public keys of 64 lowercase hex characters")
        }
        guard faucet.accountWindowSeconds > 0, faucet.globalWindowSeconds > 0,
            faucet.accountWindowSeconds <= tenYears, faucet.globalWindowSeconds <= tenYears
        else {
            throw .malformed("genesis faucet windows must be 1 to \(tenYears) seconds")
        }
    }

    /// A contract name as transactions and the node's routes spell it: `^[a-z][a-z0-9_]{0,63}$`.
    static func isContractName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }
}
