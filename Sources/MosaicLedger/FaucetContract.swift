import MosaicProtocol

/// `faucet.pour`: pays a fixed amount from the faucet account, at most `accountLimit` per account
/// per window and `globalLimit` overall per window. A window opens with the first pour after the
/// previous one closed, so the refusal can say exactly when the next pour is possible.
package struct FaucetContract: Contract {
    let config: FaucetConfig
    package var name: String { "faucet" }
    package var methods: [String] { ["pour"] }
    package var views: [String] { ["status"] }

    /// A new account has nothing to pay a fee with, so a pour is free (held to the free limits).
    package func feePolicy(method: String) -> FeePolicy { method == "pour" ? .exempt : .standard }

    /// `status {client_id}`: what the account has poured in its current window, as of the view's round.
    package func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
        guard name == "status" else { throw .unknownView(contract: self.name, view: name) }
        guard let id = args["client_id"]?.stringValue, Transaction.isHexID(id) else {
            throw .invalidArguments("client_id must be 64 lowercase hex characters")
        }
        let account = accountLimit(of: id)
        let mine = account.window(try state.get(account.key), now: state.now)
        return .object([
            "client_id": .string(id), "poured_in_window": .integer(Int64(clamping: mine.amount)),
            "account_limit": .integer(Int64(clamping: config.accountLimit)),
            "window_start": .integer(mine.amount == 0 ? 0 : mine.start),
        ])
    }

    /// `GET /v1/network` names where pours come from and how much one is.
    package func contribute(to info: inout NetworkInfo) {
        info.faucetAddress = ContractCall.address(of: name)
        info.faucetPourAmount = config.pourAmount
    }

    /// The supply check shows what the faucet still holds.
    package func contribute(to report: inout SupplyReport, balance: UInt64) { report.faucetRemaining = balance }

    /// What a pour would do for `clientID` at `now` (the ledger clock, which a devnet may move
    /// ahead of the latest block), so clients can say "next pour at …" before a pour that would
    /// fail: the node's `GET /v1/faucet/{client_id}`, read with `Ledger.read`.
    package func status(of clientID: String, state: ContractView, now: Int64) throws(ContractError) -> FaucetView {
        var windows: [(limit: Limit, window: Window)] = []
        for limit in limits(for: clientID) { windows.append((limit, limit.window(try state.get(limit.key), now: now))) }
        var next: Int64?
        // Window sums saturate: a pour that cannot fit (even by overflowing) is not possible now.
        for (limit, window) in windows where limit.total(window, adding: config.pourAmount) == nil {
            next = max(next ?? 0, limit.end(of: window))
        }
        return FaucetView(
            clientID: clientID, pourAmount: config.pourAmount, pouredInWindow: windows[0].window.amount, accountLimit: config.accountLimit,
            nextPourAt: next, remainingSupply: try state.balance(of: ContractCall.address(of: name)), now: now)
    }

    package func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        guard method == "pour" else { throw .unknownMethod(contract: name, method: method) }
        try context.consumeGas(100)
        try refuseValue(context, method: method)
        let amount = config.pourAmount
        let now = context.now

        // The account's window first, then the global one: each refusal says when the next pour is possible.
        var filled: [(key: String, window: Window)] = []
        for limit in limits(for: context.caller) {
            var window = limit.window(try context.get(limit.key), now: now)
            guard let total = limit.total(window, adding: amount) else {
                let at = limit.end(of: window)
                throw .refused(
                    .rateLimited,
                    "\(limit.reached); next pour possible at \(UTCTime.iso8601(at)) (in \(StorageContract.seconds(from: now, to: at)) s)")
            }
            window.amount = total
            filled.append((limit.key, window))
        }
        let left = try context.balance(of: context.address)
        guard left >= amount else { throw .refused(.insufficientBalance, "faucet is empty (\(TokenAmount(baseUnits: left)) left)") }

        try context.pay(amount, to: context.caller)
        for (key, window) in filled { try context.set(key, window.bytes) }
        try context.emit("pour", ["to": context.caller, "amount": String(amount)])
        return "poured \(TokenAmount(baseUnits: amount))"
    }

    /// The account's own window: `accountLimit` per `accountWindowSeconds`.
    func accountLimit(of clientID: String) -> Limit {
        Limit(
            key: "account:\(clientID)", length: config.accountWindowSeconds, most: config.accountLimit,
            reached: "faucet limit reached for this account")
    }

    /// The limits every pour must fit, in the order they are checked: the account's, then the global one.
    func limits(for clientID: String) -> [Limit] {
        [
            accountLimit(of: clientID),
            Limit(key: "global", length: config.globalWindowSeconds, most: config.globalLimit, reached: "faucet global limit reached"),
        ]
    }

    /// At most `most` tokens per window of `length` seconds, kept under `key`.
    struct Limit {
        let key: String
        let length: Int64
        let most: UInt64
        /// The start of the refusal when a pour would pass it.
        let reached: String

        /// The stored window as of `now`: a new one when the stored one has closed.
        func window(_ bytes: [UInt8]?, now: Int64) -> Window {
            var w = Window(bytes)
            w.roll(now: now, length: length)
            return w
        }

        /// What the window holds after `amount` more, or nil when that passes the limit (or overflows).
        func total(_ w: Window, adding amount: UInt64) -> UInt64? {
            let (sum, overflow) = w.amount.addingReportingOverflow(amount)
            return overflow || sum > most ? nil : sum
        }

        /// When the window closes (saturating).
        func end(of w: Window) -> Int64 { saturatingAdd(w.start, length) }
    }

    /// Amount given since `start`, stored as 16 bytes: start (Int64) ‖ amount (UInt64), big-endian.
    struct Window {
        var start: Int64 = 0
        var amount: UInt64 = 0

        init(_ bytes: [UInt8]?) {
            guard let b = bytes, b.count == 16 else { return }
            start = Int64(bitPattern: b[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
            amount = b[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func roll(now: Int64, length: Int64) {
            if amount == 0 || now >= saturatingAdd(start, length) {
                start = now
                amount = 0
            }
        }

        var bytes: [UInt8] {
            let s = UInt64(bitPattern: start)
            return (0..<8).map { UInt8(truncatingIfNeeded: s >> (56 - 8 * UInt64($0))) }
                + (0..<8).map { UInt8(truncatingIfNeeded: amount >> (56 - 8 * UInt64($0))) }
        }
    }
}
