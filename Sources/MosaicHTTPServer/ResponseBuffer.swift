import MosaicHTTP

/// Memory a handler fills once and the server hands to libmicrohttpd as it is, with no copy on the
/// way out. A `Data` body is copied into MHD's own buffer; for a blobber's block batches (about
/// 1 MiB per request, built from disk reads) that copy, and the one into `Data` before it, were a
/// tenth of the blobber's CPU in a download.
package final class ResponseBuffer: @unchecked Sendable {
    // @unchecked: only the handler that made it writes it, before it returns the response;
    // afterwards it is read only (by MHD), and freed when MHD lets go of the response.
    let base: UnsafeMutableRawPointer
    package let count: Int
    private let capacity: Int

    /// `count` bytes, not zeroed: the handler writes every one of them. From `BufferPool`, where
    /// it goes back once MHD has sent it. A server out of memory answers 503 (try again later).
    package init(count: Int) throws(HTTPError) {
        guard count >= 0, let (p, capacity) = BufferPool.shared.take(count) else {
            throw .unavailable("the server has no memory for a \(count)-byte answer now; try again shortly")
        }
        self.count = count
        base = p
        self.capacity = capacity
    }

    package func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    deinit { BufferPool.shared.give(base, capacity: capacity) }
}
