import Foundation
import MosaicCrypto
import MosaicProtocol

/// Authenticates a client's request to a blobber and binds it to what it does (docs/STORAGE.md §11).
///
/// Headers: `X-Mosaic-Key` (hex Ed25519 public key), `X-Mosaic-Time` (unix seconds), `X-Mosaic-Nonce`
/// (32 hex characters, random per request) and `X-Mosaic-Signature` = hex Ed25519 over SHA-256 of
/// the `CanonicalWriter` bytes "mosaic-blobber-request-v2" ‖ blobber_id ‖ allocation_id ‖ method ‖
/// path ‖ u32 query count ‖ (key ‖ value) per query parameter, by key bytes ‖ i64 offset
/// (`X-Offset`, −1 when absent) ‖ i64 body length ‖ body hash (32: SHA-256 of the body, zeros for the
/// streamed upload PUT) ‖ i64 time ‖ nonce (16).
///
/// Why each part: the blobber id stops a co-blobber from replaying a request sent to it against
/// another blobber of the same allocation; query, offset and body hash stop a captured signature
/// from being reused with other arguments; time (within `window` of the blobber's clock) and the
/// nonce (remembered by the blobber for the owner's writes, `RequestNonces`) stop replays at the
/// same blobber. Upload bodies are streamed, so they are bound by their upload id (in the path),
/// offset and length, and checked against the owner-signed Merkle root at commit.
package enum RequestSignature {
    /// Seconds a request's time may differ from the blobber's clock.
    public static let window: Int64 = 300
    static let domain = "mosaic-blobber-request-v2"
    /// Bytes of `X-Mosaic-Nonce` (hex in the header).
    public static let nonceCount = 16

    /// What a signature covers besides time and nonce.
    public struct Target: Sendable, Equatable {
        public var blobberID: String
        public var allocationID: String
        public var method: String
        /// The request path without the query, e.g. `/v1/alloc/<id>/files`.
        public var path: String
        public var query: [String: String]
        /// `X-Offset` of an upload PUT; nil when the request has none.
        public var offset: Int64?
        public var bodyLength: Int64
        /// SHA-256 of the body; nil for a streamed body (the upload PUT), signed as 32 zero bytes.
        public var bodyHash: [UInt8]?

        public init(
            blobberID: String, allocationID: String, method: String, path: String, query: [String: String] = [:],
            offset: Int64? = nil, bodyLength: Int64 = 0, bodyHash: [UInt8]? = SHA256.hash([])
        ) {
            self.blobberID = blobberID
            self.allocationID = allocationID
            self.method = method
            self.path = path
            self.query = query
            self.offset = offset
            self.bodyLength = bodyLength
            self.bodyHash = bodyHash
        }

        /// A request with a buffered `body` (hashed).
        public init(
            blobberID: String, allocationID: String, method: String, path: String, query: [String: String] = [:],
            body: some Collection<UInt8>
        ) {
            self.init(
                blobberID: blobberID, allocationID: allocationID, method: method, path: path, query: query,
                offset: nil, bodyLength: Int64(body.count), bodyHash: SHA256.hash(Array(body)))
        }
    }

    /// The signer, time and nonce of a request whose signature verified.
    public struct Verified: Sendable {
        public let key: Ed25519.PublicKey
        public let time: Int64
        public let nonce: [UInt8]
    }

    /// The signing bytes (before hashing), as specified above.
    static func signingBytes(_ t: Target, time: Int64, nonce: [UInt8]) -> [UInt8] {
        var w = CanonicalWriter(domain: domain)
        w.append(string: t.blobberID)
        w.append(string: t.allocationID)
        w.append(string: t.method)
        w.append(string: t.path)
        let params = t.query.sorted { UTF8Order.less($0.key, $1.key) }
        w.append(uint32: UInt32(clamping: params.count))
        for (k, v) in params {
            w.append(string: k)
            w.append(string: v)
        }
        w.append(int64: t.offset ?? -1)
        w.append(int64: t.bodyLength)
        w.append(bytes: t.bodyHash ?? [UInt8](repeating: 0, count: 32))
        w.append(int64: time)
        w.append(bytes: nonce)
        return w.bytes
    }

    /// SHA-256 of the signing bytes: what the key signs.
    public static func digest(_ t: Target, time: Int64, nonce: [UInt8]) -> [UInt8] {
        SHA256.hash(signingBytes(t, time: time, nonce: nonce))
    }

    /// The four headers for a request (a fresh random nonce unless one is given).
    public static func headers(
        _ t: Target, key: Ed25519.SigningKey, time: Int64 = Int64(Date().timeIntervalSince1970),
        nonce: [UInt8] = Random.bytes(nonceCount)
    ) -> [String: String] {
        let sig = key.signature(for: digest(t, time: time, nonce: nonce))
        return [
            "X-Mosaic-Key": key.publicKey.hex, "X-Mosaic-Time": String(time), "X-Mosaic-Nonce": Hex.encode(nonce),
            "X-Mosaic-Signature": Hex.encode(sig),
        ]
    }

    /// The verified signer, or an error saying what is wrong. Checks shapes, the time window and the
    /// signature; whether the nonce was seen before is the caller's (`RequestNonces`).
    public static func verify(
        _ t: Target, headers: (String) -> String?,
        now: Int64 = Int64(Date().timeIntervalSince1970)
    ) throws(StorageRequestError) -> Verified {
        guard let keyHex = headers("X-Mosaic-Key"), let timeText = headers("X-Mosaic-Time"),
            let nonceHex = headers("X-Mosaic-Nonce"), let sigHex = headers("X-Mosaic-Signature")
        else {
            throw .unauthorized("sign the request: X-Mosaic-Key, X-Mosaic-Time, X-Mosaic-Nonce and X-Mosaic-Signature headers are required")
        }
        guard let key = Ed25519.PublicKey(hex: keyHex) else {
            throw .unauthorized("X-Mosaic-Key must be 64 hex characters (an Ed25519 public key)")
        }
        guard let time = Int64(timeText) else { throw .unauthorized("X-Mosaic-Time must be unix seconds") }
        guard let nonce = Hex.decode(nonceHex), nonce.count == nonceCount else {
            throw .unauthorized("X-Mosaic-Nonce must be \(2 * nonceCount) hex characters (\(nonceCount) random bytes)")
        }
        guard let sig = Hex.decode(sigHex), sig.count == 64 else { throw .unauthorized("X-Mosaic-Signature must be 128 hex characters") }
        // Subtraction of two arbitrary Int64 can overflow; compare without it.
        let (low, lowOverflow) = now.subtractingReportingOverflow(window)
        let (high, highOverflow) = now.addingReportingOverflow(window)
        guard (lowOverflow || time >= low) && (highOverflow || time <= high) else {
            throw .unauthorized("request time \(time) is more than \(window) s away from the blobber's clock \(now); check your clock")
        }
        guard key.isValidSignature(sig, for: digest(t, time: time, nonce: nonce)) else {
            throw .unauthorized("invalid request signature (it covers blobber id, allocation, method, path, query, offset, body and time)")
        }
        return Verified(key: key, time: time, nonce: nonce)
    }
}
