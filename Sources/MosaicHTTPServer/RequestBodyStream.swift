import Foundation
import MosaicHTTP
import Synchronization

/// The body of a streaming route, delivered in chunks as they arrive from the socket.
/// At most about `highWater` bytes are buffered: beyond that the connection is paused until the
/// handler catches up, so a 1 GiB upload never sits in memory. Iteration throws
/// `HTTPError.bodyTruncated` if the client stops before the declared length.
package final class RequestBodyStream: AsyncSequence, Sendable {
    public typealias Element = Data

    /// The declared Content-Length, nil for chunked uploads.
    public let expectedLength: Int64?

    private struct State {
        var chunks: [Data] = []
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
    private let limit: Int64?
    private let pause: @Sendable () -> Void
    private let unpause: @Sendable () -> Void

    init(
        expectedLength: Int64?, limit: Int64?, highWater: Int = 1 << 20,
        pause: @escaping @Sendable () -> Void, unpause: @escaping @Sendable () -> Void
    ) {
        self.expectedLength = expectedLength
        self.limit = limit
        self.highWater = highWater
        self.pause = pause
        self.unpause = unpause
    }

    /// Bytes received from the socket so far.
    public var receivedBytes: Int64 { state.withLock { $0.received } }

    // MARK: producer side (server thread)

    /// Called from the connection's MHD thread; pausing happens under the lock so that a
    /// concurrent drain can only resume after the suspend.
    func push(_ data: Data) {
        let wake = state.withLock { s -> Bool in
            guard !s.abandoned, !s.finished else { return false }
            s.received += Int64(data.count)
            if let limit, s.received > limit { return fail(&s, .payloadTooLarge(limit: limit)) }
            if let w = s.waiter {
                s.waiter = nil
                w.resume(returning: data)
                return false
            }
            s.chunks.append(data)
            s.buffered += data.count
            if s.buffered >= highWater, !s.paused {
                s.paused = true
                pause()
            }
            return false
        }
        if wake { unpause() }
    }

    /// The body ended cleanly as far as the parser knows; checks the declared length.
    func finish() {
        let wake = state.withLock { s -> Bool in
            guard !s.finished else { return false }
            if let expectedLength, s.received != expectedLength { return fail(&s, .bodyTruncated) }
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
