import Foundation

/// Parses a single `bytes=` range (multi-range requests are not served).
enum ByteRange {
    /// Returns the inclusive byte range or nil when it cannot be satisfied.
    static func parse(_ header: String, size: Int64) -> (Int64, Int64)? {
        let h = header.trimmingCharacters(in: .whitespaces)
        guard h.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = h.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let a = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let b = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if a.isEmpty {
            guard let n = Int64(b), n > 0 else { return nil }
            return (max(0, size - n), size - 1)
        }
        guard let start = Int64(a), start >= 0, start < size else { return nil }
        if b.isEmpty { return (start, size - 1) }
        guard let end = Int64(b), end >= start else { return nil }
        return (start, min(end, size - 1))
    }
}
