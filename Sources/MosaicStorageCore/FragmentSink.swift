import Foundation

/// Where one fragment stream goes during an upload: in production an HTTP stream to blobber i,
/// in tests an array or a `FragmentStore` writer.
///
/// Writes come in order with their stream offset, so a sink resuming an interrupted upload can
/// skip ranges it already holds. `finish` hands over the length and Merkle root the blobber must
/// verify before anything becomes visible. A sink that throws is dropped for the rest of the file
/// (the upload goes on while enough others succeed).
package protocol FragmentSink: Sendable {
    func write(_ bytes: [UInt8], at offset: Int64) async throws
    /// The encoder's form: a read-only view into its batch buffer, so a sink that can send from
    /// memory (a socket, a file) needs no copy. The default copies into an array for `write(_:at:)`.
    func write(fragment bytes: FragmentBytes, at offset: Int64) async throws
    func finish(length: Int64, root: [UInt8]) async throws
    /// Told before the first write when the encoder knows the stream's whole length (a file of a
    /// known size), so a sink may send many writes as one request. Never called otherwise.
    func expect(length: Int64)
}

extension FragmentSink {
    public func expect(length: Int64) {}

    public func write(fragment bytes: FragmentBytes, at offset: Int64) async throws {
        try await write(bytes.array, at: offset)
    }
}

/// Read-only bytes of one fragment stream inside an encoder batch buffer.
///
/// `@unchecked Sendable`: the encoder finishes writing the buffer before it hands out any
/// `FragmentBytes`, and reuses a buffer only once no `FragmentBytes` refers to it any more.
package struct FragmentBytes: @unchecked Sendable, ContiguousBytes {
    let storage: ByteBuffer
    let offset: Int
    public let count: Int

    init(storage: ByteBuffer, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= storage.count, "FragmentBytes out of its buffer")
        self.storage = storage
        self.offset = offset
        self.count = count
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(storage.bytes(from: offset, count: count))
    }

    /// A copy as an array (for sinks that keep the bytes).
    public var array: [UInt8] { storage.array(from: offset, count: count) }

    /// The first `n` bytes.
    public func prefix(_ n: Int) -> FragmentBytes {
        FragmentBytes(storage: storage, offset: offset, count: min(max(0, n), count))
    }

    /// The bytes after the first `n` (a sink skipping what its blobber already holds).
    public func dropFirst(_ n: Int) -> FragmentBytes {
        let k = min(max(0, n), count)
        return FragmentBytes(storage: storage, offset: offset + k, count: count - k)
    }
}
