import MosaicProtocol

/// Builds contracts by name. Genesis names the contracts a chain runs (`Genesis.contracts`);
/// the ledger asks its registry for each, so the engine itself knows none of them. Tests and
/// fixtures register their own (a contract with test rules under a built-in name replaces it).
package struct ContractRegistry: Sendable {
    /// Makes the contract from the chain's genesis (the faucet reads its limits there).
    public typealias Builder = @Sendable (Genesis) -> any Contract

    private var builders: [String: Builder] = [:]

    /// No contracts at all.
    public init() {}

    /// The built-in contracts: `faucet`, `storage`, `notes` and `social`.
    public static let standard: ContractRegistry = {
        var r = ContractRegistry()
        r.register("faucet") { FaucetContract(config: $0.faucet) }
        r.register("storage") { _ in StorageContract(config: StorageConfig()) }
        r.register("notes") { _ in NotesContract() }
        r.register("social") { _ in SocialContract() }
        return r
    }()

    /// Registers (or replaces) the builder of `name`.
    public mutating func register(_ name: String, _ build: @escaping Builder) { builders[name] = build }

    /// Registers one fixed instance under its own name.
    public mutating func register(_ contract: any Contract) { builders[contract.name] = { _ in contract } }

    /// This registry with `contracts` registered under their names.
    public func registering(_ contracts: [any Contract]) -> ContractRegistry {
        var r = self
        for c in contracts { r.register(c) }
        return r
    }

    /// Names this registry can build, sorted.
    public var names: [String] { builders.keys.sorted() }

    /// The contracts `genesis` names, by name; a name this registry cannot build is an error (a node
    /// without a chain's contract cannot run its blocks).
    func build(for genesis: Genesis) throws(LedgerError) -> [String: any Contract] {
        var out: [String: any Contract] = [:]
        for name in genesis.contracts {
            guard let build = builders[name] else {
                throw .malformed(
                    "genesis names contract \"\(name)\", which this node does not have (it has: \(names.joined(separator: ", ")))")
            }
            let contract = build(genesis)
            guard contract.name == name else {
                throw .malformed("the registry's builder for \"\(name)\" made a contract named \"\(contract.name)\"")
            }
            out[name] = contract
        }
        return out
    }
}
