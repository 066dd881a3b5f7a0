import Dispatch

/// Runs `body` for 0..<count on every core and returns the results in order; the first error (by
/// index) is thrown after all iterations end. The one way Mosaic spreads CPU work (erasure coding,
/// segment ciphers, signature checks) over cores: a `DispatchQueue.concurrentPerform` whose
/// iterations each write their own result slot.
package func parallelMap<T, E: Error>(_ count: Int, _ body: (Int) throws(E) -> T) throws(E) -> [T] {
    if count <= 1 {
        var out: [T] = []
        for i in 0..<max(0, count) { out.append(try body(i)) }
        return out
    }
    let slots = ResultSlots<T, E>(count: count)
    withoutActuallyEscaping(body) { body in
        let box = UncheckedBox(body: body, slots: slots)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do throws(E) { box.slots.set(i, .success(try box.body(i))) } catch { box.slots.set(i, .failure(error)) }
        }
    }
    return try slots.collect()
}

/// Per-iteration results; each slot is written by exactly one iteration, through a raw pointer so
/// no array copy-on-write check races between threads, and read only after all of them end.
private final class ResultSlots<T, E: Error> {
    private let slots: UnsafeMutablePointer<Result<T, E>?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    func set(_ i: Int, _ r: Result<T, E>) { slots[i] = r }

    func collect() throws(E) -> [T] {
        var out = [T]()
        out.reserveCapacity(count)
        for i in 0..<count {
            switch slots[i] {
            case .success(let v)?: out.append(v)
            case .failure(let e)?: throw e
            case nil: break
            }
        }
        return out
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}

/// The body and slots handed to the workers: safe to share because each iteration touches only its
/// own slot and `parallelMap` waits for all of them before reading.
private struct UncheckedBox<T, E: Error>: @unchecked Sendable {
    let body: (Int) throws(E) -> T
    let slots: ResultSlots<T, E>
}
