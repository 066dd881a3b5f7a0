import Foundation
import MosaicCrypto
import MosaicProtocol

/// Re-executes a chain from its genesis, as an independent auditor does (`mosaic node verify
/// --from URL`): every block's producer signature, previous hash, transaction root, each
/// transaction's signature, the receipts and the state root are checked against a ledger of its
/// own that runs the same transactions. The first disagreement ends the run and is reported.
package struct ChainVerifier {
    /// One block as the audited node serves it, with its transactions and their receipts.
    package struct SourceBlock: Sendable {
        package var block: Block
        package var transactions: [TransactionView]

        package init(block: Block, transactions: [TransactionView]) {
            self.block = block
            self.transactions = transactions
        }
    }

    /// Where the audited chain and the re-execution first disagree.
    package struct Divergence: Sendable, Equatable, CustomStringConvertible {
        package var round: UInt64
        /// What disagrees, e.g. "state_root" or "signature".
        package var field: String
        package var detail: String

        package var description: String { "block \(round): \(field): \(detail)" }
    }

    /// What a run found: how far the chain agrees, and the first divergence if any.
    package struct Report: Sendable {
        /// The last round that re-executed to the same block (0: only the genesis block).
        package var verifiedThrough: UInt64
        /// The hash of that block.
        package var verifiedHash: String
        package var transactions: Int
        package var divergence: Divergence?
    }

    let genesis: Genesis
    let registry: ContractRegistry

    package init(genesis: Genesis, registry: ContractRegistry = .standard) {
        self.genesis = genesis
        self.registry = registry
    }

    /// Re-executes rounds 0 through `head`, reading each with `fetch`; `progress` hears each
    /// round that agreed. Throws only when the local ledger cannot run (a `LedgerError`) or
    /// `fetch` fails; a disagreement is a report, not an error.
    package func verify(
        through head: UInt64, fetch: (UInt64) async throws -> SourceBlock, progress: (UInt64) -> Void = { _ in }
    ) async throws -> Report {
        let directory = NSTemporaryDirectory() + "mosaic-verify-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Its own key never signs: every block it commits keeps the audited producer's signature.
        let ledger = try Ledger(
            directory: directory, genesis: genesis, registry: registry, key: Ed25519.SigningKey.generate(), log: { _ in })
        defer { ledger.close() }
        var report = Report(verifiedThrough: 0, verifiedHash: ledger.latestBlock.hash, transactions: 0)
        let zero = try await fetch(0).block
        guard zero.hash == ledger.latestBlock.hash, zero.fault(producers: []) == nil else {
            report.divergence = Divergence(
                round: 0, field: "genesis", detail: "block 0 is \(zero.hash); the genesis it serves gives \(ledger.latestBlock.hash)")
            return report
        }
        var round: UInt64 = 1
        while round <= head {
            let source = try await fetch(round)
            if let divergence = try check(source, round: round, on: ledger) {
                report.divergence = divergence
                return report
            }
            report.verifiedThrough = round
            report.verifiedHash = source.block.hash
            report.transactions += source.transactions.count
            progress(round)
            round += 1
        }
        return report
    }

    /// The first disagreement of one block, re-executed on `ledger`'s head; nil when it agrees.
    private func check(_ source: SourceBlock, round: UInt64, on ledger: Ledger) throws -> Divergence? {
        let b = source.block
        func diverges(_ field: String, _ detail: String) -> Divergence { Divergence(round: round, field: field, detail: detail) }
        let previous = ledger.latestBlock
        guard b.round == round else { return diverges("round", "asked for block \(round), got \(b.round)") }
        if let fault = b.fault(producers: genesis.producers) { return diverges(Self.field(fault), fault.description) }
        guard b.previousHash == previous.hash else {
            return diverges("previous_hash", "it names \(b.previousHash); block \(previous.round) is \(previous.hash)")
        }
        guard b.timestamp >= previous.timestamp else {
            return diverges("timestamp", "\(b.timestamp) is before block \(previous.round)'s \(previous.timestamp)")
        }
        let txs = source.transactions.map(\.transaction)
        guard txs.count == b.transactionCount else {
            return diverges("transaction_count", "the block says \(b.transactionCount); \(txs.count) were served")
        }
        // What a producer may include: transactions admission would take (signature, chain, fee,
        // data size, contract and method), each sender's nonces in an unbroken run after its
        // account nonce, so no transaction runs twice or out of order.
        var nonces: [String: UInt64] = [:]
        for (i, view) in source.transactions.enumerated() {
            let tx = view.transaction
            do { _ = try ledger.precheck(tx) } catch {
                return diverges("transaction", "transaction \(i) (\(view.hash)) would not be admitted: \(error.description)")
            }
            let current = try nonces[tx.clientID] ?? ledger.account(tx.clientID).nonce
            guard current < UInt64.max, tx.nonce == current + 1 else {
                return diverges(
                    "transaction", "transaction \(i) (\(view.hash)) has nonce \(tx.nonce); its sender's next is \(current &+ 1)")
            }
            nonces[tx.clientID] = tx.nonce
        }
        let root = Block.merkleRoot(txs.map(\.hash))
        guard root == b.transactionRoot else {
            return diverges("transaction_root", "the block says \(b.transactionRoot); its transactions give \(root)")
        }
        let setAside = Set(source.transactions.filter { $0.error?.reason == .setAside }.map(\.hash))
        let (made, receipts) = try ledger.replay(b, transactions: txs, setAside: setAside)
        for (view, receipt) in zip(source.transactions, receipts) {
            guard view.outcome == receipt.outcome, view.error?.code == receipt.error?.code, view.output ?? "" == receipt.output else {
                return diverges(
                    "receipt",
                    "transaction \(view.hash): the chain says \(Self.summary(view.outcome, view.error?.code, view.output)), "
                        + "re-execution gives \(Self.summary(receipt.outcome, receipt.error?.code, receipt.output))")
            }
        }
        guard made.stateRoot == b.stateRoot else {
            return diverges("state_root", "the block says \(b.stateRoot); re-executing its transactions gives \(made.stateRoot)")
        }
        guard made.hash == b.hash else { return diverges("hash", "the block is \(b.hash); re-executed it is \(made.hash)") }
        return nil
    }

    private static func field(_ fault: BlockFault) -> String {
        switch fault {
        case .hashMismatch: "hash"
        case .signedGenesis, .unsigned, .unknownProducer, .badSignature: "signature"
        }
    }

    private static func summary(_ outcome: ExecutionOutcome?, _ code: String?, _ output: String?) -> String {
        switch outcome {
        case .success?: "success (\"\(output ?? "")\")"
        case .failure?: "failure (\(code ?? "no code"))"
        case nil: "no receipt"
        }
    }
}
