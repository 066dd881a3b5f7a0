import MosaicProtocol

/// `faucet.pour`: pays a fixed amount from the faucet account, at most `accountLimit` per account
/// per window and `globalLimit` overall per window. A window opens with the first pour after the
/// previous one closed, so the refusal can say exactly when the next pour is possible.
struct FaucetContract: Contract {
    let config: FaucetConfig
    var name: String { "faucet" }
    var methods: [String] { ["pour"] }
    var views: [String] { ["status"] }

    /// A new account has nothing to pay a fee with, so a pour is free (held to the free limits).
    func feePolicy(method: String) -> FeePolicy { method == "pour" ? .exempt : .standard }

    /// `status {client_id}`: what the account has poured in its current window, as of the view's round.
    func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
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

    func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
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
