import Foundation
import Synchronization

/// Rendered answers of contract views at a given round. The state at a round never changes once
/// its block is committed, so an answer keyed by (contract, view, arguments, round) stays right;
/// a front page read by many clients at the latest sealed round is then computed once per round.
/// Only the newest round seen is kept: when reads move to a new round the older answers go.
final class ViewAnswerCache: Sendable {
    private struct Entries {
        var round: UInt64 = 0
        var answers: [String: Data] = [:]
        var bytes = 0
    }

    private let entries = Mutex(Entries())
    let maxBytes: Int
    let maxAnswerBytes: Int

    init(maxBytes: Int = 32 << 20, maxAnswerBytes: Int = 1 << 20) {
        self.maxBytes = maxBytes
        self.maxAnswerBytes = maxAnswerBytes
    }

    static func key(contract: String, view: String, args: Data, round: UInt64) -> String {
        contract + "\u{0}" + view + "\u{0}" + String(decoding: args, as: UTF8.self) + "\u{0}" + String(round)
    }

    func answer(_ key: String) -> Data? { entries.withLock { $0.answers[key] } }

    /// Keeps `answer` unless it belongs to a round older than the newest one kept; a cache that
    /// would outgrow `maxBytes` starts over.
    func store(_ key: String, round: UInt64, answer: Data) {
        guard answer.count <= maxAnswerBytes else { return }
        entries.withLock { e in
            if round < e.round { return }
            if round > e.round || e.bytes + answer.count > maxBytes { e = Entries(round: round) }
            if e.answers.updateValue(answer, forKey: key) == nil { e.bytes += answer.count }
        }
    }
}
