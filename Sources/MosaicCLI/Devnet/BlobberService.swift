import Foundation
import MosaicBlobber
import MosaicProtocol
import Synchronization

/// A blobber as a devnet service: serves at once, and registers (stake poured from the faucet) in
/// the background so all of a devnet's blobbers land in the same blocks; `ready()` waits for it.
final class BlobberService: DevnetService {
    let role = DevnetRole.blobber
    let name: String
    let capacity: UInt64
    let logger: (@Sendable (String) -> Void)?
    private let runtime = Mutex<BlobberRuntime?>(nil)
    private let registration = Mutex<Task<Void, any Error>?>(nil)

    init(index: Int, capacity: UInt64 = 10 << 30, logger: (@Sendable (String) -> Void)? = nil) {
        name = "blobber-\(index)"
        self.capacity = capacity
        self.logger = logger
    }

    /// Ten tokens: the one-token stake plus fees for a long while.
    func genesisFunds(directory: URL) throws -> [String: UInt64] {
        [try Self.cli { try BlobberRuntime.clientID(directory: directory) }: 10 * TokenAmount.unitsPerToken]
    }

    /// The runtime's own errors read as the CLI's failures (same message, exit code and `--json` code).
    private static func cli<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as BlobberRuntimeError { throw CLIError.failure(e.description) }
    }

    func start(nodes: [URL], directory: URL) async throws -> URL {
        guard let node = nodes.first else { throw CLIError.failure("a blobber needs a node") }
        var options = BlobberRuntime.Options(directory: directory, node: node)
        options.fallbackNodes = Array(nodes.dropFirst())
        options.capacity = capacity
        options.logger = logger
        let r = try Self.cli { try BlobberRuntime(options: options) }
        try r.start()
        runtime.withLock { $0 = r }
        registration.withLock { $0 = Task { try await r.register() } }
        return r.url
    }

    func ready() async throws {
        guard let task = registration.withLock({ $0 }) else { return }
        do { try await task.value } catch let e as BlobberRuntimeError { throw CLIError.failure(e.description) }
    }

    func stop() async {
        registration.withLock { $0?.cancel() }
        if let r = runtime.withLock({ s -> BlobberRuntime? in
            defer { s = nil }
            return s
        }) {
            await r.stop()
        }
    }
}
