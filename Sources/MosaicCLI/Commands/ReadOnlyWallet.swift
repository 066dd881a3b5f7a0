import MosaicProtocol
import MosaicSDK

/// A wallet's public side for reads (balance, history): no passphrase needed.
struct ReadOnlyWallet {
    let clientID: String
    let client: LedgerClient

    func networkInfo() async throws -> NetworkInfo { try await client.network() }

    func balance() async throws -> Balance {
        let info = try await client.network()
        let a = try await client.account(clientID)
        return Balance(
            clientID: clientID, amount: TokenAmount(baseUnits: a.balance), nonce: a.nonce, symbol: info.symbol,
            usdMicrosPerToken: info.usdMicrosPerToken, round: a.round)
    }

    func transactions(limit: Int, offset: Int) async throws -> TransactionPage {
        try await client.transactions(of: clientID, limit: limit, offset: offset)
    }
}
