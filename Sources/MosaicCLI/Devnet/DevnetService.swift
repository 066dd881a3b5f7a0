import Foundation

/// Something a devnet runs in-process next to its node: a blobber, the web app. Implement it and
/// add an instance to `Devnet.Options.services`; the devnet starts services in order after the
/// nodes (each learns the nodes' URLs and gets its own data folder) and stops them in reverse.
protocol DevnetService: Sendable {
    /// Whether the URL is reported as `app` or appended to `blobbers`.
    var role: DevnetRole { get }
    /// Folder name under the devnet directory, e.g. "blobber-1" or "app".
    var name: String { get }
    /// Starts serving on loopback and returns the base URL. `nodes` are the devnet's nodes, the
    /// first tried first; a client of the ledger fails over to the others.
    func start(nodes: [URL], directory: URL) async throws -> URL
    /// Accounts to fund in a new devnet's genesis (base units by client id), given the service's
    /// folder; lets blobbers stake without waiting for faucet pours.
    func genesisFunds(directory: URL) throws -> [String: UInt64]
    /// Waits until the service is usable (a blobber: registered on the ledger); called after every
    /// service started, so slow set-ups overlap.
    func ready() async throws
    /// Stops serving; called once, also when a later service failed to start.
    func stop() async
}

extension DevnetService {
    func genesisFunds(directory: URL) throws -> [String: UInt64] { [:] }
    func ready() async throws {}
}

/// How a devnet service is reported in `DevnetURLs`.
enum DevnetRole: Sendable {
    case app
    case blobber
}
