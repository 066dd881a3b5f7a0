// Option groups that several commands share: each is declared once and embedded as a stored
// property (`var target = AllocTarget()`), so the name, placeholder and help cannot drift apart.

/// `--alloc`: which allocation a storage command acts on.
struct AllocTarget: CommandOptions {
    @Option("alloc", "ID", help: "allocation id, unique prefix or name (default: the wallet's only active one)") var alloc: String?
}

/// `--no-wait` and `--timeout` of commands that submit a transaction.
struct WaitOptions: CommandOptions {
    @Flag("no-wait", help: "return once the node accepted the transaction instead of waiting until it is sealed") var noWait: Bool
    @Option("timeout", "DURATION", help: "how long to wait for sealing (default 60s)") var timeout: Interval?

    /// How long to wait for sealing.
    var duration: Duration { timeout?.duration ?? .seconds(60) }
}
