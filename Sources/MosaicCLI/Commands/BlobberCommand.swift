import Foundation
import MosaicBlobber
import MosaicHTTP
import MosaicProtocol
import MosaicSDK

/// `mosaic blobber`: a storage provider with its own key, registered on the ledger, serving
/// fragments until Ctrl-C or SIGTERM.
enum BlobberCommand {
    static let command = Command(
        name: "blobber", summary: "run a storage provider (blobber) registered on the ledger until Ctrl-C",
        discussion: """
            DIR holds the blobber's key (blobber.key, mode 0600, created on first start: the blobber id is its
            client id), its fragments and its metadata. On start the blobber registers on the ledger (signed,
            staking --stake) or updates its URL and prices; it then commits owners' write markers, redeems read
            markers and answers challenges. On a devnet the stake comes from the faucet. A real operator first
            funds the blobber id (printed on start; 'mosaic wallet send --to ID --amount TOKENS') with the stake plus fees.
            """,
        examples: [
            "mosaic blobber --dir ./b1 --node http://127.0.0.1:7100",
            "mosaic blobber --dir ./b2 --node http://127.0.0.1:7100 --port 5052 --capacity 100GiB --write-price 0.01",
        ],
        options: Options.self, action: { o, inv in try await run(o, inv) })

    struct Options: CommandOptions {
        @Option("dir", "DIR", help: "data folder (created if missing)") var dir: String
        @Option("node", "URL", help: "ledger node (default: the current network's node)") var node: String?
        @Option("ca", "FILE", help: "with --node: a CA certificate (PEM) to trust for the node beside the system CAs") var ca: String?
        @Flag("insecure", help: "with --node: allow a plain http:// node beyond loopback") var insecure: Bool
        var server = ListenOptions()
        var advertised = PublicURLOption()
        @Option("capacity", "SIZE", help: "space offered, e.g. 10GiB (default 10GiB)") var capacity: ByteCount?
        @Option("write-price", help: "per GiB per 30 days (default 0.01)") var writePrice: TokenAmount?
        @Option("read-price", help: "per GiB read (default 0.001)") var readPrice: TokenAmount?
        @Option("stake", help: "tokens locked at registration (default 1, the minimum)") var stake: TokenAmount?
        @Flag("verbose", help: "log requests and challenge answers on standard error") var verbose: Bool
    }

    static func run(_ o: Options, _ inv: Invocation) async throws -> CommandOutput {
        let signals = TerminationSignal()
        let dir = URL(fileURLWithPath: o.dir, isDirectory: true)
        let node: URL
        if let text = o.node {
            guard let u = URL(string: text), u.scheme != nil else {
                throw CLIError.usage("--node \(text): give a URL such as http://127.0.0.1:7100")
            }
            node = u
            if let ca = o.ca {
                do { try TLSTrust.addAuthority(file: ca) } catch { throw CLIError.usage("--ca \(ca): \(error)") }
            }
            if o.insecure { TLSTrust.allowPlainHTTP(true) }
        } else {
            let network = try ClientConfig.load(home: inv.home).resolve(inv.global.network)
            guard let u = URL(string: network.node) else { throw CLIError.usage("network \(network.name) has no valid node URL") }
            node = u
            try network.applyTransportSecurity()
        }
        var options = BlobberRuntime.Options(directory: dir, node: node)
        let listen = try o.server.resolve(defaultPort: 0)
        options.host = listen.host
        options.port = listen.port
        options.tls = listen.tls
        options.publicURL = o.advertised.publicURL?.url
        if let c = o.capacity { options.capacity = c.bytes }
        if let p = o.writePrice { options.writePrice = p.baseUnits }
        if let p = o.readPrice { options.readPrice = p.baseUnits }
        if let s = o.stake { options.stake = s.baseUnits }
        if o.verbose { options.logger = { @Sendable line in Console.err(line + "\n") } }
        let runtime: BlobberRuntime
        do { runtime = try BlobberRuntime(options: options) } catch {
            throw CLIError.failure("cannot open the blobber folder \(dir.path): \(error)")
        }
        do { try runtime.start() } catch {
            throw CLIError.failure("cannot listen on \(listen.listenText): \(error); try --port 0")
        }
        do { try await runtime.register() } catch {
            await runtime.stop()
            if let e = error as? BlobberRuntimeError { throw CLIError.failure(e.description) }
            throw CLIError.failure("cannot register blobber \(runtime.blobberID) at \(Devnet.text(node)): \(error)")
        }
        let url = Devnet.text(runtime.url)
        if inv.json {
            Console.out(
                JSONValue.object([
                    ("blobber_id", .string(runtime.blobberID)), ("url", .string(url)),
                    ("node", .string(Devnet.text(node))), ("dir", .string(dir.path)),
                ]).rendered() + "\n")
        } else {
            Console.out(
                """
                blobber \(runtime.blobberID) listening on \(url)
                registered on \(Devnet.text(node)) with \(ByteSize.format(options.capacity)); data in \(dir.path)
                Press Ctrl-C to stop.

                """)
        }
        return await signals.serve("blobber", stop: { await runtime.stop() }, stopped: { "blobber stopped" })
    }
}
