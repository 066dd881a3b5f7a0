import MosaicErrors

/// Why a recovery phrase was rejected, phrased so the user knows which word to look at.
public enum MnemonicError: CodedError, Equatable, Sendable, CustomStringConvertible {
    /// The phrase has a word count BIP-39 does not define.
    case wrongWordCount(Int)
    /// Word `position` (1-based) is not in the English list; `suggestions` are the nearest valid words.
    case unknownWord(position: Int, word: String, suggestions: [String])
    /// Every word is valid but the embedded checksum does not match.
    case checksumMismatch
    /// Entropy must be 16, 20, 24, 28 or 32 bytes.
    case invalidEntropyLength(Int)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .wrongWordCount: return "wrong_word_count"
        case .unknownWord: return "unknown_word"
        case .checksumMismatch: return "checksum_mismatch"
        case .invalidEntropyLength: return "invalid_entropy_length"
        }
    }

    public var description: String {
        switch self {
        case .wrongWordCount(let n):
            return "a recovery phrase has 12, 15, 18, 21 or 24 words, but this one has \(n); check for missing or extra words"
        case .unknownWord(let position, let word, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            return "word \(position) \"\(word)\" is not in the BIP-39 English list\(hint)"
        case .checksumMismatch:
            return "the words are valid but the checksum fails: a word is probably wrong or out of order"
        case .invalidEntropyLength(let n):
            return "mnemonic entropy must be 16, 20, 24, 28 or 32 bytes, got \(n)"
        }
    }
}
