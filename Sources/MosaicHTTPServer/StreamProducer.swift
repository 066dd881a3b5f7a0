import Foundation

/// Feeds a streaming response body to MHD's content-reader callback.
/// `@unchecked Sendable`: MHD calls the reader for one connection from one thread at a time.
final class StreamProducer: @unchecked Sendable {
    let producer: @Sendable (Int) throws -> Data?
    var pending = Data()
    var offset = 0
    var sent: Int64 = 0
    var onError: ((Error) -> Void)?

    init(_ producer: @escaping @Sendable (Int) throws -> Data?) { self.producer = producer }

    /// Fills `buf` with up to `max` bytes; -1 at the end, -2 on error (MHD's reader protocol).
    func fill(_ buf: UnsafeMutablePointer<CChar>, _ max: Int) -> Int {
        do {
            while offset >= pending.count {
                guard let next = try producer(max) else { return -1 }
                pending = next
                offset = 0
            }
        } catch {
            onError?(error)
            return -2
        }
        let n = min(max, pending.count - offset)
        pending.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(buf).copyMemory(from: base + offset, byteCount: n) }
        }
        offset += n
        sent += Int64(n)
        return n
    }
}
