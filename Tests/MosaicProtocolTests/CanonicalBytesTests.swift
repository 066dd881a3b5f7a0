import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

/// Pins the canonical transaction bytes of docs/PROTOCOL.md §2.2: any change here breaks every
/// signature in the wild, so it must be deliberate (and come with a new domain tag).
@Suite struct CanonicalBytesTests {
    static let signingBytes =
        "0000000c6d6f736169632d74782d76310000000d6d6f736169632d6465766e657400000040353634373561613735343633343734633032383564663564626632626361623733646136353133353838333965396237373438316232656162313037373038630000002003a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b80000004061626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162000000037e11d60000000000000f4240000000000000000700000000056c756e6368000000006b49d200"

    static func vectorTransaction() throws -> Transaction {
        let key = try Ed25519.SigningKey(seed: SecretBytes(Array(0..<32)))
        return Transaction.signed(
            by: key, chainID: "mosaic-devnet", to: String(repeating: "ab", count: 32),
            value: 15_000_000_000, fee: 1_000_000, nonce: 7, type: .transfer, data: "lunch",
            creationDate: 1_800_000_000)
    }

    @Test func vectorMatchesDocumentedBytesHashAndSignature() throws {
        let tx = try Self.vectorTransaction()
        #expect(tx.publicKey == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8")
        #expect(tx.clientID == "56475aa75463474c0285df5dbf2bcab73da651358839e9b77481b2eab107708c")
        #expect(Hex.encode(tx.signingBytes) == Self.signingBytes)
        #expect(tx.hash == "61708db698d89737b73a9d11009ee8e8a0d368899757ebfdb0e217312c93267f")
        #expect(
            tx.signature
                == "66dddb4966cd4246d4acc0aded40c116c50e2f6b20fa41280e90fbba10177e61b3334967ea8af915697afcb441421656024652d3e187252cd6085d037165d505"
        )
        try tx.verify()
    }

    @Test func chainIDAndEveryFieldChangeTheHash() throws {
        let tx = try Self.vectorTransaction()
        var variants: [Transaction] = []
        var t = tx
        t.chainID = "mosaic-mainnet"
        variants.append(t)
        t = tx
        t.fee += 1
        variants.append(t)
        t = tx
        t.nonce += 1
        variants.append(t)
        t = tx
        t.transactionType = .contractCall
        variants.append(t)
        t = tx
        t.transactionData = "lunch!"
        variants.append(t)
        t = tx
        t.creationDate += 1
        variants.append(t)
        for v in variants {
            #expect(v.computedHash != tx.hash)
            #expect(throws: LedgerError.invalidHash) { try v.verify() }
        }
    }

    @Test func jsonIsSnakeCaseAndRoundTrips() throws {
        let tx = try Self.vectorTransaction()
        let data = try JSONEncoder().encode(tx)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"client_id\"", "\"to_client_id\"", "\"public_key\"", "\"transaction_type\":\"transfer\"", "\"chain_id\"", "\"creation_date\"",
        ] {
            #expect(text.contains(key))
        }
        #expect(try JSONDecoder().decode(Transaction.self, from: data) == tx)
    }

    /// docs/PROTOCOL.md §2.5: the block Merkle root's vectors, leaves hᵢ = SHA-256("tx-i").
    @Test func blockMerkleRootMatchesDocumentedVectors() {
        let h = (1...5).map { Hex.encode(SHA256.hash(Array("tx-\($0)".utf8))) }
        #expect(h[0] == "045ef594d81d2f2134d61151ed71260d8f79e657c7cb6ed1d893688532017409")
        #expect(Block.merkleRoot([]) == String(repeating: "0", count: 64))
        #expect(Block.merkleRoot(Array(h[0..<1])) == "1906d4038023cf30ba6607cce5f8bf69038b9bd15bb7b58f5ea62ebe608be751")
        #expect(Block.merkleRoot(Array(h[0..<2])) == "865327b96628b7503ecf6fd9530b0cb76e9f9fbd6d68154ccbb2cd4d48e317e0")
        #expect(Block.merkleRoot(Array(h[0..<3])) == "96b9fad6f1c4e6f9c91283b8cb1ba20871b1c9b8bbf69864961a7f00fe038533")
        #expect(Block.merkleRoot(h) == "08856681af5a19ac0860fd59a2b60ff0f647a0d0aaed5fba1464ae997b2e14f2")
    }

    /// The attacks the old rules allowed: a duplicated last transaction gave the same root as the
    /// list without it, and a one-transaction root was the transaction's own hash (a leaf could
    /// pass for an inner node).
    @Test func blockMerkleRootSeparatesLeavesFromNodesAndNeverSelfPairs() {
        let h = (1...3).map { Hex.encode(SHA256.hash(Array("tx-\($0)".utf8))) }
        #expect(Block.merkleRoot(h) != Block.merkleRoot(h + [h[2]]))
        #expect(Block.merkleRoot([h[0]]) != h[0])
        // An inner node presented as a leaf does not reproduce the root of the two leaves under it.
        let leaves = h.prefix(2).map { SHA256.hash([0x00] + (Hex.decode($0) ?? [])) }
        let inner = Hex.encode(SHA256.hash([0x01] + leaves[0] + leaves[1]))
        #expect(Block.merkleRoot([inner]) != Block.merkleRoot(Array(h.prefix(2))))
    }
}

/// Stored contract records and binary batches are read with `CanonicalReader`: what the writer
/// wrote comes back field for field, and a cut or forged record throws instead of trapping.
@Suite struct CanonicalReaderTests {
    @Test func readsBackEveryFieldTheWriterWrote() throws {
        var w = CanonicalWriter()
        w.append(uint8: 7)
        w.append(uint32: 0xDEAD_BEEF)
        w.append(uint64: .max)
        w.append(int64: -42)
        w.append(bool: true)
        w.append(string: "héllo")
        w.append(bytes: [1, 2, 3])
        var r = CanonicalReader(w.bytes)
        #expect(try r.uint8() == 7)
        #expect(try r.uint32() == 0xDEAD_BEEF)
        #expect(try r.uint64() == .max)
        #expect(try r.int64() == -42)
        #expect(try r.bool())
        #expect(try r.string() == "héllo")
        #expect(try r.lengthPrefixedBytes() == [1, 2, 3])
        #expect(r.atEnd)
    }

    @Test func truncatedOrInvalidInputThrows() {
        var w = CanonicalWriter()
        w.append(string: "a longer string")
        for cut in 0..<w.bytes.count {
            var r = CanonicalReader(Array(w.bytes[0..<cut]))
            #expect(throws: CanonicalReader.Malformed.self) { try r.string() }
        }
        var huge = CanonicalReader([0xFF, 0xFF, 0xFF, 0xFF, 0x41])
        #expect(throws: CanonicalReader.Malformed.self) { try huge.string() }
        var badUTF8 = CanonicalReader([0, 0, 0, 2, 0xC3, 0x28])
        #expect(throws: CanonicalReader.Malformed.self) { try badUTF8.string() }
    }

    @Test func limitedStringsCutAtACharacterBoundary() throws {
        var w = CanonicalWriter()
        w.append(string: "aé€")
        w.append(uint8: 9)  // 1 + 2 + 3 bytes
        var r = CanonicalReader(w.bytes)
        var truncated = false
        #expect(try r.string(limit: 4, truncated: &truncated) == "aé")
        #expect(truncated)
        #expect(try r.uint8() == 9, "the rest of the cut string is skipped")
    }
}
