import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Large I/O buffers kept for reuse: the bodies of block batches (about 1 MiB each, hundreds per
/// download), on the client and on the blobber.
///
/// Through plain malloc, whether such a buffer was a fresh mmap depended on glibc's moving mmap
/// threshold (it rises when a mapped chunk is freed, and so changes with whatever the process did
/// before). When mapped, every byte cost a page fault and the kernel's zeroing, and the same
/// download used from 0.72 to 1.1 CPU s from one run to the next. Buffers come from malloc and go
/// back to it when the pool is full, so a burst never stays resident beyond `keep` buffers.
package final class BufferPool: Sendable {
    /// The process's pool: at most 16 buffers of at most 8 MiB kept, so 128 MiB at the very worst
    /// and about 20 MiB for block batches.
    package static let shared = BufferPool(keep: 16, largest: 8 << 20)
    /// Smaller requests go straight to malloc: glibc serves them from its heap anyway.
    package static let smallest = 128 << 10

    private struct Free: @unchecked Sendable {
        // @unchecked: a pointer here belongs to nobody else (it was given back) until `take` hands it out.
        var buffers: [(pointer: UnsafeMutableRawPointer, capacity: Int)] = []
    }

    private let free = Mutex(Free())
    private let keep: Int
    private let largest: Int

    package init(keep: Int, largest: Int) {
        self.keep = keep
        self.largest = largest
    }

    /// Buffers waiting to be reused.
    package var kept: Int { free.withLock { $0.buffers.count } }

    /// A buffer of at least `count` bytes (not zeroed) and its capacity, to be given back with
    /// `give`, or nil when memory is exhausted. Capacities are rounded up to 256 KiB, so batches
    /// of slightly different sizes reuse each other's buffers.
    package func take(_ count: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
        if count >= Self.smallest, count <= largest {
            let reused = free.withLock { f -> (pointer: UnsafeMutableRawPointer, capacity: Int)? in
                guard
                    let i = f.buffers.indices.filter({ f.buffers[$0].capacity >= count }).min(by: {
                        f.buffers[$0].capacity < f.buffers[$1].capacity
                    })
                else { return nil }
                return f.buffers.remove(at: i)
            }
            if let reused { return reused }
        }
        let capacity = count >= Self.smallest ? (count + (256 << 10) - 1) / (256 << 10) * (256 << 10) : max(count, 1)
        guard let p = malloc(capacity) else { return nil }
        return (p, capacity)
    }

    /// Takes a buffer back from `take` (kept for the next `take`, or freed when the pool is full).
    package func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        let kept =
            capacity >= Self.smallest && capacity <= largest
            && free.withLock { f in
                guard f.buffers.count < keep else { return false }
                f.buffers.append((pointer, capacity))
                return true
            }
        if !kept { Glibc.free(pointer) }
    }

    deinit {
        free.withLock { f in
            for b in f.buffers { Glibc.free(b.pointer) }
            f.buffers = []
        }
    }
}
