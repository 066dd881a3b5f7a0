import CSodium

/// Bytes that must not outlive their use or leak into logs: zeroed when released,
/// compared in constant time, and redacted in every description.
public final class SecretBytes: @unchecked Sendable {
    // Immutable after init; the storage is only read (and finally zeroed in deinit).
    private let storage: UnsafeMutableRawBufferPointer

    public init(_ bytes: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        bytes.withUnsafeBytes { src in
            if let base = src.baseAddress, bytes.count > 0 {
                buffer.baseAddress!.copyMemory(from: base, byteCount: bytes.count)
            }
        }
        storage = buffer
        count = bytes.count
    }

    /// Number of secret bytes.
    public let count: Int

    /// Runs `body` with read access to the secret; do not let the pointer escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count]))
    }

    /// A copy of the secret as an array, for handing to code that needs one; the caller owns its lifetime.
    public func copyBytes() -> [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    deinit {
        sodium_memzero(storage.baseAddress!, storage.count)
        storage.deallocate()
    }
}

extension SecretBytes: Equatable {
    /// Constant-time comparison (the time depends on the length only).
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.count == 0 { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                sodium_memcmp(a.baseAddress!, b.baseAddress!, lhs.count) == 0
            }
        }
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "<redacted \(count) bytes>" }
    public var debugDescription: String { description }
}

extension SecretBytes {
    /// Zeroes a temporary array that held secret material (sodium_memzero is not optimised away).
    static func wipe(_ bytes: inout [UInt8]) {
        let n = bytes.count
        if n > 0 { bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, n) } }
    }
}
