import Foundation

/// Feeds a generated upload body to URLSession. Linux URLSession treats `hasBytesAvailable == false`
/// as end of body, so this stream blocks in `read` (calling the producer) and reports false only
/// at EOF; a producer that ends early or overruns the declared length fails the upload instead of
/// sending a silently truncated body. Not Sendable: URLSession reads it from one queue.
final class ProducerInputStream: InputStream {
    private let producer: @Sendable (Int) throws -> Data?
    private let length: Int64
    private var pending = Data()
    private var offset = 0
    private var sent: Int64 = 0
    private var status: Stream.Status = .notOpen
    private var failure: Error?

    init(length: Int64, producer: @escaping @Sendable (Int) throws -> Data?) {
        self.length = length
        self.producer = producer
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: Error? { failure }
    override var hasBytesAvailable: Bool { status == .open || status == .notOpen || status == .reading }
    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open || status == .reading else { return status == .atEnd ? 0 : -1 }
        do {
            while offset >= pending.count {
                guard let next = try producer(len) else {
                    guard sent == length else {
                        throw HTTPClientError(
                            status: 0, code: "body_truncated", message: "upload producer ended after \(sent) of \(length) bytes")
                    }
                    status = .atEnd
                    return 0
                }
                pending = next
                offset = 0
            }
            let n = min(len, pending.count - offset)
            guard sent + Int64(n) <= length else {
                throw HTTPClientError(status: 0, code: "body_too_long", message: "upload producer exceeded the declared \(length) bytes")
            }
            pending.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: n) }
            }
            offset += n
            sent += Int64(n)
            return n
        } catch {
            failure = error
            status = .error
            return -1
        }
    }
}
