/// Memory a handler fills once and the server hands to libmicrohttpd as it is, with no copy on the
/// way out. A `Data` body is copied into MHD's own buffer; for a blobber's block batches (about
/// 1 MiB per request, built from disk reads) that copy, and the one into `Data` before it, were a
/// tenth of the blobber's CPU in a download.
package final class ResponseBuffer: @unchecked Sendable {
    // @unchecked: only the handler that made it writes it, before it returns the response;
    // afterwards it is read only (by MHD), and freed when MHD lets go of the response.
    let base: UnsafeMutableRawPointer
    package let count: Int

    /// `count` bytes, not zeroed: the handler writes every one of them.
    package init(count: Int) {
        precondition(count >= 0, "a response buffer cannot have a negative size")
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
    }

    package func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    deinit { base.deallocate() }
}
