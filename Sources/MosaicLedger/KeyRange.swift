import MosaicProtocol

/// One key and its value in a contract's store.
package struct ContractEntry: Sendable, Equatable {
    public let key: String
    public let value: [UInt8]

    public init(key: String, value: [UInt8]) {
        self.key = key
        self.value = value
    }
}

/// An ordered scan of a contract's keys: those starting with `prefix`, strictly after `after`
/// (strictly before it when `reverse`), at most `limit`, in byte order of their UTF-8.
///
/// Keys are compared as SQLite compares TEXT (memcmp of UTF-8), and Swift's `String` `<` is not
/// that order for every string, so every comparison here goes through the UTF-8 bytes.
package struct KeyRange {
    let prefix: String
    let after: String?
    let limit: Int
    let reverse: Bool

    /// Exclusive upper bound of the prefix range (no key may contain U+10FFFF).
    var upperBound: String { prefix + "\u{10FFFF}" }

    func contains(_ key: String) -> Bool {
        guard key.utf8.starts(with: prefix.utf8) else { return false }
        guard let after else { return true }
        return reverse ? KeyRange.less(key, after) : KeyRange.less(after, key)
    }

    static func less(_ a: String, _ b: String) -> Bool { UTF8Order.less(a, b) }

    /// The one lower and one upper bound a store seeks between: the tighter of `prefix` and
    /// `after` on the side `after` limits. Given `key >= prefix AND key > after`, SQLite seeks to
    /// the prefix and filters every row up to `after`, so a page deep in a large range cost a
    /// walk over all rows before it; with one bound a side both stores seek straight to the page.
    var seekBounds: (low: String, lowInclusive: Bool, high: String) {
        var low = prefix
        var lowInclusive = true
        var high = upperBound
        if let after {
            if reverse {
                if KeyRange.less(after, high) { high = after }
            } else if !KeyRange.less(after, low) {
                low = after
                lowInclusive = false
            }
        }
        return (low, lowInclusive, high)
    }

    /// Applies `overlay` (newer writes; nil deletes) on top of `base`, the first rows of the range
    /// in committed state fetched with `limit + overlay.count` rows so no hidden row can be missed.
    func merge(base: [ContractEntry], overlay: [String: [UInt8]?]) -> [ContractEntry] {
        var rows: [ContractEntry] = base.filter { overlay[$0.key] == nil }
        for (key, value) in overlay {
            if let value, contains(key) { rows.append(ContractEntry(key: key, value: value)) }
        }
        rows.sort { reverse ? KeyRange.less($1.key, $0.key) : KeyRange.less($0.key, $1.key) }
        return Array(rows.prefix(limit))
    }
}
