import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK

/// `mosaic node verify --from URL`: what an independent auditor runs. The chain a node serves is
/// re-executed from its genesis in a ledger of this process's own, and every block's signature,
/// transaction root, receipts and state root must come out the same.
enum NodeVerifyCommand {
    static let command = Command(
        name: "verify", summary: "re-execute a node's chain from genesis and report the first block that disagrees",
        discussion: """
            Reads the genesis and every block with its transactions from URL, checks that each block is signed by a
            producer the genesis lists, that each transaction is validly signed, and runs them in a fresh ledger of
            its own: transaction root, receipts, state root and hash must agree. Stops at the first divergence,
            names the block and what differs, and exits with status 1.
            """,
        examples: [
            "mosaic node verify --from http://127.0.0.1:7100", "mosaic node verify --from https://node.example.org --ca ca.pem --json",
        ],
        options: Options.self, action: { o, inv in try await run(o, inv) })

    struct Options: CommandOptions {
        @Option("from", "URL", help: "the node whose chain to re-execute") var from: String
        @Option("ca", "FILE", help: "CA certificate (PEM) the node's TLS certificate chains to, beside the system CAs")
        var ca: String?
        @Flag("insecure", help: "allow plain http:// beyond loopback (no encryption)") var insecure: Bool
    }

    static func run(_ o: Options, _ inv: Invocation) async throws -> CommandOutput {
        let url = ClientConfig.Network.trimmed(o.from)
        guard ClientConfig.Network.isValidURL(url) else {
            throw CLIError.usage("--from \(o.from) is not a node URL; give one like http://127.0.0.1:7100 or https://node.example.org")
        }
        let client = try LedgerClient(
            network: ClientConfig.Network(name: "verify", node: url, ca: o.ca, insecure: o.insecure ? true : nil))
        let genesis: Genesis
        do { genesis = try JSONDecoder().decode(Genesis.self, from: try await client.genesis()) } catch let e as LedgerClientError {
            throw e
        } catch {
            throw CLIError.failure("\(url) serves a genesis this version cannot read: \(error)")
        }
        let head = try await client.latestBlock().block
        let started = ContinuousClock.now
        var lastLine = started
        let report = try await ChainVerifier(genesis: genesis).verify(
            through: head.round,
            fetch: { round in
                let block = try await client.block(round: round).block
                let txs = block.transactionCount == 0 ? [] : try await client.blockTransactions(round: round)
                return ChainVerifier.SourceBlock(block: block, transactions: txs)
            },
            progress: { round in
                let now = ContinuousClock.now
                guard !inv.json, now - lastLine >= .seconds(2) else { return }
                lastLine = now
                Console.err("verified \(round) of \(head.round) blocks…\n")
            })
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if let d = report.divergence {
            let agreed = d.round == 0 ? "no block agrees" : "blocks 0–\(d.round - 1) agree"
            throw CLIError.coded(
                code: "chain_diverges",
                message: "\(url)'s chain \(genesis.chainID) diverges at block \(d.round) (\(d.field)): \(d.detail); \(agreed)")
        }
        let producers = genesis.producers.isEmpty ? "unsigned (its genesis lists no producers)" : "signed by a listed producer"
        return CommandOutput(
            text: """
                chain \(genesis.chainID) at \(url) agrees: blocks 0–\(report.verifiedThrough) re-executed \
                (\(report.transactions) transactions, \(String(format: "%.1f", seconds)) s); every block \(producers), \
                transaction roots, receipts and state roots equal. Head #\(report.verifiedThrough) \(report.verifiedHash)
                """,
            json: .object([
                ("node", .string(url)), ("chain_id", .string(genesis.chainID)), ("agrees", .bool(true)),
                ("verified_through", .unsigned(report.verifiedThrough)), ("head_hash", .string(report.verifiedHash)),
                ("transactions", .integer(Int64(report.transactions))), ("producers", .array(genesis.producers.map(JSONValue.string))),
            ]))
    }
}
