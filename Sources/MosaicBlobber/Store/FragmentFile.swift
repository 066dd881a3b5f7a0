import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

/// The on-disk form of one stored fragment stream:
/// `data ‖ Merkle nodes (level by level, leaves first, 32 bytes each) ‖ footer (64 bytes)`.
/// Footer: "MOSFRAG1" ‖ u64 BE data length ‖ u64 BE leaf count ‖ root (32) ‖ 8 zero bytes.
/// Data comes first so it can be streamed to disk before its tree is known.
enum FragmentFile {
    static let magic = Array("MOSFRAG1".utf8)
    static let footerSize = 64

    struct Footer {
        let length: Int64
        let leafCount: Int
        let root: [UInt8]
    }

    static func footerBytes(length: Int64, leafCount: Int, root: [UInt8]) -> [UInt8] {
        var out = magic
        appendBE(UInt64(length), to: &out)
        appendBE(UInt64(leafCount), to: &out)
        out.append(contentsOf: root)
        out.append(contentsOf: [UInt8](repeating: 0, count: 8))
        return out
    }

    static func nodeCount(leafCount: Int) -> Int { MerkleRules.levelSizes(leafCount: leafCount).reduce(0, +) }

    static func readFooter(path: String) throws -> Footer {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw StorageError.io(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw StorageError.io(operation: "stat", path: path, errno: errno) }
        let size = Int64(st.st_size)
        guard size >= Int64(footerSize) else { throw StorageError.corruptFragmentFile(path) }
        let bytes = try pread(fd: fd, path: path, offset: size - Int64(footerSize), count: footerSize)
        guard Array(bytes[0..<8]) == magic else { throw StorageError.corruptFragmentFile(path) }
        let length = readBE(bytes, at: 8)
        let leaves = readBE(bytes, at: 16)
        guard length <= UInt64(Int64.max), leaves <= UInt64(Int32.max) else { throw StorageError.corruptFragmentFile(path) }
        let footer = Footer(length: Int64(length), leafCount: Int(leaves), root: Array(bytes[24..<56]))
        guard Int64(footer.length) + Int64(32 * nodeCount(leafCount: footer.leafCount) + footerSize) == size else {
            throw StorageError.corruptFragmentFile(path)
        }
        return footer
    }

    static func readBlocks(path: String, range: Range<Int>) throws -> [FragmentBlock] {
        let footer = try readFooter(path: path)
        guard range.lowerBound >= 0, range.upperBound <= footer.leafCount else {
            throw StorageError.blockIndexOutOfRange(index: range.isEmpty ? range.lowerBound : range.upperBound - 1, count: footer.leafCount)
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw StorageError.io(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        let sizes = MerkleRules.levelSizes(leafCount: footer.leafCount)
        var levelOffsets: [Int64] = []
        var at = footer.length
        for n in sizes {
            levelOffsets.append(at)
            at += Int64(32 * n)
        }
        let B = Int64(MerkleRules.blockSize)
        return try range.map { k in
            let start = Int64(k) * B
            let count = Int(min(B, footer.length - start))
            let data = try pread(fd: fd, path: path, offset: start, count: count)
            let siblings = try MerkleRules.siblingPositions(leafIndex: k, leafCount: footer.leafCount).map { pos in
                try pread(fd: fd, path: path, offset: levelOffsets[pos.level] + Int64(32 * pos.index), count: 32)
            }
            return FragmentBlock(data: data, proof: MerkleProof(leafIndex: k, leafCount: footer.leafCount, siblings: siblings))
        }
    }

    static func read(path: String, offset: Int64, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw StorageError.io(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        return try pread(fd: fd, path: path, offset: offset, count: count)
    }

    /// Exactly `count` bytes at `offset`, read into an array that is not zeroed first (a download
    /// reads every stored block through here).
    static func pread(fd: Int32, path: String, offset: Int64, count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            var done = 0
            while done < count {
                guard let base = buf.baseAddress else { break }
                let n = Glibc.pread(fd, base + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw StorageError.corruptFragmentFile(path) }
                done += n
            }
            initialized = done
        }
    }

    static func pwriteAll(fd: Int32, path: String, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let n = Glibc.pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw StorageError.io(operation: "write", path: path, errno: errno) }
            done += n
        }
    }

    /// Makes a rename or unlink durable (the directory entry itself must reach the disk).
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
