import Foundation
import MosaicCrypto
import MosaicErrors
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// One running blobber: its HTTP server paid through the node (`NodeBlobberLedger` signed by the
/// blobber's own key), write markers committed and read markers redeemed every few seconds, and a
/// `ChallengeResponder`. Shared by `mosaic blobber` and the devnet's in-process blobbers.
package final class BlobberRuntime: Sendable {
    package struct Options: Sendable {
        package var directory: URL
        package var node: URL
        /// Other nodes of the same chain, tried in order when `node` stops answering.
        package var fallbackNodes: [URL] = []
        /// Address to bind (`--listen HOST:PORT`); loopback unless the blobber serves other machines.
        package var host = "127.0.0.1"
        package var port: UInt16 = 0
        /// Serve HTTPS with these (`--tls-cert`, `--tls-key`).
        package var tls: TLSCredentials?
        /// The URL registered on the ledger (`--public-url`), what clients use to reach this
        /// blobber; nil registers the URL it listens on.
        package var publicURL: URL?
        package var capacity: UInt64 = 10 << 30
        /// Base units per GiB per 30 days.
        package var writePrice: UInt64 = TokenAmount.unitsPerToken / 100
        /// Base units per GiB read.
        package var readPrice: UInt64 = TokenAmount.unitsPerToken / 1000
        package var stake: UInt64 = TokenAmount.unitsPerToken
        /// Pour from the node's faucet when the balance cannot pay the stake (devnets).
        package var useFaucet = true
        package var markerInterval: Double = 1
        package var challengeInterval: Duration = .seconds(1)
        /// How far registration is waited for: finalized suffices for allocations to pick it.
        package var registrationStatus: TransactionStatus = .finalized
        package var logger: (@Sendable (String) -> Void)?

        package init(directory: URL, node: URL) {
            self.directory = directory
            self.node = node
        }
    }

    package let options: Options
    package let server: BlobberServer
    package let wallet: Wallet
    package let responder: ChallengeResponder

    /// Opens the blobber's folder (creating its key, mode 0600, on first start) without serving yet.
    package init(options: Options) throws {
        self.options = options
        try FileManager.default.createDirectory(at: options.directory, withIntermediateDirectories: true)
        let key = try BlobberRuntime.key(directory: options.directory)
        let client = LedgerClient(baseURLs: [options.node] + options.fallbackNodes)
        wallet = Wallet(signingKey: key, client: client, name: "blobber")
        var config = BlobberServer.Configuration(directory: options.directory.path)
        config.host = options.host
        config.port = options.port
        config.tls = options.tls
        let hook = MarkerCommitHook()
        config.ledger = NodeBlobberLedger(wallet: wallet, beforeCommit: hook)
        config.ledgerRefresh = 2
        server = try BlobberServer(configuration: config)
        let responder = ChallengeResponder(server: server, wallet: wallet, interval: options.challengeInterval, log: options.logger)
        hook.set { markers in
            for id in Set(markers.map(\.allocationID)) { responder.prover.remember(allocation: id) }
        }
        self.responder = responder
    }

    package var blobberID: String { server.blobberID }
    /// The URL clients use: `--public-url`, else the one it listens on.
    package var url: URL { options.publicURL ?? server.baseURL }

    /// Starts serving (registration is separate so a devnet can register all blobbers at once).
    package func start() throws {
        try server.start()
        server.startMarkerCommits(every: options.markerInterval)
        responder.start()
    }

    /// Funds the stake if needed and registers (or updates the URL of) this blobber on the ledger.
    package func register() async throws {
        let client = wallet.client
        let id = blobberID
        let url = Self.text(self.url)
        if let existing = try await client.storageBlobber(id) {
            if existing.url != url || existing.capacity != options.capacity || existing.writePrice != options.writePrice
                || existing.readPrice != options.readPrice
            {
                try await wallet.updateBlobber(
                    url: url, capacity: max(options.capacity, existing.allocated), writePrice: options.writePrice,
                    readPrice: options.readPrice, until: options.registrationStatus)
            }
            return
        }
        let info = try await wallet.networkInfo()
        // Stake plus fees of the first few hundred marker and challenge transactions.
        let need = options.stake + 200 * info.minimumFee
        var balance = try await client.account(id).balance
        if balance < need, options.useFaucet {
            var pours: [Transaction] = []
            var expected = balance
            while expected < need {
                do { pours.append(try await wallet.faucet()) } catch { break }
                expected += info.faucetPourAmount
            }
            for p in pours { _ = try? await wallet.wait(for: p.hash, until: .finalized, timeout: .seconds(60)) }
            balance = try await client.account(id).balance
        }
        guard balance >= need else {
            throw BlobberRuntimeError.underfunded(
                """
                blobber \(id) holds \(TokenAmount(baseUnits: balance)) but needs \(TokenAmount(baseUnits: need)) \
                (stake \(TokenAmount(baseUnits: options.stake)) plus fees); send tokens to it \
                ('mosaic wallet send --to \(id) --amount \(TokenAmount(baseUnits: need - balance))') and start it again
                """)
        }
        try await wallet.registerBlobber(
            url: url, capacity: options.capacity, writePrice: options.writePrice, readPrice: options.readPrice,
            stake: options.stake, until: options.registrationStatus)
    }

    /// Stops answering, commits what is pending one last time, and stops serving.
    package func stop() async {
        responder.stop()
        _ = await server.commitPendingMarkers()
        await server.stop()
    }

    /// The blobber's key in `directory`, created on first use.
    package static func key(directory: URL) throws -> Ed25519.SigningKey {
        do { return try KeyFile.signingKey(at: directory.appendingPathComponent("blobber.key").path) } catch {
            throw BlobberRuntimeError.badKey(error.description)
        }
    }

    package static func clientID(directory: URL) throws -> String { try key(directory: directory).publicKey.clientID }

    /// "http://127.0.0.1:7100" without a trailing slash, as the ledger stores a blobber's URL.
    static func text(_ url: URL) -> String {
        let s = url.absoluteString
        return s.hasSuffix("/") ? String(s.dropLast()) : s
    }
}

/// Why a blobber could not start: the CLI shows the message as it is.
package enum BlobberRuntimeError: CodedError, Equatable, CustomStringConvertible {
    /// The balance cannot pay the stake and fees (and the faucet did not help).
    case underfunded(String)
    /// The key file is unreadable, malformed or cannot be written.
    case badKey(String)

    package var code: String {
        switch self {
        case .underfunded: return "underfunded"
        case .badKey: return "bad_key"
        }
    }

    package var description: String {
        switch self {
        case .underfunded(let m), .badKey(let m): return m
        }
    }
}
