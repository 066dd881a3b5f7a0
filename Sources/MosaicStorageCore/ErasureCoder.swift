import CISAL
import Synchronization

/// Systematic Reed–Solomon over GF(2^8) with ISA-L, using a Cauchy matrix so that any `dataShards`
/// of the `dataShards + parityShards` fragments rebuild the data.
///
/// Fragment `i < d` is data slice `i` unchanged (systematic); fragment `d + j` is parity row `j` of
/// ISA-L's `gf_gen_cauchy1_matrix(d + p, d)`. Decode tables are cached per erasure pattern
/// because a download usually keeps the same d sources for a whole file.
package final class ErasureCoder: Sendable {
    public static let maxTotalShards = 64

    /// True for d ≥ 1, p ≥ 0 and d + p ≤ `maxTotalShards`, checked without computing a sum that
    /// could overflow (shard counts come from outside: metadata, assignments, listings).
    public static func isValid(dataShards d: Int, parityShards p: Int) -> Bool {
        d >= 1 && p >= 0 && d <= maxTotalShards && p <= maxTotalShards - d
    }

    public let dataShards: Int
    public let parityShards: Int
    public var totalShards: Int { dataShards + parityShards }

    /// (d + p) × d coding matrix, row-major; the top d rows are the identity.
    private let matrix: [UInt8]
    private let encodeTables: [UInt8]
    private let decodePlans = Mutex<[UInt64: DecodePlan]>([:])

    /// How to rebuild the missing data fragments from one particular set of d sources.
    struct DecodePlan: Sendable {
        let sources: [Int]
        let missing: [Int]
        let tables: [UInt8]
    }

    public init(dataShards: Int, parityShards: Int) throws {
        guard Self.isValid(dataShards: dataShards, parityShards: parityShards) else {
            throw StorageError.invalidShardCounts(data: dataShards, parity: parityShards)
        }
        self.dataShards = dataShards
        self.parityShards = parityShards
        let total = dataShards + parityShards
        var m = [UInt8](repeating: 0, count: total * dataShards)
        gf_gen_cauchy1_matrix(&m, Int32(total), Int32(dataShards))
        matrix = m
        var tables = [UInt8](repeating: 0, count: max(1, 32 * dataShards * parityShards))
        if parityShards > 0 {
            var parityRows = Array(m[(dataShards * dataShards)...])
            ec_init_tables(Int32(dataShards), Int32(parityShards), &parityRows, &tables)
        }
        encodeTables = tables
    }

    // MARK: Public, allocation-based API

    /// Splits `data` (exactly d × fragmentSize bytes) into d + p fragments.
    public func encode(_ data: [UInt8], fragmentSize: Int) throws -> [[UInt8]] {
        guard fragmentSize > 0 else { throw StorageError.invalidFragmentSize(fragmentSize) }
        guard data.count == dataShards * fragmentSize else {
            throw StorageError.fragmentLengthMismatch(index: -1, expected: dataShards * fragmentSize, got: data.count)
        }
        // Not zeroed: the data part is copied over and ISA-L writes every parity byte.
        let buffer = ByteBuffer(count: totalShards * fragmentSize, zeroed: false)
        data.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer.raw[..<data.count]).copyMemory(from: $0) }
        encode(buffer: buffer.base, fragmentSize: fragmentSize, stride: fragmentSize)
        return (0..<totalShards).map { buffer.array(from: $0 * fragmentSize, count: fragmentSize) }
    }

    /// Computes the parity fragments in place in caller-owned memory: fragment i is
    /// `buffer[i · stride ..< i · stride + fragmentSize]`, data fragments filled in. This is the
    /// form `FileEncoder` uses (no allocation, no copy), public so a benchmark can measure ISA-L
    /// itself rather than the array plumbing of `encode(_:fragmentSize:)`.
    public func encodeParity(in buffer: UnsafeMutableRawBufferPointer, fragmentSize: Int, stride: Int) throws {
        guard fragmentSize > 0 else { throw StorageError.invalidFragmentSize(fragmentSize) }
        let needed = (totalShards - 1) * stride + fragmentSize
        guard stride >= fragmentSize, buffer.count >= needed, let base = buffer.baseAddress else {
            throw StorageError.fragmentLengthMismatch(index: -1, expected: needed, got: buffer.count)
        }
        encode(buffer: base.assumingMemoryBound(to: UInt8.self), fragmentSize: fragmentSize, stride: stride)
    }

    /// Rebuilds the d data slices (d × fragmentSize bytes) from any d of the fragments, keyed by index.
    public func decode(_ fragments: [Int: [UInt8]], fragmentSize: Int) throws -> [UInt8] {
        let all = try reconstruct(fragments, fragmentSize: fragmentSize)
        return Array(all[0..<dataShards].joined())
    }

    /// Rebuilds all d + p fragments (what repair sends to a replaced blobber) from any d of them.
    public func reconstruct(_ fragments: [Int: [UInt8]], fragmentSize: Int) throws -> [[UInt8]] {
        guard fragmentSize > 0 else { throw StorageError.invalidFragmentSize(fragmentSize) }
        for (i, f) in fragments {
            guard i >= 0, i < totalShards else { throw StorageError.invalidFragmentIndex(i) }
            guard f.count == fragmentSize else {
                throw StorageError.fragmentLengthMismatch(index: i, expected: fragmentSize, got: f.count)
            }
        }
        let available = fragments.keys.sorted()
        guard available.count >= dataShards else {
            throw StorageError.notEnoughFragments(needed: dataShards, available: available.count)
        }
        let buffer = ByteBuffer(count: totalShards * fragmentSize)
        for (i, f) in fragments {
            f.withUnsafeBytes { src in
                UnsafeMutableRawBufferPointer(rebasing: buffer.raw[(i * fragmentSize)..<((i + 1) * fragmentSize)]).copyMemory(from: src)
            }
        }
        try reconstructData(
            buffer: buffer.base, stride: fragmentSize, fragmentSize: fragmentSize,
            available: Array(available.prefix(dataShards)))
        encode(buffer: buffer.base, fragmentSize: fragmentSize, stride: fragmentSize)
        return (0..<totalShards).map { buffer.array(from: $0 * fragmentSize, count: fragmentSize) }
    }

    // MARK: Internal, in-place API over one contiguous buffer

    /// Computes the parity fragments in place. Fragment `i` lives at `base + i * stride`, `fragmentSize` long.
    func encode(buffer base: UnsafeMutablePointer<UInt8>, fragmentSize: Int, stride: Int) {
        guard parityShards > 0 else { return }
        var data: [UnsafeMutablePointer<UInt8>?] = (0..<dataShards).map { base + $0 * stride }
        var coding: [UnsafeMutablePointer<UInt8>?] = (dataShards..<totalShards).map { base + $0 * stride }
        encodeTables.withUnsafeBufferPointer { t in
            guard let tables = t.baseAddress else { return }
            ec_encode_data(
                Int32(fragmentSize), Int32(dataShards), Int32(parityShards),
                UnsafeMutablePointer(mutating: tables), &data, &coding)
        }
    }

    /// Fills in the data fragments missing from `available` (d distinct indices whose fragments are present).
    func reconstructData(buffer base: UnsafeMutablePointer<UInt8>, stride: Int, fragmentSize: Int, available: [Int]) throws {
        let plan = try decodePlan(for: available)
        guard !plan.missing.isEmpty else { return }
        var sources: [UnsafeMutablePointer<UInt8>?] = plan.sources.map { base + $0 * stride }
        var outputs: [UnsafeMutablePointer<UInt8>?] = plan.missing.map { base + $0 * stride }
        plan.tables.withUnsafeBufferPointer { t in
            guard let tables = t.baseAddress else { return }
            ec_encode_data(
                Int32(fragmentSize), Int32(dataShards), Int32(plan.missing.count),
                UnsafeMutablePointer(mutating: tables), &sources, &outputs)
        }
    }

    func decodePlan(for available: [Int]) throws -> DecodePlan {
        let sources = Array(Set(available)).sorted()
        guard sources.count == dataShards else {
            throw StorageError.notEnoughFragments(needed: dataShards, available: sources.count)
        }
        var key: UInt64 = 0
        for i in sources {
            guard i >= 0, i < totalShards else { throw StorageError.invalidFragmentIndex(i) }
            key |= 1 << UInt64(i)
        }
        if let cached = decodePlans.withLock({ $0[key] }) { return cached }
        let d = dataShards
        let missing = (0..<d).filter { !sources.contains($0) }
        var tables = [UInt8](repeating: 0, count: max(1, 32 * d * missing.count))
        if !missing.isEmpty {
            var sub = [UInt8](repeating: 0, count: d * d)
            for (r, s) in sources.enumerated() {
                for c in 0..<d { sub[r * d + c] = matrix[s * d + c] }
            }
            var inverse = [UInt8](repeating: 0, count: d * d)
            guard gf_invert_matrix(&sub, &inverse, Int32(d)) == 0 else { throw StorageError.singularMatrix }
            // data = inverse × sources, so missing data row j is row j of the inverse.
            var rows = [UInt8]()
            rows.reserveCapacity(missing.count * d)
            for j in missing { rows.append(contentsOf: inverse[(j * d)..<((j + 1) * d)]) }
            ec_init_tables(Int32(d), Int32(missing.count), &rows, &tables)
        }
        let plan = DecodePlan(sources: sources, missing: missing, tables: tables)
        decodePlans.withLock { $0[key] = plan }
        return plan
    }
}
