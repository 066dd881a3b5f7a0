import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport

@testable import MosaicLedger

/// A ledger in a fresh temporary directory, removed when the fixture is released.
final class TestNet {
    let directory: String
    let genesis: Genesis
    let alice: Ed25519.SigningKey
    let bob: Ed25519.SigningKey
    let carol: Ed25519.SigningKey
    var ledger: Ledger
    let contracts: [any Contract]

    let limits: LedgerLimits
    /// Directories of further nodes of this chain, each with its `node.key` already made and
    /// listed among the genesis producers, so a ledger opened there may take over production.
    let followerDirectories: [String]
    /// Other ledgers opened on this chain (followers), closed when the fixture is released.
    var others: [Ledger] = []

    /// `followers` further node directories are made, with keys the genesis lists beside this
    /// ledger's own (a genesis that lists producers must list every node that may make blocks).
    init(
        confirmations: UInt64 = 3, expiryBlocks: UInt64 = 30, faucet: FaucetConfig = FaucetConfig(),
        clock: LedgerClock = LedgerClock(), contracts: [any Contract] = [], limits: LedgerLimits = LedgerLimits(),
        allocations: [String: UInt64] = [:], followers: Int = 0
    ) throws {
        directory = NSTemporaryDirectory() + "mosaic-ledger-test-" + Hex.encode(Random.bytes(6))
        followerDirectories = (0..<followers).map { _ in NSTemporaryDirectory() + "mosaic-follower-test-" + Hex.encode(Random.bytes(6)) }
        alice = try testKey(1)
        bob = try testKey(2)
        carol = try testKey(3)
        var funds = allocations
        funds[alice.publicKey.clientID] = 100 * token
        funds[bob.publicKey.clientID] = 50 * token
        var g = Genesis(chainID: "mosaic-test", genesisTime: 1_800_000_000, allocations: funds)
        g.confirmations = confirmations
        g.expiryBlocks = expiryBlocks
        g.faucet = faucet
        // Test contracts run when genesis names them; one with a built-in name replaces it.
        g.contracts += contracts.map(\.name).filter { !g.contracts.contains($0) }
        if followers > 0 {
            for d in [directory] + followerDirectories {
                try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
                g.producers.append(try Ledger.nodeKey(directory: d).publicKey.hex)
            }
        }
        genesis = g
        self.contracts = contracts
        self.limits = limits
        ledger = try Ledger(
            directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: g, clock: clock,
            registry: .standard.registering(contracts), limits: limits)
    }

    func reopen() throws {
        ledger.close()
        ledger = try Ledger(
            directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: genesis, clock: LedgerClock(),
            registry: .standard.registering(contracts), limits: limits)
    }

    deinit {
        for l in others { l.close() }
        ledger.close()
        for d in [directory] + followerDirectories { try? FileManager.default.removeItem(atPath: d) }
    }

    func transfer(
        _ from: Ed25519.SigningKey, to: Ed25519.SigningKey, _ value: UInt64, fee: UInt64? = nil, nonce: UInt64,
        chainID: String? = nil, memo: String = ""
    ) -> Transaction {
        Transaction.signed(
            by: from, chainID: chainID ?? genesis.chainID, to: to.publicKey.clientID, value: value,
            fee: fee ?? genesis.minimumFee, nonce: nonce, data: memo, creationDate: now)
    }

    func pour(_ key: Ed25519.SigningKey, nonce: UInt64, fee: UInt64 = 0) -> Transaction {
        Transaction.signed(
            by: key, chainID: genesis.chainID, to: ContractCall.address(of: "faucet"), value: 0, fee: fee,
            nonce: nonce, type: .contractCall, data: ContractCall(contract: "faucet", method: "pour").json,
            creationDate: now)
    }

    /// The ledger time the next block gets: what transactions are signed with.
    var now: Int64 { max(ledger.clock.now, ledger.latestBlock.timestamp) }

    func balance(_ key: Ed25519.SigningKey) throws -> UInt64 { try ledger.account(key.publicKey.clientID).balance }

    /// The faucet's status for `clientID` at the ledger clock's now, read as the node reads it.
    func faucetStatus(_ clientID: String) throws -> FaucetView {
        let now = ledger.clock.now
        return try ledger.read("faucet", as: FaucetContract.self) { faucet, state throws(ContractError) in
            try faucet.status(of: clientID, state: state, now: now)
        }
    }
    func nonce(_ key: Ed25519.SigningKey) throws -> UInt64 { try ledger.account(key.publicKey.clientID).nonce }
}

/// The error a throwing call produced, or nil.
func rejection(_ body: () throws -> Void) -> LedgerError? {
    do {
        try body()
        return nil
    } catch let e as LedgerError { return e } catch { return .storage("unexpected \(error)") }
}
