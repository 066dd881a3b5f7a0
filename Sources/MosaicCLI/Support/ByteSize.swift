import MosaicSDK

/// Sizes typed on the command line: "1024", "64KiB", "10MiB", "1GiB", "2TiB" (also KB/MB/GB as
/// powers of 1000, and K/M/G/T as binary). Integers only.
enum ByteSize {
    static func bytes(_ text: String) -> UInt64? { Quantity.bytes(text) }

    static func parse(_ text: String, flag: String) throws -> UInt64 {
        guard let v = bytes(text) else { throw CLIError.usage("--\(flag) \(text): give a size such as 1048576, 64KiB, 10MiB or 1GiB") }
        return v
    }

    /// "1.5 GiB"-style text for people (integer arithmetic, one decimal).
    static func format(_ n: UInt64) -> String { Quantity.formatBytes(n) }
}
