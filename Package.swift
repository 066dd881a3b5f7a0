// swift-tools-version:6.0
import PackageDescription

/// One module per concept; C libraries from Debian stay behind `C<Name>` system-library shims.
/// Dependencies point one way: CLI and app → SDK → protocol/crypto; node → ledger → protocol.
let package = Package(
    name: "Mosaic",
    products: [
        .executable(name: "mosaic", targets: ["mosaic"]),
        .library(name: "MosaicSDK", targets: ["MosaicSDK"]),
    ],
    targets: [
        // C libraries from Debian's packages, each a module map and one shim header.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),

        // Swift modules.
        .target(name: "MosaicCrypto", dependencies: ["CSodium", "CCrypto"]),
        .target(name: "MosaicDatabase", dependencies: ["CSQLite"]),
        .target(name: "MosaicProtocol", dependencies: ["MosaicCrypto"]),
        // CPU work spread over every core (`parallelMap`), for the coder, ciphers and signature checks.
        .target(name: "MosaicParallel"),
        .target(name: "MosaicHTTP", dependencies: ["CMicroHTTPD"]),
        .target(name: "MosaicLedger", dependencies: ["MosaicProtocol", "MosaicCrypto", "MosaicDatabase", "MosaicParallel"]),
        .target(name: "MosaicNode", dependencies: ["MosaicLedger", "MosaicProtocol", "MosaicHTTP"]),
        .target(name: "MosaicStorage", dependencies: ["CISAL", "MosaicCrypto", "MosaicProtocol", "MosaicDatabase", "MosaicHTTP", "MosaicParallel"]),
        .target(name: "MosaicSDK", dependencies: ["MosaicProtocol", "MosaicCrypto", "MosaicHTTP", "MosaicStorage"]),
        .target(name: "MosaicApp", dependencies: ["MosaicSDK", "MosaicHTTP", "MosaicCrypto", "CQREncode"],
                resources: [.copy("Static")]),
        .target(name: "MosaicCLI", dependencies: ["MosaicSDK", "MosaicNode", "MosaicStorage", "MosaicApp"]),
        .executableTarget(name: "mosaic", dependencies: ["MosaicCLI"]),
        // Ledger throughput benchmark (run in release): `swift run -c release bench-ledger`.
        // Storage throughput on loopback blobbers (run in release): `swift run -c release bench-storage 256 2+2 4+2`.
        // The benchmarks' load generator: a blocking keep-alive HTTP/1.1 client (bench/support).
        .target(name: "BenchSupport", path: "bench/support"),
        .executableTarget(name: "bench-storage", dependencies: ["MosaicSDK", "MosaicStorage", "MosaicCrypto"], path: "bench/storage"),
        .executableTarget(name: "bench-ledger", dependencies: ["BenchSupport", "MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicCrypto"], path: "bench/ledger"),
        // Notes views under load, and sealed-write latency (release): `swift run -c release bench-notes`.
        .executableTarget(name: "bench-notes", dependencies: ["BenchSupport", "MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicCrypto"], path: "bench/notes"),
        // A third-party app that signs in with Mosaic and votes for its users (examples/social-app/README.md).
        .executableTarget(name: "example-social-app", dependencies: ["MosaicSDK", "MosaicHTTP", "MosaicCrypto", "MosaicProtocol"], path: "examples/social-app",
                          exclude: ["README.md"]),
        // Social feed reads (run in release): `swift run -c release bench-social [posts clients seconds]`.
        .executableTarget(name: "bench-social", dependencies: ["BenchSupport", "MosaicNode", "MosaicLedger", "MosaicProtocol", "MosaicCrypto"], path: "bench/social"),

        // Tests, one target per module.
        .target(name: "MosaicTestSupport", path: "Tests/Support"),
        .testTarget(name: "MosaicCLITests", dependencies: ["MosaicCLI", "mosaic", "MosaicTestSupport", "MosaicDatabase"]),
        .testTarget(name: "MosaicCryptoTests", dependencies: ["MosaicCrypto"], resources: [.copy("Vectors")]),
        .testTarget(name: "MosaicSDKTests", dependencies: ["MosaicSDK", "MosaicCrypto"]),
        .testTarget(name: "MosaicStorageTests", dependencies: ["MosaicStorage", "MosaicCrypto", "MosaicSDK", "MosaicHTTP", "MosaicProtocol", "MosaicLedger", "blobber-fixture", "MosaicTestSupport"]),
        // A blobber alone in a process, so MosaicStorageTests can SIGKILL it mid-write.
        .executableTarget(name: "blobber-fixture", dependencies: ["MosaicStorage"], path: "Tests/BlobberFixture"),
        .testTarget(name: "MosaicLedgerTests", dependencies: ["MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicDatabase", "MosaicTestSupport"]),
        .testTarget(name: "MosaicAppTests", dependencies: ["MosaicApp", "example-social-app", "mosaic", "MosaicTestSupport"]),
        .testTarget(name: "MosaicHTTPTests", dependencies: ["MosaicHTTP"]),
        .testTarget(name: "MosaicNodeTests", dependencies: ["MosaicNode", "MosaicSDK", "MosaicLedger", "MosaicProtocol", "MosaicCrypto", "MosaicHTTP", "mosaic", "MosaicTestSupport", "ledger-trap-fixture"]),
        // A node alone in a process with a contract that traps on purpose (the poisoned-transaction test).
        .executableTarget(name: "ledger-trap-fixture", dependencies: ["MosaicNode", "MosaicLedger", "MosaicProtocol"], path: "Tests/LedgerTrapFixture"),
    ],
    swiftLanguageModes: [.v6]
)
