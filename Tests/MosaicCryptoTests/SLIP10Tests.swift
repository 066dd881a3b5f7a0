import Foundation
import Testing

@testable import MosaicCrypto

@Suite struct SLIP10Tests {
    /// SLIP-0010 "Test vector 1 for ed25519" (seed 000102…0f), chains m and m/0H, as published in
    /// satoshilabs/slips slip-0010.md. SLIP-0010 prints public keys with a 0x00 prefix byte.
    @Test func publishedVector1() throws {
        let seed = SecretBytes(try #require(Hex.decode("000102030405060708090a0b0c0d0e0f")))
        let m = SLIP10.master(seed: seed)
        #expect(Hex.encode(m.chainCode.copyBytes()) == "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb")
        #expect(Hex.encode(m.privateKey.copyBytes()) == "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7")
        #expect("00" + m.signingKey.publicKey.hex == "00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed")

        let c = SLIP10.derive(seed: seed, path: try SLIP10.parsePath("m/0H"))
        #expect(Hex.encode(c.chainCode.copyBytes()) == "8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69")
        #expect(Hex.encode(c.privateKey.copyBytes()) == "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3")
        #expect("00" + c.signingKey.publicKey.hex == "008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c")
    }

    @Test func parsesPaths() throws {
        #expect(try SLIP10.parsePath("m/44'/1337'/0'/0'/0'") == SLIP10.mosaicAccountPath)
        #expect(try SLIP10.parsePath("m") == [])
        #expect(throws: CryptoError.self) { try SLIP10.parsePath("m/44/0'") }
        #expect(throws: CryptoError.self) { try SLIP10.parsePath("44'/0'") }
    }

    /// The Mosaic derivation vector must match the one published in docs/PROTOCOL.md.
    @Test func mosaicVectorMatchesProtocolDoc() throws {
        let docURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        let doc = try String(contentsOf: docURL, encoding: .utf8)
        func value(_ label: String) throws -> String {
            // Lines look like: "- private seed: `abcd…`"
            let line = try #require(doc.split(separator: "\n").first { $0.hasPrefix("- \(label): `") })
            return String(line.split(separator: "`")[1])
        }
        let phrase = try value("mnemonic")
        let m = try Mnemonic(phrase: phrase)
        #expect(phrase == Array(repeating: "abandon", count: 23).joined(separator: " ") + " art")
        #expect(try value("path") == "m/44'/1337'/0'/0'/0'")
        #expect(try value("BIP-39 seed") == Hex.encode(m.seed().copyBytes()))
        let key = m.signingKey()
        #expect(try value("private seed") == Hex.encode(key.seed.copyBytes()))
        #expect(try value("public key") == key.publicKey.hex)
        #expect(try value("client_id") == key.publicKey.clientID)
        let msg = Array("mosaic".utf8)
        #expect(try value("signature of \"mosaic\"") == Hex.encode(key.signature(for: msg)))
    }
}
