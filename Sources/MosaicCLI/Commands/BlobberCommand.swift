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
        flags: [
            .option("dir", "DIR", "data folder (created if missing)"),
            .option("node", "URL", "ledger node (default: the current network's node)"),
            .option("ca", "FILE", "with --node: a CA certificate (PEM) to trust for the node beside the system CAs"),
            .toggle("insecure", "with --node: allow a plain http:// node beyond loopback"),
            .option("capacity", "SIZE", "space offered, e.g. 10GiB (default 10GiB)"),
            .option("write-price", "TOKENS", "per GiB per 30 days (default 0.01)"),
            .option("read-price", "TOKENS", "per GiB read (default 0.001)"),
            .option("stake", "TOKENS", "tokens locked at registration (default 1, the minimum)"),
            .toggle("verbose", "log requests and challenge answers on standard error"),
        ] + ServerFlags.flags(defaultPort: 0, publicURL: true),
        action: { inv in try await run(inv) })

    static func run(_ inv: Invocation) async throws -> CommandOutput {
        let signals = TerminationSignal()
        let dir = URL(fileURLWithPath: try inv.required("dir"), isDirectory: true)
        let node: URL
        if let text = inv.value("node") {
            guard let u = URL(string: text), u.scheme != nil else {
                throw CLIError.usage("--node \(text): give a URL such as http://127.0.0.1:7100")
            }
            node = u
            if let ca = inv.value("ca") {
                do { try TLSTrust.addAuthority(file: ca) } catch { throw CLIError.usage("--ca \(ca): \(error)") }
            }
            if inv.has("insecure") { TLSTrust.allowPlainHTTP(true) }
        } else {
            let network = try ClientConfig.load(home: inv.home).resolve(inv.value("network"))
            guard let u = URL(string: network.node) else { throw CLIError.usage("network \(network.name) has no valid node URL") }
            node = u
            try network.applyTransportSecurity()
        }
        var options = BlobberRuntime.Options(directory: dir, node: node)
        let listen = try ServerFlags(inv, defaultPort: 0)
        options.host = listen.host
        options.port = listen.port
        options.tls = listen.tls
        options.publicURL = listen.publicURL
        if let c = inv.value("capacity") { options.capacity = try ByteSize.parse(c, flag: "capacity") }
        if let p = inv.value("write-price") { options.writePrice = try tokens(p, flag: "write-price") }
        if let p = inv.value("read-price") { options.readPrice = try tokens(p, flag: "read-price") }
        if let s = inv.value("stake") { options.stake = try tokens(s, flag: "stake") }
        if inv.has("verbose") { options.logger = { @Sendable line in Console.err(line + "\n") } }
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
        let sig = await signals.wait()
        signals.restoreDefaults()
        Console.err("received \(TerminationSignal.name(sig)), stopping the blobber…\n")
        await runtime.stop()
        Console.err("blobber stopped\n")
        return .printed
    }

    static func tokens(_ text: String, flag: String) throws -> UInt64 {
        do { return try TokenAmount(parsing: text).baseUnits } catch {
            throw CLIError.usage("--\(flag) \(text): give a token amount such as 1, 0.5 or 0.001")
        }
    }
}
