import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK

/// What a storage command needs: the unlocked wallet (blobber requests are signed by it), a
/// `StorageClient` over it, and the allocation named by `--alloc` (or the wallet's only active one).
struct StorageContext {
    let ledger: LedgerContext
    let unlocked: UnlockedWallet
    let wallet: Wallet
    let storage: StorageClient
    /// `--alloc` of the command, when it has one.
    let alloc: String?

    /// - Parameter rateLimit: `--limit-rate` of a transfer command (bytes of the file per second).
    init(_ inv: Invocation, alloc: String? = nil, rateLimit: TransferRate? = nil) throws {
        self.alloc = alloc
        ledger = try LedgerContext(inv)
        let passphrase = try PassphraseSource.resolve(
            passphraseFile: inv.global.passphraseFile, environment: inv.environment,
            prompt: "Passphrase for wallet \(ledger.walletName): ")
        unlocked = try ledger.keystore.unlock(name: ledger.walletName, passphrase: passphrase)
        wallet = Wallet(unlocked, client: ledger.client)
        var configuration = StorageClient.Configuration()
        configuration.rateLimit = rateLimit?.bytesPerSecond
        storage = StorageClient(wallet: unlocked, home: inv.home, configuration: configuration)
    }

    var client: LedgerClient { ledger.client }

    /// The ledger allocation of `--alloc`, or the only active allocation of this wallet.
    func ledgerAllocation(_ id: String? = nil) async throws -> Allocation {
        if let id = id ?? alloc {
            let text = id.lowercased()
            if Transaction.isHexID(text) {
                guard let a = try await client.storageAllocation(text) else {
                    throw CLIError.failure(
                        "allocation \(text) does not exist on network \(ledger.network.name); list yours with 'mosaic alloc list'")
                }
                return a
            }
            // A unique prefix or a name of one of this wallet's allocations.
            let mine = try await client.storageAllocations(owner: wallet.clientID)
            let hits = mine.filter { $0.id.hasPrefix(text) || $0.name == id }
            guard hits.count == 1, let a = hits.first else {
                throw CLIError.usage(
                    "--alloc \(id): \(hits.isEmpty ? "no allocation of this wallet has that id or name" : "several allocations match; give more of the id")"
                )
            }
            return a
        }
        let active = try await client.storageAllocations(owner: wallet.clientID).filter { $0.status == .active }
        guard active.count == 1, let a = active.first else {
            throw CLIError.usage(
                active.isEmpty
                    ? "this wallet has no active allocation; create one with 'mosaic alloc new --data 2 --parity 2 --size 1GiB --expire 30d'"
                    : "this wallet has \(active.count) active allocations; pick one with --alloc ID (see 'mosaic alloc list')")
        }
        return a
    }

    /// The allocation for reads and writes, refusing early what would fail anyway.
    func allocation(forWriting: Bool) async throws -> StorageAllocation {
        let a = try await ledgerAllocation()
        guard a.ownerID == wallet.clientID else {
            throw CLIError.failure(
                "allocation \(a.id) belongs to \(a.ownerID), not to wallet \(ledger.walletName); use 'mosaic download --ticket TICKET LOCAL' for files shared with you"
            )
        }
        if forWriting {
            guard a.status == .active else {
                throw CLIError.failure("allocation \(a.id) is \(a.status.rawValue); create a new one with 'mosaic alloc new'")
            }
            let now = try await client.network().time
            guard a.expiration > now else {
                throw CLIError.failure(
                    "allocation \(a.id) expired at \(Wallet.iso8601(a.expiration)); extend it with 'mosaic alloc update \(a.id) --extend 30d' before writing"
                )
            }
            guard a.writePool > 0 else {
                throw CLIError.failure(
                    "allocation \(a.id) has an empty write pool, so blobbers cannot be paid for new data; add tokens with 'mosaic alloc update \(a.id) --lock 1'"
                )
            }
        }
        return try StorageAllocation(a)
    }

    /// Runs a storage operation, turning the SDK's and blobbers' errors into CLI failures.
    static func failing<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let e as StorageClientError {
            throw CLIError.coded(code: e.code, message: e.description)
        }
    }
}
