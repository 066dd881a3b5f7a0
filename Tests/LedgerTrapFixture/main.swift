import Foundation
import MosaicLedger
import MosaicNode
import MosaicProtocol

// A node in its own process with a contract that traps on purpose, for the poisoned-transaction
// test: `ledger-trap-fixture DIR GENESIS` serves DIR (a new one starts from GENESIS) with 100 ms
// blocks (on the PostgreSQL database MOSAIC_LEDGER_STORE_URL names, if set), prints {"node": URL}
// and serves until killed or until `trap.spring` kills it.

/// `trap.spring` stops the process the way a contract bug would (a failed precondition);
/// `trap.noop` succeeds. Exists only here.
struct TrapContract: Contract {
    var name: String { "trap" }
    var methods: [String] { ["spring", "noop"] }

    func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        switch method {
        case "spring": fatalError("trap.spring: a contract bug that stops the process")
        case "noop": return "nothing happened"
        default: throw .unknownMethod(contract: name, method: method)
        }
    }
}

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: ledger-trap-fixture DIR GENESIS\n".utf8))
    exit(2)
}
do {
    let genesis = try Genesis.load(from: args[2])
    var configuration = NodeConfiguration(directory: args[1], genesis: genesis, blockTime: .milliseconds(100))
    // A parent test on PostgreSQL names the database (Tests/Support/TestLedgerDatabase).
    if let url = ProcessInfo.processInfo.environment["MOSAIC_LEDGER_STORE_URL"] { configuration.database = .postgres(url: url) }
    configuration.contracts.register(TrapContract())
    let node = try NodeServer(configuration: configuration)
    try node.start()
    FileHandle.standardOutput.write(Data("{\"node\":\"\(node.url.absoluteString)\"}\n".utf8))
    while true { sleep(3600) }
} catch {
    FileHandle.standardError.write(Data("ledger-trap-fixture: \(error)\n".utf8))
    exit(1)
}
