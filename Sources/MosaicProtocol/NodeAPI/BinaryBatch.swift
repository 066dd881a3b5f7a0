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
        var r = CanonicalReader(b)
        let what = "binary batch: record \(index)"
        let domain: String
        let chain: String
        let client: String
        let key: [UInt8]
        let to: String
        let value: UInt64
        let fee: UInt64
        let nonce: UInt64
        let code: UInt8
        let data: String
        let created: UInt64
        do {
            domain = try r.string()
            chain = try r.string()
            client = try r.string()
            key = try r.lengthPrefixedBytes()
            to = try r.string()
            value = try r.uint64()
            fee = try r.uint64()
            nonce = try r.uint64()
            code = try r.uint8()
            data = try r.string()
            created = try r.uint64()
        } catch {
            throw .malformed("\(what) is not the canonical signing bytes of a transaction")
        }
        guard domain == Transaction.signingDomain, r.atEnd else {
            throw .malformed("\(what) is not the canonical signing bytes of a transaction")
        }
        guard let type = TransactionType.allCases.first(where: { $0.code == code }) else {
            throw .malformed("\(what) has unknown transaction type \(code)")
        }
        return Transaction(
            hash: Hex.encode(SHA256.hash(b)), clientID: client, publicKey: Hex.encode(key), toClientID: to,
            value: value, fee: fee, nonce: nonce, transactionType: type, transactionData: data,
            creationDate: Int64(bitPattern: created), chainID: chain, signature: Hex.encode(signature))
    }
}
