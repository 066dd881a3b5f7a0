import Foundation
import MosaicCrypto
import MosaicProtocol

/// Authenticates a client's request to a blobber: headers `X-Mosaic-Key` (hex Ed25519 public key),
/// `X-Mosaic-Time` (unix seconds) and `X-Mosaic-Signature` = hex Ed25519 over SHA-256 of
/// "mosaic-blobber-request-v1" ‖ method ‖ path ‖ allocation_id ‖ i64 time, with `CanonicalWriter`
/// framing. The time must be within `window` seconds of the blobber's clock, which bounds replays;
/// writes are protected further by write markers, which chain roots.
public enum RequestSignature {
    public static let window: Int64 = 300
    static let domain = "mosaic-blobber-request-v1"

    static func bytes(method: String, path: String, allocation: String, time: Int64) -> [UInt8] {
        var w = CanonicalWriter(domain: domain)
        w.append(string: method)
        w.append(string: path)
        w.append(string: allocation)
        w.append(int64: time)
        return SHA256.hash(w.bytes)
    }

    /// The three headers for a request.
    public static func headers(method: String, path: String, allocation: String, key: Ed25519.SigningKey,
                               time: Int64 = Int64(Date().timeIntervalSince1970)) -> [String: String] {
        let sig = key.signature(for: bytes(method: method, path: path, allocation: allocation, time: time))
        return ["X-Mosaic-Key": key.publicKey.hex, "X-Mosaic-Time": String(time), "X-Mosaic-Signature": Hex.encode(sig)]
    }

    /// The verified signer, or an error saying what is wrong.
    public static func verify(method: String, path: String, allocation: String, headers: (String) -> String?,
                              now: Int64 = Int64(Date().timeIntervalSince1970)) throws(StorageRequestError) -> Ed25519.PublicKey {
        guard let keyHex = headers("X-Mosaic-Key"), let key = Ed25519.PublicKey(hex: keyHex),
              let timeText = headers("X-Mosaic-Time"), let time = Int64(timeText),
              let sigHex = headers("X-Mosaic-Signature"), let sig = Hex.decode(sigHex) else {
            throw .unauthorized("sign the request: X-Mosaic-Key, X-Mosaic-Time and X-Mosaic-Signature headers are required")
        }
        guard abs(now - time) <= window else {
            throw .unauthorized("request time \(time) is more than \(window) s away from the blobber's clock \(now); check your clock")
        }
        guard key.isValidSignature(sig, for: bytes(method: method, path: path, allocation: allocation, time: time)) else {
            throw .unauthorized("invalid request signature")
        }
        return key
    }
}
