import Foundation

/// Makes a request path safe to put on the wire whatever it contains (an id taken from a request
/// body, a user's file name): characters a URL path may not hold are percent-encoded, existing
/// `%XX` escapes are kept, and a `%` that starts no escape becomes `%25`. Foundation traps when a
/// percent-encoded path holds invalid characters, and a raw request line must never carry a
/// space or a line break.
enum URLPath {
    /// A request target: the path encoded, then the query (if any) encoded the same way with `?` kept.
    static func target(_ pathAndQuery: String) -> String {
        guard let q = pathAndQuery.firstIndex(of: "?") else { return encode(pathAndQuery) }
        return encode(String(pathAndQuery[..<q])) + "?" + encode(String(pathAndQuery[pathAndQuery.index(after: q)...]), query: true)
    }

    static func encode(_ path: String, query: Bool = false) -> String {
        let bytes = Array(path.utf8)
        var out = ""
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) {
                out.unicodeScalars.append(UnicodeScalar(b))
            } else if allowed(b) || (query && b == UInt8(ascii: "?")) {
                out.unicodeScalars.append(UnicodeScalar(b))
            } else {
                out += String(format: "%%%02X", b)
            }
            i += 1
        }
        return out
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:` and `@`.
    private static func allowed(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: return true
        default: return "-._~!$&'()*+,;=:@/".utf8.contains(b)
        }
    }
}
