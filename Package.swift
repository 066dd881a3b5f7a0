// swift-tools-version:6.0
import PackageDescription

/// One module per concept; C libraries from Debian stay behind `C<Name>` system-library shims.
/// Dependencies point one way: CLI and app → SDK → protocol/crypto; node → ledger → protocol.
/// Every Swift target: a file sees only the members of the modules it imports itself.
let swift: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Mosaic",
    products: [
        .executable(name: "mosaic", targets: ["mosaic"]),
        .library(name: "MosaicSDK", targets: ["MosaicSDK"]),
    ],
    targets: [
        // MARK: C libraries from Debian's packages, each a module map and one shim header.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // MARK: Foundations: no Mosaic module below them.
        // `CodedError`: the stable code every Mosaic error carries to the user (below every module).
        .target(name: "MosaicErrors", swiftSettings: swift),
        // Keys, mnemonics, SLIP-10, hashing, AEAD (libsodium, OpenSSL).
        .target(name: "MosaicCrypto", dependencies: ["MosaicErrors", "CSodium", "CCrypto"], swiftSettings: swift),
        // SQLite connections, statements and transactions.
        .target(name: "MosaicDatabase", dependencies: ["MosaicErrors", "CSQLite"], swiftSettings: swift),
        // Child processes started with posix_spawn (never Foundation's Process): tests, the local PostgreSQL.
        .target(name: "MosaicSubprocess", swiftSettings: swift),
        // PostgreSQL connections (libpq): bound parameters in binary, prepared statements,
        // multi-row inserts, transactions; results decoded into values. `LocalPostgres`: a server
        // of this machine's PostgreSQL in a folder (the devnet's, the tests').
        .target(name: "MosaicPostgres", dependencies: ["MosaicErrors", "CPQ", "MosaicSubprocess"], swiftSettings: swift),
        // Wire types and their canonical signed bytes: transactions, blocks, markers, node API bodies.
        .target(name: "MosaicProtocol", dependencies: ["MosaicErrors", "MosaicCrypto"], swiftSettings: swift),
        // CPU work spread over every core (`parallelMap`): the coder, the ciphers, batch signature checks.
        .target(name: "MosaicParallel", swiftSettings: swift),
        // The HTTP client: HTTPClient, BulkHTTPConnection (TLS through libssl), headers, methods, the error wire form.
        .target(name: "MosaicHTTP", dependencies: ["MosaicErrors", "CSSL"], swiftSettings: swift),
        // The HTTP server over libmicrohttpd: routes, typed parameters, OpenAPI, streaming bodies.
        .target(name: "MosaicHTTPServer", dependencies: ["MosaicErrors", "CMicroHTTPD", "MosaicHTTP"], swiftSettings: swift),
        // Storage formats both sides use: erasure coding (ISA-L), Merkle trees, segment cipher,
        // file metadata, request signatures, the blobber wire types.
        .target(
            name: "MosaicStorageCore", dependencies: ["MosaicErrors", "CISAL", "MosaicCrypto", "MosaicProtocol", "MosaicParallel"],
            swiftSettings: swift),

        // MARK: The chain: node → ledger → protocol.
        // State, blocks, contracts (faucet, storage, notes, social) and their views, on SQLite or PostgreSQL.
        .target(
            name: "MosaicLedger",
            dependencies: ["MosaicErrors", "MosaicProtocol", "MosaicCrypto", "MosaicDatabase", "MosaicPostgres", "MosaicParallel"],
            swiftSettings: swift
        ),
        // The node: the ledger's HTTP API and explorer.
        .target(
            name: "MosaicNode", dependencies: ["MosaicErrors", "MosaicLedger", "MosaicProtocol", "MosaicHTTP", "MosaicHTTPServer"],
            swiftSettings: swift),

        // MARK: Clients: CLI and app → SDK → protocol/crypto; the SDK carries no server.
        // What an app links: keystore, wallet, ledger, storage, notes, locker and social clients.
        .target(
            name: "MosaicSDK", dependencies: ["MosaicErrors", "MosaicProtocol", "MosaicCrypto", "MosaicHTTP", "MosaicStorageCore"],
            swiftSettings: swift),
        // The blobber beside them: its HTTP server, SQLite metadata, fragment store, challenge
        // prover, and the runtime that registers it and answers challenges through the SDK.
        .target(
            name: "MosaicBlobber",
            dependencies: [
                "MosaicErrors", "MosaicStorageCore", "MosaicSDK", "MosaicCrypto", "MosaicProtocol", "MosaicDatabase", "MosaicHTTP",
                "MosaicHTTPServer",
            ],
            swiftSettings: swift),
        // The web app: its Swift server and the plain HTML/CSS/JS it serves.
        .target(
            name: "MosaicApp",
            dependencies: [
                "MosaicErrors", "MosaicSDK", "MosaicProtocol", "MosaicCrypto", "MosaicStorageCore", "MosaicHTTP", "MosaicHTTPServer",
                "CQREncode",
            ],
            resources: [.copy("Static")], swiftSettings: swift),
        // The command line: wallet, storage, notes, social, and the node, blobber, app and devnet it runs.
        .target(
            name: "MosaicCLI",
            dependencies: [
                "MosaicErrors", "MosaicSDK", "MosaicProtocol", "MosaicCrypto", "MosaicStorageCore", "MosaicLedger", "MosaicNode",
                "MosaicBlobber", "MosaicApp", "MosaicHTTP", "MosaicHTTPServer", "MosaicPostgres",
            ],
            swiftSettings: swift),
        .executableTarget(name: "mosaic", dependencies: ["MosaicCLI"], swiftSettings: swift),

        // MARK: Benchmarks (run in release) and the example app.
        // The benchmarks' load generator: a blocking keep-alive HTTP/1.1 client (bench/support).
        .target(name: "BenchSupport", path: "bench/support", swiftSettings: swift),
        // Storage throughput on loopback blobbers: `swift run -c release bench-storage 256 2+2 4+2`.
        .executableTarget(
            name: "bench-storage",
            dependencies: ["MosaicSDK", "MosaicStorageCore", "MosaicBlobber", "MosaicCrypto", "MosaicHTTP", "MosaicHTTPServer"],
            path: "bench/storage",
            swiftSettings: swift),
        // Ledger throughput: `swift run -c release bench-ledger` (`--db postgres`: SQLite, then PostgreSQL).
        .executableTarget(
            name: "bench-ledger",
            dependencies: [
                "BenchSupport", "MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicHTTP",
                "MosaicHTTPServer", "MosaicTestSupport",
            ],
            path: "bench/ledger", swiftSettings: swift),
        // Producer takeover on PostgreSQL: `swift run -c release bench-failover [rounds] [block-time-ms …]`.
        .executableTarget(
            name: "bench-failover",
            dependencies: ["MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicTestSupport"],
            path: "bench/failover", swiftSettings: swift),
        // Notes views under load, and sealed-write latency: `swift run -c release bench-notes`.
        .executableTarget(
            name: "bench-notes",
            dependencies: [
                "BenchSupport", "MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicHTTPServer",
            ],
            path: "bench/notes", swiftSettings: swift),
        // Social feed reads: `swift run -c release bench-social [posts clients seconds]`.
        .executableTarget(
            name: "bench-social",
            dependencies: ["BenchSupport", "MosaicNode", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicHTTPServer"],
            path: "bench/social",
            swiftSettings: swift),
        // View reads/s with 1, 2 and 3 `mosaic node` processes on one PostgreSQL database (issue 14):
        // `swift build -c release --product mosaic`, then `swift run -c release bench-reads [seconds clients posts] [--cached]`.
        .executableTarget(
            name: "bench-reads",
            dependencies: ["BenchSupport", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicTestSupport"],
            path: "bench/reads", swiftSettings: swift),
        // A third-party app that signs in with Mosaic and votes for its users (examples/social-app/README.md).
        .executableTarget(
            name: "example-social-app", dependencies: ["MosaicSDK", "MosaicHTTP", "MosaicHTTPServer", "MosaicCrypto", "MosaicProtocol"],
            path: "examples/social-app", exclude: ["README.md"], swiftSettings: swift),

        // MARK: Tests, one target per module, and the helpers they share.
        // Deterministic keys, storage fixtures, child processes (posix_spawn), loopback ports, a test PostgreSQL.
        .target(
            name: "MosaicTestSupport",
            dependencies: ["MosaicCrypto", "MosaicProtocol", "MosaicStorageCore", "MosaicLedger", "MosaicPostgres", "MosaicSubprocess"],
            path: "Tests/Support",
            swiftSettings: swift),
        .testTarget(name: "MosaicCryptoTests", dependencies: ["MosaicCrypto"], resources: [.copy("Vectors")], swiftSettings: swift),
        .testTarget(name: "MosaicDatabaseTests", dependencies: ["MosaicDatabase"], swiftSettings: swift),
        // Against a real PostgreSQL started in a temporary folder (Tests/Support/PostgresServer).
        .testTarget(name: "MosaicPostgresTests", dependencies: ["MosaicPostgres", "MosaicTestSupport"], swiftSettings: swift),
        .testTarget(name: "MosaicProtocolTests", dependencies: ["MosaicProtocol", "MosaicCrypto"], swiftSettings: swift),
        // Client and server together: the client is tested against a live server, one serialized suite.
        .testTarget(name: "MosaicHTTPTests", dependencies: ["MosaicHTTP", "MosaicHTTPServer", "MosaicTestSupport"], swiftSettings: swift),
        .testTarget(
            name: "MosaicStorageCoreTests", dependencies: ["MosaicStorageCore", "MosaicCrypto", "MosaicProtocol", "MosaicTestSupport"],
            swiftSettings: swift),
        .testTarget(
            name: "MosaicLedgerTests",
            dependencies: ["MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicDatabase", "MosaicTestSupport"],
            swiftSettings: swift),
        // `mosaic`, `ledger-trap-fixture`, `blobber-fixture` and `example-social-app` are built for the tests that run them as child processes.
        .testTarget(
            name: "MosaicNodeTests",
            dependencies: [
                "MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicHTTP",
                "MosaicTestSupport", "mosaic", "ledger-trap-fixture",
            ], swiftSettings: swift),
        // A node alone in a process with a contract that traps on purpose (the poisoned-transaction test).
        .executableTarget(
            name: "ledger-trap-fixture", dependencies: ["MosaicNode", "MosaicLedger", "MosaicProtocol"], path: "Tests/LedgerTrapFixture",
            swiftSettings: swift),
        .testTarget(name: "MosaicSDKTests", dependencies: ["MosaicSDK", "MosaicProtocol", "MosaicCrypto"], swiftSettings: swift),
        // The blobber alone and with SDK clients on loopback grids; `blobber-fixture` is SIGKILLed mid-write.
        .testTarget(
            name: "MosaicBlobberTests",
            dependencies: [
                "MosaicBlobber", "MosaicStorageCore", "MosaicSDK", "MosaicLedger", "MosaicProtocol", "MosaicCrypto",
                "MosaicHTTP", "MosaicHTTPServer", "MosaicTestSupport", "blobber-fixture",
            ], swiftSettings: swift),
        // A blobber alone in a process, so MosaicBlobberTests can SIGKILL it mid-write.
        .executableTarget(
            name: "blobber-fixture", dependencies: ["MosaicBlobber", "MosaicStorageCore"], path: "Tests/BlobberFixture",
            swiftSettings: swift),
        .testTarget(
            name: "MosaicAppTests",
            dependencies: [
                "MosaicApp", "MosaicSDK", "MosaicProtocol", "MosaicStorageCore", "MosaicCrypto", "MosaicHTTP", "MosaicHTTPServer",
                "MosaicTestSupport", "mosaic", "example-social-app",
            ], swiftSettings: swift),
        .testTarget(
            name: "MosaicCLITests",
            dependencies: [
                "MosaicCLI", "MosaicSDK", "MosaicHTTP", "MosaicProtocol", "MosaicCrypto", "MosaicDatabase", "MosaicStorageCore",
                "MosaicTestSupport",
                "mosaic",
            ],
            swiftSettings: swift),
    ],
    swiftLanguageModes: [.v6]
)
