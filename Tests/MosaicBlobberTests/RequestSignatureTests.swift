import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// The signed bytes of a blobber request (docs/STORAGE.md §11) and of per-blobber upload ids
/// (§12), against vectors computed independently with Python (hashlib, cryptography's Ed25519).
@Suite struct RequestSignatureTests {
    static func owner() throws -> Ed25519.SigningKey { try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 1, count: 32))) }
    static let allocation = String(repeating: "aa", count: 32)
    static let blobber = String(repeating: "bb", count: 32)
    static let nonce = Array(UInt8(0)..<16)
    static let time: Int64 = 1_800_000_000

    static let cases: [(RequestSignature.Target, Int, String, String)] = [
        (
            RequestSignature.Target(
                blobberID: blobber, allocationID: allocation, method: "PUT", path: "/v1/alloc/\(allocation)/uploads/u1",
                offset: 65536, bodyLength: 1 << 20, bodyHash: nil),
            345, "efafcb162c27eae3c2322cf46c105ee8bfbd6ebe5f1ac21ecd096ee9bf33e316",
            "bf1985a2f0b90e5249e9ab26e37fdf5a3bc61f0f545eb04763ba7d1fac89ed9dd270b9f36de06a859c05528d1f3c12d341cb865a0b9a6e2aeaade9af1286e50e"
        ),
        (
            RequestSignature.Target(
                blobberID: blobber, allocationID: allocation, method: "GET", path: "/v1/alloc/\(allocation)/files",
                query: ["path": "/docs/a b+c.txt", "recursive": "1", "format": "binary"], body: [UInt8]()),
            405, "6452560fc952fc8b515745c2ae7cee85b4fb59a91942bd3d4feb6feb949c1ce5",
            "4448981148f68e5d8ea9768b7ebcbef12671718324fe3dd24af3a572f324a32fd671dd8ebec17d6753983cbb6ae46f64730ac599e4d0812f3db8aa8b42fad802"
        ),
        (
            RequestSignature.Target(
                blobberID: blobber, allocationID: allocation, method: "POST", path: "/v1/alloc/\(allocation)/commit",
                body: Array(#"{"x":1}"#.utf8)),
            342, "7df2c89fdf0c633cd465a36b376bddafa147ab9b29dae1c730ebe4fc61f2e9f6",
            "18c4f15b2e699f5621b00ef150995db26dd14d9f4ab6b7af1143d0e128539431b1228da18b3e57dcc025ef95816a9e39490fa4c7604d7691d11bdb2120f5eb0e"
        ),
    ]

    @Test func signingBytesMatchDocumentedVectors() throws {
        let owner = try Self.owner()
        #expect(owner.publicKey.hex == "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c")
        for (target, length, digest, signature) in Self.cases {
            let bytes = RequestSignature.signingBytes(target, time: Self.time, nonce: Self.nonce)
            #expect(bytes.count == length, "\(target.method) \(target.path)")
            #expect(Hex.encode(RequestSignature.digest(target, time: Self.time, nonce: Self.nonce)) == digest)
            let headers = RequestSignature.headers(target, key: owner, time: Self.time, nonce: Self.nonce)
            #expect(headers["X-Mosaic-Signature"] == signature)
            #expect(headers["X-Mosaic-Nonce"] == "000102030405060708090a0b0c0d0e0f")
            let verified = try RequestSignature.verify(target, headers: { headers[$0] }, now: Self.time + 10)
            #expect(verified.key == owner.publicKey && verified.time == Self.time && verified.nonce == Self.nonce)
        }
    }

    /// Every covered part changes the signed bytes: a signature for one request verifies for no other.
    @Test func aSignatureVerifiesForNoOtherRequest() throws {
        let base = Self.cases[1].0
        let headers = RequestSignature.headers(base, key: try Self.owner(), time: Self.time, nonce: Self.nonce)
        var variants: [RequestSignature.Target] = []
        var t = base
        t.blobberID = String(repeating: "cc", count: 32)
        variants.append(t)
        t = base
        t.allocationID = String(repeating: "ab", count: 32)
        variants.append(t)
        t = base
        t.method = "DELETE"
        variants.append(t)
        t = base
        t.path += "x"
        variants.append(t)
        t = base
        t.query["path"] = "/other"
        variants.append(t)
        t = base
        t.query["extra"] = ""
        variants.append(t)
        t = base
        t.offset = 0
        variants.append(t)
        t = base
        t.bodyLength = 1
        variants.append(t)
        t = base
        t.bodyHash = nil
        variants.append(t)
        for v in variants {
            #expect(throws: StorageRequestError.self) { try RequestSignature.verify(v, headers: { headers[$0] }, now: Self.time) }
        }
        // Time and nonce are signed too.
        for (name, value) in [("X-Mosaic-Time", String(Self.time + 1)), ("X-Mosaic-Nonce", "ff" + String(repeating: "00", count: 15))] {
            var h = headers
            h[name] = value
            #expect(throws: StorageRequestError.self) { try RequestSignature.verify(base, headers: { h[$0] }, now: Self.time) }
        }
    }

    @Test func timesOutsideTheWindowAndMalformedHeadersAreRefused() throws {
        let target = Self.cases[2].0
        let owner = try Self.owner()
        for time in [Self.time - RequestSignature.window - 1, Self.time + RequestSignature.window + 1, Int64.min, Int64.max] {
            let headers = RequestSignature.headers(target, key: owner, time: time, nonce: Self.nonce)
            #expect(throws: StorageRequestError.self) { try RequestSignature.verify(target, headers: { headers[$0] }, now: Self.time) }
        }
        // The blobber's own clock at the extremes does not overflow the window arithmetic.
        for now in [Int64.min, Int64.max] {
            let headers = RequestSignature.headers(target, key: owner, time: now, nonce: Self.nonce)
            #expect(throws: Never.self) { try RequestSignature.verify(target, headers: { headers[$0] }, now: now) }
        }
        let good = RequestSignature.headers(target, key: owner, time: Self.time, nonce: Self.nonce)
        for (name, value) in [
            ("X-Mosaic-Key", "zz"), ("X-Mosaic-Time", "9223372036854775808"), ("X-Mosaic-Time", "-"),
            ("X-Mosaic-Nonce", "00"), ("X-Mosaic-Nonce", String(repeating: "0", count: 33)),
            ("X-Mosaic-Signature", "00"),
        ] {
            var h = good
            h[name] = value
            #expect(throws: StorageRequestError.self) { try RequestSignature.verify(target, headers: { h[$0] }, now: Self.time) }
        }
    }

    @Test func uploadIDsArePerBlobberAndMatchTheVector() {
        let base = "0123456789abcdef0123456789abcdef"
        #expect(BlobberUploadSink.uploadID(base, blobber: String(repeating: "bb", count: 32)) == "420843bac08aca620182538f9383e8fb")
        #expect(BlobberUploadSink.uploadID(base, blobber: String(repeating: "cc", count: 32)) == "da3e665fd561c4c63fb9a7fa5dda9b8a")
    }

    /// The replay memory is bounded: full → 429, and room again once the window has passed.
    @Test func nonceMemoryIsBoundedAndForgetsExpiredNonces() throws {
        let nonces = RequestNonces(perAllocation: 3, total: 5)
        let a = String(repeating: "aa", count: 32)
        let b = String(repeating: "bb", count: 32)
        func n(_ i: UInt8) -> [UInt8] { [UInt8](repeating: i, count: 16) }
        for i in 0..<3 { try nonces.use(n(UInt8(i)), allocation: a, time: 100, now: 100) }
        func status(_ body: () throws -> Void) -> Int {
            do {
                try body()
                return 200
            } catch let e as StorageRequestError { return e.status } catch { return 0 }
        }
        #expect(status { try nonces.use(n(0), allocation: a, time: 100, now: 100) } == 401, "a nonce used twice")
        #expect(
            status { try nonces.use(n(9), allocation: a, time: 100, now: 101) } == 429, "a fourth nonce in an allocation bounded to three")
        for i in 10..<12 { try nonces.use(n(UInt8(i)), allocation: b, time: 100, now: 100) }
        #expect(status { try nonces.use(n(20), allocation: b, time: 100, now: 100) } == 429, "the blobber-wide bound")
        #expect(nonces.count == 5)
        // After the window the old nonces are forgotten (the time check refuses their requests).
        let later = 100 + RequestSignature.window + 1
        for i in 30..<33 { try nonces.use(n(UInt8(i)), allocation: a, time: later, now: later) }
        #expect(nonces.count == 3, "expired nonces were forgotten to make room")
    }
}
