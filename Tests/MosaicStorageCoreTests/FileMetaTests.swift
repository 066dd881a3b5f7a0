import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicStorageCore

@Suite struct FileMetaTests {
    static func sample() -> FileMeta {
        FileMeta(
            allocationID: String(repeating: "ab", count: 32), path: "/docs/a.txt", kind: .file, size: 3,
            contentType: "text/plain", cipher: FileMeta.aesGCMCipher, dataShards: 2, parityShards: 1,
            fragmentRoots: [String(repeating: "01", count: 32), String(repeating: "02", count: 32), String(repeating: "03", count: 32)],
            fragmentLength: 64, wrappedKey: String(repeating: "cd", count: 80), noncePrefix: "0001020304050607",
            created: 1_700_000_000, modified: 1_700_000_100, ownerID: String(repeating: "ef", count: 32))
    }

    @Test func canonicalBytesVector() throws {
        let m = Self.sample()
        // docs/STORAGE.md §10; the hash was computed independently with Python's hashlib.
        #expect(m.hash == "cc13e99f50a849d7b49f23948f0aeb682b2231ee579ebe9f620f733c7cfa9010")
    }

    @Test func signatureCoversEveryField() throws {
        let owner = try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 42, count: 32)))
        var m = Self.sample()
        m.wrappedKey = Hex.encode(try SealedBox.seal(SecretBytes(Random.bytes(32)), to: owner.publicKey))
        m.sign(with: owner)
        try m.verify(owner: owner.publicKey)
        var changed = m
        changed.size = 4
        #expect(throws: StorageRequestError.self) { try changed.verify(owner: owner.publicKey) }
        changed = m
        changed.fragmentRoots[2] = String(repeating: "04", count: 32)
        #expect(throws: StorageRequestError.self) { try changed.verify(owner: owner.publicKey) }
        changed = m
        changed.path = "/docs/b.txt"
        #expect(throws: StorageRequestError.self) { try changed.verify(owner: owner.publicKey) }
        #expect(throws: StorageRequestError.self) { try m.verify(owner: Ed25519.SigningKey.generate().publicKey) }
    }

    @Test func remotePaths() throws {
        for good in ["/a", "/a/b.txt", "/ünï/cödé"] { try RemotePath.validate(good) }
        for bad in ["", "/", "a", "/a/", "//a", "/a/../b", "/./a", "/a\u{0}b"] {
            #expect(throws: StorageRequestError.self) { try RemotePath.validate(bad) }
        }
        #expect(RemotePath.ancestors("/a/b/c") == ["/a", "/a/b"])
        #expect(RemotePath.parent("/a") == "/")
        #expect(RemotePath.isWithin("/ab", folder: "/a") == false)
    }
}

/// Commits and `ls` read listings in binary: every field and the signature must come back as
/// signed, and anything cut or altered must be refused rather than half-read.
@Suite struct FileMetaListingTests {
    @Test func binaryListingRoundTripsSignedMetadata() throws {
        let owner = try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 7, count: 32)))
        var file = FileMetaTests.sample()
        file.ownerID = owner.publicKey.clientID
        file.sign(with: owner)
        var folder = FileMeta.directory(allocationID: file.allocationID, path: "/docs", time: 5, ownerID: owner.publicKey.clientID)
        folder.sign(with: owner)
        let decoded = try FileMetaListing.decode(FileMetaListing.encode([folder, file]))
        #expect(decoded == [folder, file])
        for m in decoded { try m.verify(owner: owner.publicKey) }
        #expect(decoded.map(\.hash) == [folder.hash, file.hash])
        #expect(try FileMetaListing.decode(FileMetaListing.encode([])).isEmpty)
    }

    @Test func cutOrAlteredListingsAreRefused() throws {
        let bytes = [UInt8](FileMetaListing.encode([FileMetaTests.sample()]))
        for cut in [0, 3, 8, 40, bytes.count - 1] {
            #expect(throws: StorageProtocolError.self) { try FileMetaListing.decode(Data(bytes[0..<cut])) }
        }
        #expect(throws: StorageProtocolError.self) { try FileMetaListing.decode(Data(bytes + [0])) }
        var wrongMagic = bytes
        wrongMagic[0] = UInt8(ascii: "X")
        #expect(throws: StorageProtocolError.self) { try FileMetaListing.decode(Data(wrongMagic)) }
    }
}
