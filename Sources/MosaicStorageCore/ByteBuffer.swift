import Glibc

/// One owned, zeroed, 64-byte-aligned allocation: ISA-L wants its fragments as raw pointers,
/// and one contiguous buffer avoids the nested-`withUnsafe…` exclusivity trap with `[[UInt8]]`.
///
/// Buffers of 1 MiB and more (the encoder's batch buffers) are mapped straight from the kernel and
/// unmapped on release: through malloc, freed multi-MiB blocks stayed in glibc's per-thread arenas
/// (its mmap threshold rises after the first such free), and the client's RSS during a 1 GiB upload
/// wandered 30–50 MiB above what it was using.
final class ByteBuffer {
    let raw: UnsafeMutableRawBufferPointer
    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    private let mapped: Bool

    static let mapThreshold = 1 << 20

    /// - Parameter zeroed: false for buffers whose every byte is written before it is read (the
    ///   encoder's batch buffers), which saves touching the whole allocation once more.
    init(count: Int, zeroed: Bool = true) {
        self.count = count
        var r: UnsafeMutableRawPointer?
        if count >= Self.mapThreshold, let m = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            m != MAP_FAILED
        {
            r = m  // the kernel hands out zeroed pages
        }
        mapped = r != nil
        let p = r ?? UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 64)
        if zeroed, !mapped { memset(p, 0, max(count, 1)) }
        base = p.assumingMemoryBound(to: UInt8.self)
        raw = UnsafeMutableRawBufferPointer(start: p, count: count)
    }

    func array(from offset: Int, count n: Int) -> [UInt8] {
        precondition(offset >= 0 && n >= 0 && offset + n <= count, "ByteBuffer read out of bounds")
        return [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            if let dst = out.baseAddress, n > 0 { memcpy(dst, base + offset, n) }
            initialized = n
        }
    }

    func bytes(from offset: Int, count n: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)])
    }

    func mutableBytes(from offset: Int, count n: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + n)])
    }

    func write(_ bytes: [UInt8], at offset: Int) {
        bytes.withUnsafeBytes { src in
            UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + src.count)]).copyMemory(from: src)
        }
    }

    func zero(from offset: Int, count n: Int) {
        guard n > 0 else { return }
        memset(base + offset, 0, n)
    }

    deinit {
        if mapped { munmap(UnsafeMutableRawPointer(base), count) } else { UnsafeMutableRawPointer(base).deallocate() }
    }
}

/// Lets parallel workers write disjoint parts of one buffer. Safe only because every caller
/// gives each iteration its own byte range and waits for all iterations before reading.
struct SharedBuffer: @unchecked Sendable {
    let buffer: ByteBuffer
}
