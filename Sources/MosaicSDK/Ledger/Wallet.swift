import Foundation
import MosaicCrypto
import MosaicProtocol
import Synchronization

/// A wallet on a network: signs with its key and talks to a node through `LedgerClient`.
/// Safe to use from many tasks at once: concurrent sends get distinct nonces (`NonceAllocator`).
public final class Wallet: Sendable {
    /// The node this wallet talks to.
    public let client: LedgerClient
    /// The wallet's account address.
    public let clientID: String
    /// The wallet's name in the keystore (or the one given with a bare key).
    public let name: String
    let key: Ed25519.SigningKey
    private let nonces = NonceAllocator(window: 10)
    private let cachedInfo = Mutex<NetworkInfo?>(nil)
    /// Ledger time minus local time, from the node's `time`: transactions are signed with the
    /// ledger's clock, since the node accepts a `creation_date` only within a window around it.
    private let clockOffset = Mutex<Int64>(0)

    /// How many times a send is re-signed with a fresh nonce after `stale_nonce` (another client
    /// using the same key) before giving up.
    static let staleRetries = 10

    /// A wallet that signs with an unlocked keystore wallet.
    /// - Parameters:
    ///   - wallet: the unlocked wallet whose key signs.
    ///   - client: the node to talk to.
    public init(_ wallet: UnlockedWallet, client: LedgerClient) {
        self.client = client
        key = wallet.signingKey
        clientID = wallet.clientID
        name = wallet.name
    }

    /// A wallet from a bare key (tests, benchmarks, tools).
    /// - Parameters:
    ///   - signingKey: the key that signs.
    ///   - client: the node to talk to.
    ///   - name: a label for messages.
    public init(signingKey: Ed25519.SigningKey, client: LedgerClient, name: String = "key") {
        self.client = client
        key = signingKey
        clientID = signingKey.publicKey.clientID
        self.name = name
    }

    /// Network parameters, fetched once (chain id, fees, symbol and USD rate never change).
    /// - Returns: the network's parameters.
    /// - Throws: `WalletError.node` when the node cannot be read.
    public func networkInfo() async throws(WalletError) -> NetworkInfo {
        if let info = cachedInfo.withLock({ $0 }) { return info }
        let info: NetworkInfo
        do { info = try await client.network() } catch { throw .node(error) }
        cachedInfo.withLock { $0 = info }
        learnClock(info)
        await nonces.setWindow(Int(info.maxNonceAhead))
        return info
    }

    private func learnClock(_ info: NetworkInfo) {
        let local = Int64(Date().timeIntervalSince1970)
        let (offset, overflow) = info.time.subtractingReportingOverflow(local)
        if !overflow { clockOffset.withLock { $0 = offset } }
    }

    /// Now on the ledger's clock, as far as this wallet knows it.
    private var ledgerNow: Int64 {
        let (now, overflow) = Int64(Date().timeIntervalSince1970).addingReportingOverflow(clockOffset.withLock { $0 })
        return overflow ? Int64(Date().timeIntervalSince1970) : now
    }

    // MARK: reads

    /// The wallet's balance with its USD value.
    /// - Returns: tokens, nonce, symbol and rate at the latest round.
    /// - Throws: `WalletError.node` when the node cannot be read.
    public func balance() async throws(WalletError) -> Balance {
        let info = try await networkInfo()
        let a: AccountView
        do { a = try await client.account(clientID) } catch { throw .node(error) }
        return Balance(
            clientID: clientID, amount: TokenAmount(baseUnits: a.balance), nonce: a.nonce, symbol: info.symbol,
            usdMicrosPerToken: info.usdMicrosPerToken, round: a.round)
    }

    /// One page of the wallet's transactions, newest first.
    /// - Parameters:
    ///   - limit: transactions per page.
    ///   - offset: how many to skip.
    /// - Returns: the page.
    /// - Throws: `WalletError.node` when the node cannot be read.
    public func transactions(limit: Int = 20, offset: Int = 0) async throws(WalletError) -> TransactionPage {
        do { return try await client.transactions(of: clientID, limit: limit, offset: offset) } catch { throw .node(error) }
    }

    // MARK: sending

    /// Checks a send without broadcasting anything: amount, address, zero, own wallet, balance.
    /// Returns the amount and fee in base units. The errors are the ones people see.
    /// - Parameters:
    ///   - to: the recipient's client id.
    ///   - amount: the amount as typed, e.g. "1.5".
    ///   - fee: the fee as typed; nil uses the network's minimum.
    /// - Throws: `WalletError` — `.invalidAmount`, `.invalidAddress`, `.zeroAmount`, `.ownWallet`,
    ///   `.insufficientBalance`, or `.node` when the node cannot be read.
    public func validateSend(to: String, amount: String, fee: String? = nil) async throws(WalletError) -> (value: UInt64, fee: UInt64) {
        let value = try TokenAmount.parse(amount).baseUnits
        let target = to.trimmingCharacters(in: .whitespaces)
        guard Transaction.isHexID(target) else { throw .invalidAddress(to) }
        guard value > 0 else { throw .zeroAmount }
        guard target != clientID else { throw .ownWallet }
        let info = try await networkInfo()
        let feeUnits = try fee.map { f throws(WalletError) in try TokenAmount.parse(f).baseUnits } ?? info.minimumFee
        let balance: UInt64
        do { balance = try await client.account(clientID).balance } catch { throw .node(error) }
        let (total, overflow) = value.addingReportingOverflow(feeUnits)
        guard !overflow, total <= balance else { throw .insufficientBalance(balance: balance, amount: value, fee: feeUnits) }
        return (value, feeUnits)
    }

    /// Validates (see `validateSend`), signs and submits a transfer; returns it once the node
    /// accepted it into the pool (status pending). Wait with `wait(for:until:timeout:)`.
    /// - Parameters:
    ///   - to: the recipient's client id.
    ///   - amount: the amount as typed.
    ///   - fee: the fee as typed; nil uses the network's minimum.
    ///   - description: a note stored with the transfer.
    /// - Returns: the signed transaction, pending.
    /// - Throws: `WalletError` as `validateSend`, `.invalidDescription` when the note is too long, or
    ///   `.node` when the node refuses it.
    public func send(to: String, amount: String, fee: String? = nil, description: String = "") async throws(WalletError) -> Transaction {
        guard description.utf8.count <= Transaction.defaultMaxTransferDataBytes else {
            throw .invalidDescription("at most \(Transaction.defaultMaxTransferDataBytes) bytes")
        }
        let (value, feeUnits) = try await validateSend(to: to, amount: amount, fee: fee)
        return try await submit(
            to: to.trimmingCharacters(in: .whitespaces), value: value, fee: feeUnits, type: .transfer, data: description)
    }

    /// Sends `value` base units without the balance pre-check (the node still refuses an
    /// overdraft); for callers that manage amounts themselves, such as many concurrent sends.
    /// - Parameters:
    ///   - to: the recipient's client id.
    ///   - value: base units to send.
    ///   - fee: base units of fee; nil uses the network's minimum.
    ///   - description: a note stored with the transfer.
    /// - Returns: the signed transaction, pending.
    /// - Throws: `WalletError` — `.invalidAddress`, `.zeroAmount`, `.ownWallet`, or `.node` when the
    ///   node refuses it (e.g. `insufficient_balance`).
    public func transfer(to: String, value: UInt64, fee: UInt64? = nil, description: String = "") async throws(WalletError) -> Transaction {
        guard Transaction.isHexID(to) else { throw .invalidAddress(to) }
        guard value > 0 else { throw .zeroAmount }
        guard to != clientID else { throw .ownWallet }
        let f: UInt64
        if let fee { f = fee } else { f = try await networkInfo().minimumFee }
        return try await submit(to: to, value: value, fee: f, type: .transfer, data: description)
    }

    /// Asks the faucet for tokens. Refuses before submitting when the account's limit is
    /// reached, saying when the next pour is possible.
    /// - Returns: the signed `faucet.pour` call, pending.
    /// - Throws: `WalletError.faucetLimited` when the limit is reached, `.node` when the node
    ///   refuses or cannot be reached.
    public func faucet() async throws(WalletError) -> Transaction {
        let status: FaucetView
        do { status = try await client.faucetStatus(clientID) } catch { throw .node(error) }
        if let next = status.nextPourAt {
            throw .faucetLimited(
                "faucet limit reached for this account (\(TokenAmount(baseUnits: status.accountLimit)) per window); next pour possible at \(Wallet.iso8601(next)) (in \(max(0, next - status.now)) s)",
                nextPourAt: next)
        }
        return try await submit(
            to: ContractCall.address(of: "faucet"), value: 0, fee: 0, type: .contractCall,
            data: ContractCall(contract: "faucet", method: "pour").json)
    }

    /// Signs with the next free nonce and submits, re-signing after `stale_nonce`.
    func submit(to: String, value: UInt64, fee: UInt64, type: TransactionType, data: String) async throws(WalletError) -> Transaction {
        let info = try await networkInfo()
        let client = self.client
        let id = clientID
        var attempt = 0
        while true {
            attempt += 1
            let nonce: UInt64
            do {
                nonce = try await nonces.reserve { try await client.account(id).nextNonce }
            } catch let e as LedgerClientError {
                throw .node(e)
            } catch {
                throw .node(.unreachable(url: client.baseURL.absoluteString, reason: "\(error)"))
            }
            let tx = Transaction.signed(
                by: key, chainID: info.chainID, to: to, value: value, fee: fee, nonce: nonce, type: type,
                data: data, creationDate: ledgerNow)
            do {
                try await client.submit(tx)
                await nonces.finish(nonce, taken: true)
                return tx
            } catch {
                switch error {
                case .rejected(code: "stale_nonce", _, _) where attempt <= Wallet.staleRetries,
                    // Another client with this key signed the very same transfer at the same nonce.
                    .rejected(code: "duplicate", _, _) where attempt <= Wallet.staleRetries:
                    await nonces.finish(nonce, taken: true)
                    if let next = try? await client.account(id).nextNonce { await nonces.resync(nodeNext: next) }
                    continue
                case .rejected(code: "creation_date_out_of_window", _, _) where attempt <= 2:
                    // The ledger's clock moved (a devnet's time travel): learn it and sign again.
                    await nonces.finish(nonce, taken: false)
                    if let fresh = try? await client.network() { learnClock(fresh) }
                    continue
                case .rejected(code: "nonce_too_far_ahead", _, _) where attempt <= 50:
                    // Earlier submissions from another process are still on their way; retry shortly.
                    await nonces.finish(nonce, taken: false)
                    try? await Task.sleep(for: .milliseconds(20 * attempt))
                    continue
                case .unreachable, .invalidResponse:
                    // Unknown whether the node took it: ask before reusing the nonce.
                    let known = (try? await client.transaction(tx.hash)) != nil
                    await nonces.finish(nonce, taken: known)
                    if known { return tx }
                    throw .node(error)
                default:
                    await nonces.finish(nonce, taken: false)
                    throw .node(error)
                }
            }
        }
    }

    // MARK: waiting

    /// Waits until the transaction reaches `target` (default sealed) and returns it.
    /// Throws `.expired`, `.failed` (included but execution failed, with the chain's error),
    /// `.timedOut` (with the current status) or `.unknownTransaction`, each distinct.
    /// An expired transaction of this wallet gives its nonce back for the next send.
    /// - Parameters:
    ///   - hash: the transaction's hash.
    ///   - target: the status to wait for.
    ///   - timeout: the longest wait.
    /// - Returns: the transaction at `target` or later.
    /// - Throws: `WalletError` — `.expired`, `.failed`, `.timedOut`, `.unknownTransaction`, `.node`.
    public func wait(for hash: String, until target: TransactionStatus = .sealed, timeout: Duration = .seconds(60))
        async throws(WalletError) -> TransactionView
    {
        do {
            return try await Wallet.wait(client: client, for: hash, until: target, timeout: timeout)
        } catch {
            if case .expired = error, let view = try? await client.transaction(hash), view.transaction.clientID == clientID {
                await nonces.expired(view.transaction.nonce)
            }
            throw error
        }
    }

    /// The same wait for any client (no wallet needed).
    /// - Parameters:
    ///   - client: the node to ask.
    ///   - hash: the transaction's hash.
    ///   - target: the status to wait for.
    ///   - timeout: the longest wait.
    /// - Returns: the transaction at `target` or later.
    /// - Throws: `WalletError` — `.expired`, `.failed`, `.timedOut`, `.unknownTransaction`, `.node`.
    public static func wait(client: LedgerClient, for hash: String, until target: TransactionStatus, timeout: Duration)
        async throws(WalletError) -> TransactionView
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let polled = ContinuousClock.now
            let left = deadline - polled
            let view: TransactionView
            do {
                view = try await client.transaction(hash, wait: target, timeout: max(left, .zero))
            } catch {
                if case .notFound = error { throw .unknownTransaction(hash: hash) }
                throw .node(error)
            }
            if view.status == .expired { throw .expired(hash: hash) }
            if view.outcome == .failure { throw .failed(hash: hash, error: view.error ?? ExecutionError(.refused, "execution failed")) }
            if view.status.satisfies(target) { return view }
            if ContinuousClock.now >= deadline { throw .timedOut(hash: hash, status: view.status) }
            // A node that answers at once without waiting (shutting down, or an old one) is not polled in a tight loop.
            if ContinuousClock.now - polled < .milliseconds(20) { try? await Task.sleep(for: .milliseconds(100)) }
        }
    }

    /// "2026-11-30T05:00:00Z" from unix seconds.
    /// - Parameter unix: seconds since 1970.
    public static func iso8601(_ unix: Int64) -> String { UTCTime.iso8601(unix) }
}
