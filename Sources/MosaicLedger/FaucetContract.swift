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
        var mine = Window(try state.get("account:\(id)"))
        mine.roll(now: state.now, length: config.accountWindowSeconds)
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
    package func status(of clientID: String, state: ContractView, now: Int64) throws(ContractError) -> FaucetStatus {
        var mine = Window(try state.get("account:\(clientID)"))
        mine.roll(now: now, length: config.accountWindowSeconds)
        var all = Window(try state.get("global"))
        all.roll(now: now, length: config.globalWindowSeconds)
        let remaining = try state.balance(of: ContractCall.address(of: name))
        var next: Int64?
        // Window sums saturate: a pour that cannot fit (even by overflowing) is not possible now.
        func full(_ w: Window, _ limit: UInt64) -> Bool {
            let (sum, o) = w.amount.addingReportingOverflow(config.pourAmount)
            return o || sum > limit
        }
        func end(_ w: Window, _ length: Int64) -> Int64 {
            let (t, o) = w.start.addingReportingOverflow(length)
            return o ? .max : t
        }
        if full(mine, config.accountLimit) { next = end(mine, config.accountWindowSeconds) }
        if full(all, config.globalLimit) { next = max(next ?? 0, end(all, config.globalWindowSeconds)) }
        return FaucetStatus(
            pourAmount: config.pourAmount, pouredInWindow: mine.amount, accountLimit: config.accountLimit,
            nextPourAt: next, remainingSupply: remaining)
    }

    package func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        guard method == "pour" else { throw .unknownMethod(contract: name, method: method) }
        try context.consumeGas(100)
        guard context.value == 0 else { throw .invalidArguments("faucet.pour takes no tokens; send it with value 0") }
        let amount = config.pourAmount
        let now = context.now

        var mine = Window(try context.get("account:\(context.caller)"))
        mine.roll(now: now, length: config.accountWindowSeconds)
        guard case (let mineAfter, false) = mine.amount.addingReportingOverflow(amount), mineAfter <= config.accountLimit else {
            let at = saturatingAdd(mine.start, config.accountWindowSeconds)
            throw .refused(
                .rateLimited,
                "faucet limit reached for this account; next pour possible at \(UTCTime.iso8601(at)) (in \(StorageContract.seconds(from: now, to: at)) s)"
            )
        }
        var all = Window(try context.get("global"))
        all.roll(now: now, length: config.globalWindowSeconds)
        guard case (let allAfter, false) = all.amount.addingReportingOverflow(amount), allAfter <= config.globalLimit else {
            let at = saturatingAdd(all.start, config.globalWindowSeconds)
            throw .refused(
                .rateLimited,
                "faucet global limit reached; next pour possible at \(UTCTime.iso8601(at)) (in \(StorageContract.seconds(from: now, to: at)) s)"
            )
        }
        let left = try context.balance(of: context.address)
        guard left >= amount else { throw .refused(.insufficientBalance, "faucet is empty (\(TokenAmount(baseUnits: left)) left)") }

        try context.pay(amount, to: context.caller)
        mine.amount = mineAfter
        all.amount = allAfter
        try context.set("account:\(context.caller)", mine.bytes)
        try context.set("global", all.bytes)
        try context.emit("pour", ["to": context.caller, "amount": String(amount)])
        return "poured \(TokenAmount(baseUnits: amount))"
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
