import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a quiet server on an ephemeral loopback port, runs `body`, and always stops it.
func withServer(_ configure: (HTTPServer) -> Void, _ body: (HTTPServer, HTTPClient) async throws -> Void) async throws {
    var cfg = HTTPServer.Configuration()
    cfg.logger = nil
    let server = HTTPServer(configuration: cfg)
    configure(server)
    try server.start()
    let client = HTTPClient(baseURL: server.baseURL)
    do {
        try await body(server, client)
    } catch {
        await server.stop(grace: .seconds(1))
        throw error
    }
    await server.stop(grace: .seconds(1))
}

/// 64-bit FNV-1a, enough to check that streamed bytes arrive intact and in order.
struct Checksum {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func update(_ d: Data) {
        d.withUnsafeBytes { raw in
            var h = value
            for b in raw.bindMemory(to: UInt8.self) {
                h = (h ^ UInt64(b)) &* 0x100_0000_01b3
            }
            value = h
        }
    }
}

/// Deterministic pseudo-random bytes, generated piece by piece.
func pattern(offset: Int64, count: Int) -> Data {
    var d = Data(count: count)
    d.withUnsafeMutableBytes { raw in
        let p = raw.bindMemory(to: UInt8.self)
        for i in 0..<count {
            let x = UInt64(offset) &+ UInt64(i)
            p[i] = UInt8(truncatingIfNeeded: (x &* 2_654_435_761) >> 7)
        }
    }
    return d
}

/// Collects values from concurrent handlers.
final class Box<T: Sendable>: Sendable {
    private let m: Mutex<T>
    init(_ v: T) { m = Mutex(v) }
    var value: T { m.withLock { $0 } }
    func set(_ v: T) { m.withLock { $0 = v } }
    func mutate(_ f: (inout T) -> Void) { m.withLock { f(&$0) } }
}

/// Parent of all suites: serialized, so the memory measurement of one test is not skewed by another.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MosaicHTTPTests {}
