import CCrypto
import Foundation

/// A BIP-39 recovery phrase (English list). The phrase is the account's master secret, so it is
/// held as its entropy in `SecretBytes`, never printed, and only turned into words on request.
public struct Mnemonic: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Word counts BIP-39 defines (128…256 bits of entropy in steps of 32).
    public static let validWordCounts = [12, 15, 18, 21, 24]

    /// The raw entropy (16–32 bytes) the words encode.
    public let entropy: SecretBytes

    /// Number of words in the phrase.
    public var wordCount: Int { entropy.count * 3 / 4 }

    /// A fresh 24-word phrase (256 bits of system randomness), what every new Mosaic account gets.
    public static func generate() -> Mnemonic {
        // 24 is a valid count, so this cannot fail.
        do { return try generate(wordCount: 24) } catch { fatalError("\(error)") }
    }

    /// A fresh phrase of 12, 15, 18, 21 or 24 words.
    public static func generate(wordCount: Int) throws(MnemonicError) -> Mnemonic {
        guard validWordCounts.contains(wordCount) else { throw .wrongWordCount(wordCount) }
        var bytes = Random.bytes(wordCount * 4 / 3)
        defer { SecretBytes.wipe(&bytes) }
        return try Mnemonic(entropy: SecretBytes(bytes))
    }

    /// Wraps existing entropy (16, 20, 24, 28 or 32 bytes).
    public init(entropy: SecretBytes) throws(MnemonicError) {
        guard [16, 20, 24, 28, 32].contains(entropy.count) else { throw .invalidEntropyLength(entropy.count) }
        self.entropy = entropy
    }

    /// Parses and validates a phrase: whitespace is normalised and case ignored; errors name the bad word.
    public init(phrase: String) throws(MnemonicError) {
        let words = Mnemonic.normalizedWords(phrase)
        guard Mnemonic.validWordCounts.contains(words.count) else { throw .wrongWordCount(words.count) }
        var indices = [Int]()
        indices.reserveCapacity(words.count)
        for (i, word) in words.enumerated() {
            guard let index = Mnemonic.wordIndex[word] else {
                throw .unknownWord(position: i + 1, word: word, suggestions: Mnemonic.suggestions(for: word))
            }
            indices.append(index)
        }
        // 11 bits per word: ENT bits of entropy followed by ENT/32 checksum bits.
        let totalBits = words.count * 11
        let checksumBits = totalBits / 33
        let entropyBytes = (totalBits - checksumBits) / 8
        var bits = [UInt8](repeating: 0, count: (totalBits + 7) / 8)
        defer { SecretBytes.wipe(&bits) }
        for (w, index) in indices.enumerated() {
            for b in 0..<11 where (index >> (10 - b)) & 1 == 1 {
                let pos = w * 11 + b
                bits[pos / 8] |= 0x80 >> UInt8(pos % 8)
            }
        }
        var ent = Array(bits[0..<entropyBytes])
        defer { SecretBytes.wipe(&ent) }
        let hash = SHA256.hash(ent)
        let mask = UInt8(0xff) << UInt8(8 - checksumBits)
        guard bits[entropyBytes] & mask == hash[0] & mask else { throw .checksumMismatch }
        self.entropy = SecretBytes(ent)
    }

    /// The words, for showing to the user once (at creation) or writing into an encrypted store.
    public func revealWords() -> [String] {
        entropy.withUnsafeBytes { raw in
            var ent = Array(raw)
            defer { SecretBytes.wipe(&ent) }
            let hash = SHA256.hash(ent)
            let totalBits = ent.count * 8 + ent.count / 4
            func bit(_ pos: Int) -> Int {
                let byte = pos / 8 < ent.count ? ent[pos / 8] : hash[pos / 8 - ent.count]
                return Int(byte >> UInt8(7 - pos % 8)) & 1
            }
            return stride(from: 0, to: totalBits, by: 11).map { start in
                var index = 0
                for b in 0..<11 { index = index << 1 | bit(start + b) }
                return BIP39Wordlist.english[index]
            }
        }
    }

    /// The phrase as one line of space-separated words.
    public func revealPhrase() -> String { revealWords().joined(separator: " ") }

    /// BIP-39 seed: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" + passphrase (both NFKD).
    public func seed(passphrase: String = "") -> SecretBytes {
        var phrase = Array(revealPhrase().decomposedStringWithCompatibilityMapping.utf8)
        defer { SecretBytes.wipe(&phrase) }
        let salt = Array(("mnemonic" + passphrase).decomposedStringWithCompatibilityMapping.utf8)
        var out = [UInt8](repeating: 0, count: 64)
        defer { SecretBytes.wipe(&out) }
        let ok = phrase.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { pc in
                PKCS5_PBKDF2_HMAC(pc.baseAddress, Int32(pc.count), salt, Int32(salt.count), 2048, EVP_sha512(), 64, &out)
            }
        }
        // PBKDF2 with valid arguments only fails when memory is exhausted.
        precondition(ok == 1, "OpenSSL PBKDF2 failed")
        return SecretBytes(out)
    }

    /// The Mosaic account key: SLIP-0010 ed25519 at `SLIP10.mosaicAccountPath` from `seed(passphrase:)`.
    public func signingKey(passphrase: String = "") -> Ed25519.SigningKey {
        SLIP10.signingKey(seed: seed(passphrase: passphrase), path: SLIP10.mosaicAccountPath)
    }

    public var description: String { "Mnemonic(<redacted \(wordCount) words>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    // MARK: helpers

    static let wordIndex: [String: Int] = {
        var d = [String: Int](minimumCapacity: 2048)
        for (i, w) in BIP39Wordlist.english.enumerated() { d[w] = i }
        return d
    }()

    static func normalizedWords(_ phrase: String) -> [String] {
        phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Up to three list words nearest to `word`: same 4-letter prefix first (BIP-39 words are
    /// unique in their first four letters), then by edit distance (at most 2, or 3 for long words).
    static func suggestions(for word: String) -> [String] {
        let typed = Array(word.utf8)
        let limit = typed.count >= 6 ? 3 : 2
        var scored: [(Int, String)] = []
        for candidate in BIP39Wordlist.english {
            let c = Array(candidate.utf8)
            if typed.count >= 4, c.count >= 4, typed.prefix(4) == c.prefix(4) {
                scored.append((0, candidate))
                continue
            }
            let d = editDistance(typed, c, limit: limit)
            if d <= limit { scored.append((d, candidate)) }
        }
        scored.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        return scored.prefix(3).map(\.1)
    }

    /// Edit distance counting an adjacent swap as one edit (optimal string alignment), since
    /// swapped letters are the commonest typo; returns `limit + 1` once every path exceeds `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            var rowMin = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                cur[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return limit + 1 }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }
}
