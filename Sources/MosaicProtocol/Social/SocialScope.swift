import Foundation
import MosaicErrors

/// What a grant lets an app do for a user: `comment` (posts, replies, edits) or `vote`.
public enum SocialScope: String, Sendable, Hashable, Codable, CaseIterable {
    case comment
    case vote

    /// Parses "vote,comment" (any order, spaces allowed); nil names the bad word.
    public static func parseList(_ text: String) -> Result<[SocialScope], SocialScopeError> {
        var out: [SocialScope] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !word.isEmpty {
            guard let s = SocialScope(rawValue: word) else { return .failure(SocialScopeError(word: word)) }
            if !out.contains(s) { out.append(s) }
        }
        if out.isEmpty { return .failure(SocialScopeError(word: text)) }
        return .success(out.sorted { $0.rawValue < $1.rawValue })
    }
}

/// A scope word that is neither `vote` nor `comment`.
public struct SocialScopeError: CodedError, Sendable, CustomStringConvertible {
    public let word: String
    public var code: String { "invalid_scope" }
    public var description: String { "unknown scope \"\(word)\": use vote, comment or vote,comment" }
}
