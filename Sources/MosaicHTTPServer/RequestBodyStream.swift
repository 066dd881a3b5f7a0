import Foundation
import MosaicHTTP
import Synchronization

/// The body of a streaming route, delivered in chunks as they arrive from the socket.
/// At most about `highWater` bytes are buffered: beyond that the connection is paused until the
/// handler catches up, so a 1 GiB upload never sits in memory. Iteration throws
/// `HTTPError.bodyTruncated` if the client stops before the declared length.
///
/// Pieces smaller than `coalesce` bytes are gathered into one chunk of at least that size before
/// the handler sees them (the last chunk of a body may be smaller). Over TLS the server receives a
/// body one record at a time, 16 KiB at most, where plain TCP hands over whatever the socket holds:
/// without gathering, each record cost the handler a wake-up, a buffer and a file write of its own.
package final class RequestBodyStream: AsyncSequence, Sendable {
    public typealias Element = Data

    /// The declared Content-Length, nil for chunked uploads.
    public let expectedLength: Int64?

    private struct State {
        var chunks: [Data] = []
        /// Pieces gathered until they reach `coalesce` bytes (counted in `buffered` too).
        var gathering = Data()
        var buffered = 0
        var received: Int64 = 0
        var finished = false
        var failure: HTTPError?
        var waiter: CheckedContinuation<Data?, Error>?
        var paused = false
        var abandoned = false
    }

    private let state = Mutex(State())
    private let highWater: Int
    private let coalesce: Int
    private let limit: Int64?
    private let pause: @Sendable () -> Void
    private let unpause: @Sendable () -> Void

    init(
        expectedLength: Int64?, limit: Int64?, highWater: Int = 1 << 20, coalesce: Int = 64 * 1024,
        pause: @escaping @Sendable () -> Void, unpause: @escaping @Sendable () -> Void
    ) {
        self.expectedLength = expectedLength
        self.limit = limit
        self.highWater = highWater
        // Never more than half the high-water mark: gathered bytes count against it.
        self.coalesce = Swift.max(1, Swift.min(coalesce, highWater / 2))
        self.pause = pause
        self.unpause = unpause
    }

    /// Bytes received from the socket so far.
    public var receivedBytes: Int64 { state.withLock { $0.received } }

    // MARK: producer side (server thread)

    /// Called from the connection's MHD thread with the bytes it just received (copied before it
    /// returns); pausing happens under the lock so that a concurrent drain can only resume after
    /// the suspend.
    func push(_ bytes: UnsafeRawBufferPointer) {
        let wake = state.withLock { s -> Bool in
            guard !s.abandoned, !s.finished, let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            s.received += Int64(bytes.count)
            if let limit, s.received > limit { return fail(&s, .payloadTooLarge(limit: limit)) }
            s.buffered += bytes.count
            if s.gathering.isEmpty, bytes.count >= coalesce {
                deliver(&s, Data(bytes: base, count: bytes.count))
            } else {
                if s.gathering.isEmpty { s.gathering.reserveCapacity(2 * coalesce) }
                s.gathering.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
                if s.gathering.count >= coalesce {
                    let gathered = s.gathering
                    s.gathering = Data()
                    deliver(&s, gathered)
                }
            }
            if s.buffered >= highWater, !s.paused {
                s.paused = true
                pause()
            }
            return false
        }
        if wake { unpause() }
    }

    /// `push` of a `Data` (tests, callers that already hold one).
    func push(_ data: Data) {
        data.withUnsafeBytes { push($0) }
    }

    /// Hands a chunk to the waiting handler, or queues it (`buffered` already counts it).
    private func deliver(_ s: inout State, _ chunk: Data) {
        if let w = s.waiter {
            s.waiter = nil
            s.buffered -= chunk.count
            w.resume(returning: chunk)
        } else {
            s.chunks.append(chunk)
        }
    }

    /// The body ended cleanly as far as the parser knows; checks the declared length, then hands
    /// over what was still being gathered.
    func finish() {
        let wake = state.withLock { s -> Bool in
            guard !s.finished else { return false }
            if let expectedLength, s.received != expectedLength { return fail(&s, .bodyTruncated) }
            if !s.gathering.isEmpty {
                let gathered = s.gathering
                s.gathering = Data()
                deliver(&s, gathered)
            }
            s.finished = true
            if let w = s.waiter {
                s.waiter = nil
                w.resume(returning: nil)
            }
            return false
        }
        if wake { unpause() }
    }

    /// The connection ended early (client gone, timeout) or the server is stopping.
    func fail(_ error: HTTPError) {
        if state.withLock({ s in fail(&s, error) }) { unpause() }
    }

    /// Returns whether the connection must be resumed (after the lock is released).
    private func fail(_ s: inout State, _ error: HTTPError) -> Bool {
        guard !s.finished else { return false }
        s.finished = true
        s.failure = error
        s.chunks = []
        s.gathering = Data()
        s.buffered = 0
        if let w = s.waiter {
            s.waiter = nil
            w.resume(throwing: error)
        }
        defer { s.paused = false }
        return s.paused
    }

    /// The handler returned: drop what is buffered and what still arrives, and let the socket flow.
    func abandon() {
        let wake = state.withLock { s -> Bool in
            s.abandoned = true
            s.chunks = []
            s.gathering = Data()
            s.buffered = 0
            defer { s.paused = false }
            return s.paused
        }
        if wake { unpause() }
    }

    // MARK: consumer side

    /// The next chunk, or nil at the end of the body.
    public func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { (cont: CheckedContinuation<Data?, Error>) in
            let wake = state.withLock { s -> Bool in
                if !s.chunks.isEmpty {
                    let d = s.chunks.removeFirst()
                    s.buffered -= d.count
                    cont.resume(returning: d)
                    guard s.paused, s.buffered <= highWater / 2 else { return false }
                    s.paused = false
                    return true
                } else if let f = s.failure {
                    cont.resume(throwing: f)
                } else if s.finished {
                    cont.resume(returning: nil)
                } else {
                    s.waiter = cont
                    defer { s.paused = false }
                    return s.paused
                }
                return false
            }
            if wake { unpause() }
        }
    }

    /// Reads the whole body into memory (for small bodies only), failing beyond `maxBytes`.
    public func collect(maxBytes: Int) async throws -> Data {
        var out = Data()
        for try await chunk in self {
            if out.count + chunk.count > maxBytes { throw HTTPError.payloadTooLarge(limit: Int64(maxBytes)) }
            out.append(chunk)
        }
        return out
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: RequestBodyStream
        public mutating func next() async throws -> Data? { try await stream.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }
}
