/// Wallet commands that talk to a ledger node (balance, faucet, send, history).
enum WalletLedgerCommands {
    static let all: [Command] = []
}
