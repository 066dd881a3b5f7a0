import MosaicProtocol

/// What the social contract reads through: a call's `ContractContext` (which also writes) or a
/// view's `ContractView` (committed state as of one round). Both see ordered range scans.
protocol SocialReader {
    /// Ledger time: the block's timestamp.
    var socialNow: Int64 { get }
    func get(_ key: String) throws(ContractError) -> [UInt8]?
    func scan(prefix: String, after: String?, limit: Int, reverse: Bool) throws(ContractError) -> [ContractEntry]
}

extension ContractContext: SocialReader {
    var socialNow: Int64 { now }
}

extension ContractView: SocialReader {
    var socialNow: Int64 { now }
}

/// Typed reads and writes of the social records over a `SocialReader` (writes need a context).
struct SocialStore {
    let reader: any SocialReader

    var now: Int64 { reader.socialNow }

    func post(_ author: String, _ permlink: String, bodyLimit: Int = 0) throws(ContractError) -> SocialPost? {
        let key = SocialKeys.post(author, permlink)
        guard let bytes = try reader.get(key) else { return nil }
        guard var p = SocialCodec.decodePost(bytes, bodyLimit: bodyLimit) else {
            throw .refused(.stateUnavailable, "social state \(key) is unreadable")
        }
        p.paidOut = now >= p.payoutAt
        return p
    }

    /// The post at "author/permlink" (a reply or feed entry's value).
    func post(path bytes: [UInt8], bodyLimit: Int = 0) throws(ContractError) -> SocialPost? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let slash = text.firstIndex(of: "/") else { return nil }
        return try post(String(text[..<slash]), String(text[text.index(after: slash)...]), bodyLimit: bodyLimit)
    }

    func load<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> T? {
        guard let bytes = try reader.get(key) else { return nil }
        return try SocialCodec.decodeJSON(bytes, as: type, key: key)
    }

    func account(_ id: String) throws(ContractError) -> SocialAccountState {
        try load(SocialKeys.account(id), as: SocialAccountState.self) ?? SocialAccountState()
    }

    func stake(_ id: String) throws(ContractError) -> SocialStake {
        try load(SocialKeys.stake(id), as: SocialStake.self) ?? SocialStake()
    }

    func vote(_ author: String, _ permlink: String, _ voter: String) throws(ContractError) -> SocialVote? {
        try load(SocialKeys.vote(author, permlink, voter), as: SocialVote.self)
    }

    func app(_ id: String) throws(ContractError) -> SocialApp? { try load(SocialKeys.app(id), as: SocialApp.self) }

    /// An app by client id or by name.
    func app(named idOrName: String) throws(ContractError) -> SocialApp? {
        if Transaction.isHexID(idOrName) { return try app(idOrName) }
        guard let id = try reader.get(SocialKeys.appName(idOrName)) else { return nil }
        return try app(String(decoding: id, as: UTF8.self))
    }

    func profile(_ id: String) throws(ContractError) -> SocialProfile? { try load(SocialKeys.profile(id), as: SocialProfile.self) }

    /// The client id holding profile name `name`, if any.
    func nameOwner(_ name: String) throws(ContractError) -> String? {
        try reader.get(SocialKeys.name(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    func rewards(_ id: String) throws(ContractError) -> SocialRewardBalance {
        try load(SocialKeys.rewards(id), as: SocialRewardBalance.self) ?? SocialRewardBalance()
    }

    func pool() throws(ContractError) -> SocialPoolState { try load(SocialKeys.pool, as: SocialPoolState.self) ?? SocialPoolState() }

    func window(_ index: UInt64) throws(ContractError) -> SocialRewardWindow? {
        try load(SocialKeys.window(index), as: SocialRewardWindow.self)
    }

    /// The sum of a post's positive vote rshares (what its curators split).
    func upRshares(_ author: String, _ permlink: String) throws(ContractError) -> UInt64 {
        try reader.get(SocialKeys.upRshares(author, permlink)).flatMap { UInt64(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    func grant(_ user: String, _ app: String) throws(ContractError) -> SocialGrant? {
        guard var g = try load(SocialKeys.grant(user, app), as: SocialGrant.self) else { return nil }
        g.expired = now >= g.expiresAt
        return g
    }
}

/// What the contract keeps per account (key `a/<client id>`). Voting power is stored as of
/// `powerTime` and regenerates linearly to full (10000) in 5 days.
struct SocialAccountState: Codable, Sendable {
    var postCount: UInt64 = 0
    var power: UInt32 = SocialAccountState.fullPower
    var powerTime: Int64 = 0
    var created: Int64?
    var lastRootPost: Int64?
    var lastReply: Int64?
    var lastVote: Int64?
    /// Net rshares the account's posts and replies received (absent in records from before).
    var reputation: Int64?

    static let fullPower: UInt32 = 10_000
    static let regenerationSeconds: Int64 = 5 * 86_400

    enum CodingKeys: String, CodingKey {
        case postCount = "post_count"
        case power
        case powerTime = "power_time"
        case created
        case lastRootPost = "last_root_post"
        case lastReply = "last_reply"
        case lastVote = "last_vote"
        case reputation
    }

    /// Voting power at `now`: stored power + elapsed × 10000 / 432,000, at most 10000.
    func power(at now: Int64) -> UInt32 {
        guard created != nil, now > powerTime else { return power }
        let elapsed = StorageContract.seconds(from: powerTime, to: now)
        // Full after `regenerationSeconds`: compare first, so the product below stays small.
        guard elapsed < UInt64(Self.regenerationSeconds) else { return Self.fullPower }
        let gained = elapsed * UInt64(Self.fullPower) / UInt64(Self.regenerationSeconds)
        return UInt32(min(UInt64(Self.fullPower), UInt64(min(power, Self.fullPower)) + gained))
    }

    func view(_ id: String, now: Int64, stake: SocialStake = SocialStake()) -> SocialAccount {
        SocialAccount(
            clientID: id, postCount: postCount, votingPower: power(at: now), created: created,
            lastRootPost: lastRootPost, lastReply: lastReply, lastVote: lastVote, stake: stake.amount,
            stakeLockedUntil: stake.lockedUntil.flatMap { $0 > now ? $0 : nil })
    }
}
