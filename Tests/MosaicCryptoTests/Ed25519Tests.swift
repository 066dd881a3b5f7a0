import Testing

@testable import MosaicCrypto

@Suite struct Ed25519Tests {
    /// RFC 8032 section 7.1, test 2 (one-byte message).
    @Test func signsRFC8032VectorExactly() throws {
        let seed = Hex.decode("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")!
        let key = try Ed25519.SigningKey(seed: SecretBytes(seed))
        #expect(key.publicKey.hex == "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
        let sig = key.signature(for: [0x72])
        #expect(
            Hex.encode(sig)
                == "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        )
        #expect(key.publicKey.isValidSignature(sig, for: [0x72]))
    }

    @Test func rejectsTamperedMessageAndSignature() {
        let key = Ed25519.SigningKey.generate()
        let msg = Array("pay 10 tokens".utf8)
        var sig = key.signature(for: msg)
        #expect(key.publicKey.isValidSignature(sig, for: msg))
        #expect(!key.publicKey.isValidSignature(sig, for: Array("pay 99 tokens".utf8)))
        sig[5] ^= 1
        #expect(!key.publicKey.isValidSignature(sig, for: msg))
        #expect(!key.publicKey.isValidSignature(Array(sig.prefix(63)), for: msg))
    }

    @Test func descriptionNeverShowsTheSecret() throws {
        let key = Ed25519.SigningKey.generate()
        let seedHex = Hex.encode(key.seed.copyBytes())
        #expect(!"\(key)".contains(seedHex))
        #expect("\(key.seed)" == "<redacted 32 bytes>")
    }

    @Test func sha256MatchesKnownDigest() {
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
