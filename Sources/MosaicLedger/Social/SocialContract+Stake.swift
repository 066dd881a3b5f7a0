import MosaicProtocol

/// Voting stake (docs/SOCIAL.md §3): the tokens a vote's rshares are counted from, locked in the
/// contract. A vote locks the voter's whole stake until the voted post's payout, so a token
/// counts at most once per post: moving it to another account to vote again means unstaking it,
/// which only succeeds once every post it voted on has paid out, and votes close at payout.
/// (Counting the balance instead let one balance vote again and again from account to account.)
extension SocialContract {
    /// `stake`: the call's value joins the caller's voting stake (only the owner of the tokens
    /// can stake them, so there is no `voter` argument).
    func stake(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        guard context.value > 0 else {
            throw .invalidArguments("send the tokens to stake as the call's value ('mosaic social stake AMOUNT')")
        }
        let store = SocialStore(reader: context)
        var stake = try store.stake(context.caller)
        let (sum, overflow) = stake.amount.addingReportingOverflow(context.value)
        guard !overflow else { throw .refused(.overflow, "the stake would overflow") }
        stake.amount = sum
        try context.set(SocialKeys.stake(context.caller), try SocialCodec.encodeJSON(stake))
        try adjustStaked(context, store, adding: context.value)
        try context.emit("stake", ["account": context.caller, "amount": String(context.value), "stake": String(sum)])
        return "staked \(TokenAmount(baseUnits: context.value)); voting stake now \(TokenAmount(baseUnits: sum))"
    }

    /// `unstake(amount?)`: pays `amount` (default all) of the caller's stake back, once the lock of
    /// its votes has passed.
    func unstake(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        var stake = try store.stake(context.caller)
        let amount = try a.optionalUInt64("amount") ?? stake.amount
        guard amount > 0 else { throw .refused(.insufficientBalance, "this account has no voting stake to unstake") }
        guard amount <= stake.amount else {
            throw .refused(
                .insufficientBalance,
                "the voting stake is \(TokenAmount(baseUnits: stake.amount)); cannot unstake \(TokenAmount(baseUnits: amount))")
        }
        if let until = stake.lockedUntil, context.now < until {
            throw .refused(
                .tooEarly,
                "the voting stake is locked by your votes until the last voted post pays out at \(Self.when(until, now: context.now))")
        }
        stake.amount -= amount
        try context.set(SocialKeys.stake(context.caller), stake.amount == 0 ? nil : try SocialCodec.encodeJSON(stake))
        try adjustStaked(context, store, removing: amount)
        try context.pay(amount, to: context.caller)
        try context.emit("unstake", ["account": context.caller, "amount": String(amount), "stake": String(stake.amount)])
        return "unstaked \(TokenAmount(baseUnits: amount)); voting stake now \(TokenAmount(baseUnits: stake.amount))"
    }
}

extension SocialContract {
    /// Keeps the pool's count of staked tokens, so stakes are never paid out as rewards.
    func adjustStaked(_ context: ContractContext, _ store: SocialStore, adding: UInt64 = 0, removing: UInt64 = 0) throws(ContractError) {
        var pool = try store.pool()
        let (sum, overflow) = pool.staked.addingReportingOverflow(adding)
        let added = overflow ? UInt64.max : sum
        pool.staked = added >= removing ? added - removing : 0
        try context.set(SocialKeys.pool, try SocialCodec.encodeJSON(pool))
    }
}

/// A voting stake (key `s/<client id>`): tokens held by the contract for the account, and the
/// ledger time until which its votes lock them (the latest payout of a post it voted on).
struct SocialStake: Codable, Sendable, Equatable {
    var amount: UInt64 = 0
    var lockedUntil: Int64?

    enum CodingKeys: String, CodingKey {
        case amount
        case lockedUntil = "locked_until"
    }
}
