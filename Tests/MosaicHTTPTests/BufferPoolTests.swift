import MosaicHTTP
import Testing

extension MosaicHTTPTests {
    @Suite struct BufferPoolTests {
        /// A buffer given back is handed out again for the next batch of about its size, instead of
        /// a fresh allocation (fresh mmaps cost page faults and zeroing on every use).
        @Test func aGivenBackBufferIsReusedForTheNextOfItsSize() throws {
            let pool = BufferPool(keep: 2, largest: 8 << 20)
            // A batch of 16 blocks with their proofs: a little over 1 MiB.
            let a = try #require(pool.take((1 << 20) + 100))
            #expect(a.capacity == (1 << 20) + (256 << 10))
            a.pointer.storeBytes(of: 42, as: UInt8.self)
            pool.give(a.pointer, capacity: a.capacity)
            let b = try #require(pool.take((1 << 20) + 3000))
            #expect(b.pointer == a.pointer, "a slightly larger batch reuses the rounded-up buffer")
            // Too large for it: a new one.
            let c = try #require(pool.take(3 << 20))
            #expect(c.pointer != b.pointer && c.capacity >= 3 << 20)
            pool.give(b.pointer, capacity: b.capacity)
            pool.give(c.pointer, capacity: c.capacity)
            // The smallest buffer that fits is chosen.
            let d = try #require(pool.take(200 << 10))
            #expect(d.pointer == b.pointer)
            pool.give(d.pointer, capacity: d.capacity)
        }

        /// The pool keeps at most `keep` buffers and none above `largest`: a burst of many does not
        /// stay resident, and small requests never enter it.
        @Test func thePoolKeepsNoMoreThanItsBound() throws {
            let pool = BufferPool(keep: 2, largest: 4 << 20)
            let taken = try (0..<4).map { _ in try #require(pool.take(1 << 20)) }
            for t in taken { pool.give(t.pointer, capacity: t.capacity) }
            #expect(pool.kept == 2)
            let huge = try #require(pool.take(16 << 20))
            pool.give(huge.pointer, capacity: huge.capacity)
            let small = try #require(pool.take(100))
            #expect(small.capacity == 100)
            pool.give(small.pointer, capacity: small.capacity)
            #expect(pool.kept == 2, "neither the 16 MiB buffer nor the 100-byte one was kept")
        }
    }
}
