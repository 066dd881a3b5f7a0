import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

/// Test-only: passes bytes through. Only for layout tests; real uploads use MosaicCrypto's AEAD.
public struct IdentityCipher: SegmentCipher {
    public init() {}
    public var overhead: Int { 0 }
    public func seal(_ plaintext: [UInt8], segmentIndex: UInt64) throws -> [UInt8] { plaintext }
    public func open(_ sealed: [UInt8], segmentIndex: UInt64) throws -> [UInt8] { sealed }
}

/// Test-only stand-in with a 16-byte overhead, so the layout arithmetic is exercised with a tag:
/// bytes are XORed with the segment index and a truncated SHA-256 tag binds index and content.
/// NOT encryption.
public struct TaggedTestCipher: SegmentCipher {
    public struct TagMismatch: Error {}
    public init() {}
    public var overhead: Int { 16 }
    public func seal(_ plaintext: [UInt8], segmentIndex: UInt64) throws -> [UInt8] {
        let x = UInt8(truncatingIfNeeded: segmentIndex &* 31 &+ 7)
        var out = plaintext.map { $0 ^ x }
        out += tag(plaintext, segmentIndex)
        return out
    }
    public func open(_ sealed: [UInt8], segmentIndex: UInt64) throws -> [UInt8] {
        guard sealed.count >= 16 else { throw TagMismatch() }
        let x = UInt8(truncatingIfNeeded: segmentIndex &* 31 &+ 7)
        let plain = sealed.dropLast(16).map { $0 ^ x }
        guard Array(sealed.suffix(16)) == tag(plain, segmentIndex) else { throw TagMismatch() }
        return plain
    }
    private func tag(_ p: [UInt8], _ i: UInt64) -> [UInt8] {
        var input = withUnsafeBytes(of: i.bigEndian) { Array($0) }
        input += p
        return Array(SHA256.hash(input).prefix(16))
    }
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
public func testBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var s = seed | 1
    var out = [UInt8]()
    out.reserveCapacity(count)
    for _ in 0..<count {
        s ^= s << 13
        s ^= s >> 7
        s ^= s << 17
        out.append(UInt8(truncatingIfNeeded: s >> 24))
    }
    return out
}

/// Collects one fragment stream in memory.
public actor MemorySink: FragmentSink {
    public init() {}
    public private(set) var bytes: [UInt8] = []
    public private(set) var finished: (length: Int64, root: [UInt8])?
    public func write(_ b: [UInt8], at offset: Int64) async throws {
        precondition(offset == Int64(bytes.count), "writes arrive in order")
        bytes += b
    }
    public func finish(length: Int64, root: [UInt8]) async throws { finished = (length, root) }
}

/// A blobber that is down.
public struct FailingSink: FragmentSink {
    public struct Down: Error {}
    public init() {}
    public func write(_ bytes: [UInt8], at offset: Int64) async throws { throw Down() }
    public func finish(length: Int64, root: [UInt8]) async throws { throw Down() }
}

/// Serves a fragment stream from memory, optionally lying (flipping one byte of block `corruptBlock`) or failing.
public struct MemorySource: FragmentSource {
    public struct Unreachable: Error {}
    package let tree: MerkleTree
    public let stream: [UInt8]
    public var corruptBlock: Int? = nil
    public var fail = false
    public let log: RequestLog?

    public init(_ stream: [UInt8], corruptBlock: Int? = nil, fail: Bool = false, log: RequestLog? = nil) {
        self.stream = stream
        tree = MerkleTree(stream: stream)
        self.corruptBlock = corruptBlock
        self.fail = fail
        self.log = log
    }

    package func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        await log?.record(range)
        if fail { throw Unreachable() }
        return try range.map { k in
            let start = k * MerkleRules.blockSize
            var data = Array(stream[start..<min(stream.count, start + MerkleRules.blockSize)])
            if k == corruptBlock { data[data.count / 2] ^= 0x40 }
            return FragmentBlock(data: data, proof: try tree.proof(forBlock: k))
        }
    }
}

public actor RequestLog {
    public init() {}
    public private(set) var ranges: [Range<Int>] = []
    public func record(_ r: Range<Int>) { ranges.append(r) }
}

/// All k-element subsets of 0..<n.
public func combinations(_ n: Int, _ k: Int) -> [[Int]] {
    guard k > 0 else { return [[]] }
    guard k <= n else { return [] }
    var out: [[Int]] = []
    var c = Array(0..<k)
    while true {
        out.append(c)
        var i = k - 1
        while i >= 0 && c[i] == n - k + i { i -= 1 }
        if i < 0 { return out }
        c[i] += 1
        for j in (i + 1)..<k { c[j] = c[j - 1] + 1 }
    }
}

/// Byte equality without dumping megabytes into a failure message.
public func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }

extension FileEncoder {
    /// Encodes `data` from memory into `sinks`, read in the sizes the encoder asks for.
    package func encode(bytes data: [UInt8], to sinks: [any FragmentSink]) async throws -> Result {
        var at = 0
        return try await encode(
            read: { n in
                let part = Array(data[at..<min(data.count, at + n)])
                at += part.count
                return part
            }, to: sinks)
    }
}
