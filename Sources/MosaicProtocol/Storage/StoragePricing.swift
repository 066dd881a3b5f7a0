/// Price arithmetic shared by the contract and clients (so `alloc new` can say how much to lock).
/// Integer only, rounding up in the blobber's favour, nil on overflow.
///
/// - write: `ceil(ceil(write_price × bytes / 2^30) × seconds / 2_592_000)`: `write_price` is base
///   units per GiB per 30 days.
/// - read: `ceil(read_price × blocks × 65536 / 2^30)`: `read_price` is base units per GiB read.
public enum StoragePricing {
    public static let gib: UInt64 = 1 << 30
    public static let periodSeconds: UInt64 = 2_592_000

    /// Bytes each blobber holds for an allocation of `size` user bytes over `dataShards`.
    public static func blobberSize(size: UInt64, dataShards: Int) -> UInt64 {
        guard dataShards > 0 else { return size }
        let d = UInt64(dataShards)
        return size / d + (size % d == 0 ? 0 : 1)
    }

    public static func writeCost(price: UInt64, bytes: UInt64, seconds: UInt64) -> UInt64? {
        guard let perPeriod = mulDivCeil(price, bytes, gib) else { return nil }
        return mulDivCeil(perPeriod, seconds, periodSeconds)
    }

    public static func readCost(price: UInt64, blocks: UInt64) -> UInt64? {
        mulDivCeil(price, blocks, gib / UInt64(MerkleRules.blockSize))
    }

    /// What a new allocation must lock: the sum over its blobbers' write prices.
    public static func allocationCost(writePrices: [UInt64], size: UInt64, dataShards: Int, seconds: UInt64) -> UInt64? {
        let per = blobberSize(size: size, dataShards: dataShards)
        var total: UInt64 = 0
        for p in writePrices {
            guard let c = writeCost(price: p, bytes: per, seconds: seconds) else { return nil }
            let (s, o) = total.addingReportingOverflow(c)
            if o { return nil }
            total = s
        }
        return total
    }

    /// ⌈a × b / c⌉ without intermediate overflow; nil if the result exceeds UInt64 or c is 0.
    public static func mulDivCeil(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64? {
        guard c > 0 else { return nil }
        let wide = a.multipliedFullWidth(by: b)
        guard wide.high < c else { return nil }
        let (q, r) = c.dividingFullWidth(wide)
        if r == 0 { return q }
        let (s, o) = q.addingReportingOverflow(1)
        return o ? nil : s
    }

    /// ⌊a × b / c⌋ without intermediate overflow; nil if the result exceeds UInt64 or c is 0.
    public static func mulDivFloor(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64? {
        guard c > 0 else { return nil }
        let wide = a.multipliedFullWidth(by: b)
        guard wide.high < c else { return nil }
        return c.dividingFullWidth(wide).quotient
    }
}
