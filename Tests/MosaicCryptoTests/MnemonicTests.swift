import Foundation
import Testing

@testable import MosaicCrypto

private struct VectorFile: Decodable {
    struct Vector: Decodable {
        let entropy: String
        let mnemonic: String
        let seed: String
    }
    let passphrase: String
    let vectors: [Vector]
}

private func loadVectors() throws -> VectorFile {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors/bip39-english.json")
    return try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
}

@Suite struct MnemonicTests {
    @Test func allPublishedVectorsEntropyToWordsAndSeed() throws {
        let file = try loadVectors()
        #expect(file.vectors.count == 24)
        for v in file.vectors {
            let entropy = try #require(Hex.decode(v.entropy))
            let fromEntropy = try Mnemonic(entropy: SecretBytes(entropy))
            #expect(fromEntropy.revealPhrase() == v.mnemonic)
            let parsed = try Mnemonic(phrase: v.mnemonic)
            #expect(Hex.encode(parsed.entropy.copyBytes()) == v.entropy)
            #expect(Hex.encode(parsed.seed(passphrase: file.passphrase).copyBytes()) == v.seed)
        }
    }

    @Test func normalizesWhitespaceAndCase() throws {
        let m = try Mnemonic(phrase: "  Legal WINNER thank\tyear wave sausage\n worth useful legal winner thank yellow ")
        #expect(m.revealPhrase() == "legal winner thank year wave sausage worth useful legal winner thank yellow")
    }

    @Test func generatesTwentyFourWordsThatParseBack() throws {
        let m = Mnemonic.generate()
        #expect(m.wordCount == 24)
        #expect(try Mnemonic.generate(wordCount: 12).revealWords().count == 12)
        #expect(throws: MnemonicError.wrongWordCount(13)) { try Mnemonic.generate(wordCount: 13) }
        #expect(m.revealWords().count == 24)
        #expect(try Mnemonic(phrase: m.revealPhrase()) == m)
        #expect(Mnemonic.generate() != m)
    }

    @Test func unknownWordNamesPositionAndNearestWords() {
        let phrase = "legal winner thank year wave sausage worht useful legal winner thank yellow"
        do {
            _ = try Mnemonic(phrase: phrase)
            Issue.record("should have failed")
        } catch {
            guard case .unknownWord(let position, let word, let sugg) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(position == 7 && word == "worht")
            #expect(sugg.first == "worth")
            #expect(sugg.count <= 3)
            #expect(error.description.hasPrefix("word 7 \"worht\" is not in the BIP-39 English list; did you mean \"worth\""))
        }
    }

    @Test func checksumFailureIsExplained() {
        // Two valid words swapped.
        let phrase = "winner legal thank year wave sausage worth useful legal winner thank yellow"
        #expect(throws: MnemonicError.checksumMismatch) { try Mnemonic(phrase: phrase) }
        #expect(
            MnemonicError.checksumMismatch.description
                == "the words are valid but the checksum fails: a word is probably wrong or out of order")
    }

    @Test func wrongWordCount() {
        #expect(throws: MnemonicError.wrongWordCount(11)) {
            try Mnemonic(phrase: "legal winner thank year wave sausage worth useful legal winner thank")
        }
        #expect(throws: MnemonicError.wrongWordCount(0)) { try Mnemonic(phrase: "   ") }
        #expect(throws: MnemonicError.invalidEntropyLength(15)) { try Mnemonic(entropy: SecretBytes([UInt8](repeating: 0, count: 15))) }
    }

    @Test func phraseIsRedacted() throws {
        let m = try Mnemonic(phrase: "legal winner thank year wave sausage worth useful legal winner thank yellow")
        for text in ["\(m)", String(reflecting: m), String(describing: [m])] {
            #expect(!text.contains("legal"))
            #expect(!text.contains("7f7f"))
        }
        var dumped = ""
        dump(m, to: &dumped)
        #expect(!dumped.contains("legal") && !dumped.contains("7f7f"))
    }

    @Test func suggestionsForCommonTypos() {
        #expect(Mnemonic.suggestions(for: "abandn").first == "abandon")
        #expect(Mnemonic.suggestions(for: "zoooo").contains("zoo"))
        #expect(Mnemonic.suggestions(for: "xqzjvk").isEmpty)
    }
}
