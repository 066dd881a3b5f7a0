import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

/// docs/PROTOCOL.md §2.9: a block names its producer in its signing bytes (layout v2) and carries
/// the producer's Ed25519 signature; one without a producer keeps the v1 layout, so the hashes of
/// blocks stored before blocks were signed do not change.
@Suite struct SignedBlockTests {
    /// The producer of the vectors: the Ed25519 key of seed 32 × 0x07.
    static func producerKey() throws -> Ed25519.SigningKey { try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 7, count: 32))) }

    static func vectorBlock() -> Block {
        Block(
            round: 5, previousHash: String(repeating: "ab", count: 32), timestamp: 1_700_000_000,
            transactionRoot: Block.merkleRoot([]), stateRoot: String(repeating: "cd", count: 32), transactionCount: 0,
            minerID: String(repeating: "ef", count: 32))
    }

    static let unsignedHash = "c6637e92647b44b91be11018b1a76fec394371f68851c7810334d6288ffd3096"
    static let producer = "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c"
    static let signedHash = "22e52058483a4159e4cf2e50dfc076792ebb53ac5c975f9720273c7f6e75374e"
    static let signature =
        "29ef4ae058018fda36a11ac94a79cb9d0f86ed5cff076fb13d173e4310befc4c3cd11066dbaf3b216ddfbd3786700b178fcddb8f5828e720be2404fba4117002"

    @Test func aSignedBlockMatchesTheDocumentedVectors() throws {
        let unsigned = Self.vectorBlock()
        #expect(unsigned.producer.isEmpty && unsigned.signature.isEmpty)
        #expect(Array(unsigned.signingBytes.prefix(19)) == [0, 0, 0, 15] + Array("mosaic-block-v1".utf8))
        #expect(unsigned.hash == Self.unsignedHash)
        let signed = unsigned.signed(by: try Self.producerKey())
        #expect(Array(signed.signingBytes.prefix(19)) == [0, 0, 0, 15] + Array("mosaic-block-v2".utf8))
        // v2 is v1's fields, then the producer's key as a string.
        let v2Domain: [UInt8] = [0, 0, 0, 15] + Array("mosaic-block-v2".utf8)
        let producerString: [UInt8] = [0, 0, 0, 64] + Array(signed.producer.utf8)
        #expect(signed.signingBytes == v2Domain + Array(unsigned.signingBytes.dropFirst(19)) + producerString)
        #expect(signed.producer == Self.producer)
        #expect(signed.hash == Self.signedHash)
        #expect(signed.signature == Self.signature)
        #expect(signed.fault(producers: [Self.producer]) == nil)
    }

    @Test func aReaderRefusesABlockThatWasChangedOrSignedByAnotherKey() throws {
        let key = try Self.producerKey()
        let listed = [key.publicKey.hex]
        let signed = Self.vectorBlock().signed(by: key)

        var changed = signed
        changed.stateRoot = String(repeating: "00", count: 32)
        #expect(changed.fault(producers: listed) == .hashMismatch)

        // Consistent in itself, but by a key the genesis does not list.
        let stranger = Self.vectorBlock().signed(by: Ed25519.SigningKey.generate())
        #expect(stranger.fault(producers: listed) == .unknownProducer(stranger.producer))
        // A chain whose genesis lists no producers accepts any block whose signature verifies.
        #expect(stranger.fault(producers: []) == nil)

        // The listed producer's name on a signature it did not make.
        var forged = stranger
        forged.producer = key.publicKey.hex
        forged.hash = forged.computedHash
        #expect(forged.fault(producers: listed) == .badSignature(.invalidSignature))

        var bare = signed
        bare.signature = ""
        #expect(bare.fault(producers: listed) == .badSignature(.malformedSignature))

        // Unsigned: fine on a chain from before signatures, refused on one that lists producers.
        #expect(Self.vectorBlock().fault(producers: []) == nil)
        #expect(Self.vectorBlock().fault(producers: listed) == .unsigned)

        var zero = Self.vectorBlock()
        zero.round = 0
        zero.hash = zero.computedHash
        #expect(zero.fault(producers: listed) == nil)
        #expect(zero.signed(by: key).fault(producers: listed) == .signedGenesis)
    }

    @Test func aBlockServedBeforeSignaturesDecodesWithoutProducer() throws {
        let b = Self.vectorBlock()
        let json = """
            {"round":5,"hash":"\(b.hash)","previous_hash":"\(b.previousHash)","timestamp":1700000000,\
            "transaction_root":"\(b.transactionRoot)","state_root":"\(b.stateRoot)","transaction_count":0,"miner_id":"\(b.minerID)"}
            """
        let decoded = try JSONDecoder().decode(Block.self, from: Data(json.utf8))
        #expect(decoded == b)
        let signed = b.signed(by: try Self.producerKey())
        #expect(try JSONDecoder().decode(Block.self, from: JSONEncoder().encode(signed)) == signed)
    }
}
