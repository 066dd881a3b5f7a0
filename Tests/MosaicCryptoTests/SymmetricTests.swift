import Testing

@testable import MosaicCrypto

@Suite struct SymmetricTests {
    let key = SecretBytes([UInt8](0..<32))
    let nonce = [UInt8](repeating: 7, count: 12)

    /// NIST GCM test case 14 (AES-256, zero key, zero IV, one zero block).
    @Test func aesGCMKnownAnswer() throws {
        let (c, t) = try AES256GCM.seal(
            [UInt8](repeating: 0, count: 16), key: SecretBytes([UInt8](repeating: 0, count: 32)),
            nonce: [UInt8](repeating: 0, count: 12))
        #expect(Hex.encode(c) == "cea7403d4d606b6e074ec5d3baf39d18")
        #expect(Hex.encode(t) == "d0d1c8a799996bf0265b98b5d48ab919")
    }

    @Test func aesGCMRoundTripDetachedAndCombined() throws {
        let msg = Array("segment of a file".utf8)
        let aad = Array("header".utf8)
        let (c, t) = try AES256GCM.seal(msg, key: key, nonce: nonce, aad: aad)
        #expect(c.count == msg.count && t.count == 16 && c != msg)
        #expect(try AES256GCM.open(c, tag: t, key: key, nonce: nonce, aad: aad) == msg)
        let combined = try AES256GCM.sealCombined(msg, key: key, nonce: nonce, aad: aad)
        #expect(combined == c + t)
        #expect(try AES256GCM.openCombined(combined, key: key, nonce: nonce, aad: aad) == msg)
        #expect(try AES256GCM.openCombined(AES256GCM.sealCombined([], key: key, nonce: nonce), key: key, nonce: nonce) == [])
    }

    @Test func aesGCMTamperFailsAuthentication() throws {
        let msg = Array("pay 10".utf8)
        let combined = try AES256GCM.sealCombined(msg, key: key, nonce: nonce, aad: [1])
        var flipped = combined
        flipped[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try AES256GCM.openCombined(flipped, key: key, nonce: nonce, aad: [1]) }
        #expect(throws: CryptoError.authenticationFailed) { try AES256GCM.openCombined(combined, key: key, nonce: nonce, aad: [2]) }
        #expect(throws: CryptoError.authenticationFailed) {
            try AES256GCM.openCombined(combined, key: SecretBytes([UInt8](repeating: 9, count: 32)), nonce: nonce, aad: [1])
        }
        #expect(throws: CryptoError.authenticationFailed) { try AES256GCM.openCombined(Array(combined.prefix(10)), key: key, nonce: nonce) }
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: 3)) {
            try AES256GCM.seal(msg, key: SecretBytes([1, 2, 3]), nonce: nonce)
        }
    }

    @Test func sealerReusesContextAcrossSegments() throws {
        let sealer = try AES256GCM.Sealer(key: key)
        let opener = try AES256GCM.Opener(key: key)
        let prefix = Random.bytes(8)
        var segments: [([UInt8], [UInt8])] = []
        for i in 0..<5 {
            let data = [UInt8](repeating: UInt8(i), count: 65536)
            segments.append(try sealer.seal(data, nonce: AES256GCM.segmentNonce(prefix: prefix, index: UInt32(i))))
        }
        #expect(segments[0].0 != segments[1].0)
        for (i, (c, t)) in segments.enumerated() {
            let plain = try opener.open(c, tag: t, nonce: AES256GCM.segmentNonce(prefix: prefix, index: UInt32(i)))
            #expect(plain == [UInt8](repeating: UInt8(i), count: 65536))
        }
        // A segment moved to another index fails.
        #expect(throws: CryptoError.authenticationFailed) {
            try opener.open(segments[1].0, tag: segments[1].1, nonce: AES256GCM.segmentNonce(prefix: prefix, index: 2))
        }
        // The opener is still usable after a failure.
        #expect(try opener.open(segments[3].0, tag: segments[3].1, nonce: AES256GCM.segmentNonce(prefix: prefix, index: 3)).count == 65536)
    }

    /// RFC 5869 test case 1.
    @Test func hkdfRFC5869Case1() throws {
        let okm = try HKDF.deriveKey(
            from: SecretBytes([UInt8](repeating: 0x0b, count: 22)),
            salt: Array(0...12), info: Array(0xf0...0xf9), count: 42)
        #expect(Hex.encode(okm.copyBytes()) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func argon2idIsDeterministicPerSalt() throws {
        let salt = [UInt8](repeating: 1, count: 16)
        let a = try Argon2id.deriveKey(password: "correct horse", salt: salt, parameters: .testing)
        let b = try Argon2id.deriveKey(password: "correct horse", salt: salt, parameters: .testing)
        let c = try Argon2id.deriveKey(password: "correct horse", salt: [UInt8](repeating: 2, count: 16), parameters: .testing)
        let d = try Argon2id.deriveKey(password: "correct horsE", salt: salt, parameters: .testing)
        #expect(a == b && a != c && a != d && a.count == 32)
        #expect(throws: CryptoError.self) { try Argon2id.deriveKey(password: "x", salt: [1], parameters: .testing) }
        #expect("\(a)" == "<redacted 32 bytes>")
    }

    /// The real INTERACTIVE cost (64 MiB) works and matches itself; MODERATE is too slow for unit tests.
    @Test func argon2idInteractivePreset() throws {
        let salt = [UInt8](repeating: 3, count: 16)
        let a = try Argon2id.deriveKey(password: "pin 1234", salt: salt, parameters: .interactive)
        #expect(a == (try Argon2id.deriveKey(password: "pin 1234", salt: salt, parameters: .interactive)))
        #expect(a != (try Argon2id.deriveKey(password: "pin 1234", salt: salt, parameters: .testing)))
    }

    @Test func sealedBoxToEd25519Account() throws {
        let wallet = Ed25519.SigningKey.generate()
        let other = Ed25519.SigningKey.generate()
        let contentKey = SecretBytes(Random.bytes(32))
        let box = try SealedBox.seal(contentKey, to: wallet.publicKey)
        #expect(box.count == 32 + SealedBox.overhead)
        #expect(try SealedBox.open(box, with: wallet) == contentKey)
        #expect(throws: CryptoError.authenticationFailed) { try SealedBox.open(box, with: other) }
        var tampered = box
        tampered[40] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try SealedBox.open(tampered, with: wallet) }
        let pair = try X25519.KeyPair(ed25519: wallet)
        #expect(pair.publicKey == (try X25519.PublicKey(ed25519: wallet.publicKey)))
        #expect(!"\(pair)".contains(Hex.encode(pair.secretKey.copyBytes())))
        let eph = X25519.KeyPair.generate()
        #expect(try SealedBox.open(SealedBox.seal(contentKey, to: eph.publicKey), with: eph) == contentKey)
    }

    @Test func secretsAreRedacted() throws {
        let key = Ed25519.SigningKey.generate()
        let hex = Hex.encode(key.seed.copyBytes())
        for text in [
            "\(key)", String(reflecting: key), "\(key.seed)", String(reflecting: key.seed),
            "\(SLIP10.master(seed: key.seed))", String(reflecting: SLIP10.master(seed: key.seed)),
        ] {
            #expect(!text.contains(hex))
            #expect(!text.contains(String(hex.prefix(16))))
        }
    }
}
