import Foundation
import MosaicCrypto

/// The compact body of `POST /v1/transactions/batch` with `Content-Type: application/octet-stream`:
/// per transaction a 4-byte big-endian length, its canonical signing bytes (docs/PROTOCOL.md §2.2)
/// and the 64 signature bytes. No JSON on either side (Foundation's JSON costs microseconds per
/// object), and the hash is recomputed from the very bytes that were signed.
public enum BinaryBatch {
    public static let contentType = "application/octet-stream"

    public static func encode(_ txs: [Transaction]) -> Data {
        var out = Data()
        out.reserveCapacity(txs.count * 320)
        for tx in txs {
            let bytes = tx.signingBytes
            var n = UInt32(bytes.count).bigEndian
            withUnsafeBytes(of: &n) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
            out.append(contentsOf: Hex.decode(tx.signature) ?? [UInt8](repeating: 0, count: 64))
        }
        return out
    }

    /// Parses a body; a malformed record rejects the whole batch (nothing is submitted).
    public static func decode(_ data: Data) throws(LedgerError) -> [Transaction] {
        let bytes = [UInt8](data)
        var txs: [Transaction] = []
        var i = 0
        while i < bytes.count {
            guard bytes.count - i >= 4 else { throw .malformed("binary batch: truncated length at byte \(i)") }
            let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            i += 4
            guard n <= Transaction.maxDataBytes + 1024, bytes.count - i >= n + 64 else {
                throw .malformed("binary batch: record \(txs.count) is truncated or too long")
            }
            let record = Array(bytes[i..<(i + n)])
            let signature = Array(bytes[(i + n)..<(i + n + 64)])
            i += n + 64
            txs.append(try transaction(signingBytes: record, signature: signature, index: txs.count))
        }
        return txs
    }

    static func transaction(signingBytes b: [UInt8], signature: [UInt8], index: Int) throws(LedgerError) -> Transaction {
        var r = Reader(bytes: b)
        let what = "binary batch: record \(index)"
        guard let domain = r.string(), domain == Transaction.signingDomain,
              let chain = r.string(), let client = r.string(), let key = r.lengthPrefixed(), let to = r.string(),
              let value = r.uint64(), let fee = r.uint64(), let nonce = r.uint64(), let code = r.uint8(),
              let data = r.string(), let created = r.uint64(), r.atEnd
        else { throw .malformed("\(what) is not the canonical signing bytes of a transaction") }
        guard let type = TransactionType.allCases.first(where: { $0.code == code }) else {
            throw .malformed("\(what) has unknown transaction type \(code)")
        }
        return Transaction(hash: Hex.encode(SHA256.hash(b)), clientID: client, publicKey: Hex.encode(key), toClientID: to,
                           value: value, fee: fee, nonce: nonce, transactionType: type, transactionData: data,
                           creationDate: Int64(bitPattern: created), chainID: chain, signature: Hex.encode(signature))
    }

    /// Reads the encodings of `CanonicalWriter`.
    struct Reader {
        let bytes: [UInt8]
        var at = 0
        var atEnd: Bool { at == bytes.count }

        mutating func uint8() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func uint64() -> UInt64? {
            guard bytes.count - at >= 8 else { return nil }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[at + k]) }
            at += 8
            return v
        }

        mutating func lengthPrefixed() -> [UInt8]? {
            guard bytes.count - at >= 4 else { return nil }
            let n = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            at += 4
            guard bytes.count - at >= n else { return nil }
            defer { at += n }
            return Array(bytes[at..<(at + n)])
        }

        mutating func string() -> String? {
            guard let b = lengthPrefixed() else { return nil }
            return String(validating: b, as: UTF8.self)
        }
    }
}
