/// What the ledger keeps (in `meta`) so that a transaction which kills the process while it
/// executes cannot kill it again on every start (docs/PROTOCOL.md §2.7).
///
/// Before a block runs, an `ExecutionRecord` names it; the block's own commit deletes the record.
/// A record found at open therefore means the process died inside that block: its transactions
/// become suspects, run again in halves, each half in its own recorded block, until a group of
/// one still kills the process. That one is set aside (included as failed without running) and
/// everything else executes normally: at most about log2(n) restarts for a block of n.
struct RecoveryState: Codable, Equatable {
    /// Suspect groups still to run, in block order, each alone in its own block.
    var groups: [[String]] = []
    /// Transactions found at fault: the next block includes them as failed, without running them.
    var setAside: [String] = []
    /// End-of-block hooks that stopped the process, each skipped up to the round given.
    var skippedHooks: [String: UInt64] = [:]

    enum CodingKeys: String, CodingKey {
        case groups
        case setAside = "set_aside"
        case skippedHooks = "skipped_hooks"
    }

    /// True while blocks must be recovery blocks instead of taking from the pool.
    var isRecovering: Bool { !groups.isEmpty || !setAside.isEmpty }

    /// Hashes that must neither run in a normal block nor expire while recovery lasts.
    var suspects: Set<String> { Set(groups.joined()).union(setAside) }
}

/// The block being executed, written (and committed) before any of it runs.
struct ExecutionRecord: Codable, Equatable {
    enum Phase: String, Codable {
        /// Running its transactions.
        case transactions
        /// Including set-aside transactions as failed (no contract code runs).
        case setAside = "set_aside"
        /// Running the end-of-block hook of `hook` (written apart, as `Ledger.executingHookKey`).
        case hook
    }

    var round: UInt64
    /// The block's transactions in order.
    var hashes: [String]
    /// The block runs `RecoveryState.groups[0]`.
    var bisecting: Bool
    var phase: Phase
    var hook: String?
}
