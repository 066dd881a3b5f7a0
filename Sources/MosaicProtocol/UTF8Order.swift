import Foundation

/// The order of strings by their UTF-8 bytes: what SQLite uses for TEXT keys and what the storage
/// allocation tree sorts paths by. Swift's `String <` is not that order for every string, so every
/// place that must agree with those orders compares through here.
public enum UTF8Order {
    public static func less(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = min(pa.count, pb.count)
                if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                    let c = memcmp(x, y, n)
                    if c != 0 { return c < 0 }
                }
                return pa.count < pb.count
            }
        }
    }
}
