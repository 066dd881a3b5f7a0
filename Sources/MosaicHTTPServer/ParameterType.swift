import Foundation
import Synchronization

/// The type and bounds of a path or query parameter: what the server checks before a handler
/// runs and what `/openapi.json` publishes, from the one declaration.
package indirect enum ParameterType: Sendable {
    /// A decimal integer within the range (no overflow possible: parsed straight into Int64).
    case integer(ClosedRange<Int64>)
    /// A finite decimal number within the range.
    case number(ClosedRange<Double>)
    /// Text of at most `maxLength` bytes; `pattern` (anchored, `^…$`) must match the whole of it.
    /// `hint` says in words what the pattern wants, for the error message.
    case string(maxLength: Int, pattern: String? = nil, hint: String? = nil)
    /// One of the listed words.
    case choice([String])
    /// `true`/`false` (also `1`/`0`).
    case boolean
    /// The first of the alternatives that accepts the text (e.g. a round number or a block hash).
    case either(ParameterType, ParameterType)

    /// 64 lowercase hex characters: a client id, transaction, allocation or blobber id.
    public static let hex64 = ParameterType.string(maxLength: 64, pattern: "^[0-9a-f]{64}$", hint: "64 lowercase hex characters")

    /// Every round number the ledger can hold (it stores rounds as SQLite's signed 64-bit integers).
    public static let round = ParameterType.integer(0...Int64.max)

    /// The checked value of `text`, or nil when it does not fit this type.
    public func parse(_ text: String) -> ParameterValue? {
        switch self {
        case .integer(let range):
            guard let v = Int64(text), range.contains(v) else { return nil }
            return .integer(v)
        case .number(let range):
            // Only plain decimals: Double("nan"), "inf" and hex floats are refused by the isFinite check
            // and the character filter.
            guard text.utf8.count <= 32, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
                let v = Double(text), v.isFinite, range.contains(v)
            else { return nil }
            return .number(v)
        case .string(let maxLength, let pattern, _):
            guard text.utf8.count <= maxLength else { return nil }
            if let pattern, !Self.matches(text, pattern) { return nil }
            return .string(text)
        case .choice(let words):
            return words.contains(text) ? .string(text) : nil
        case .boolean:
            switch text {
            case "true", "1": return .boolean(true)
            case "false", "0": return .boolean(false)
            default: return nil
            }
        case .either(let a, let b):
            return a.parse(text) ?? b.parse(text)
        }
    }

    /// What an acceptable value looks like, in words, for error messages.
    public var expectation: String {
        switch self {
        case .integer(let r): return "an integer from \(r.lowerBound) to \(r.upperBound)"
        case .number(let r): return "a number from \(Self.format(r.lowerBound)) to \(Self.format(r.upperBound))"
        case .string(let maxLength, let pattern, let hint):
            if let hint { return hint }
            if let pattern { return "text matching \(pattern) (at most \(maxLength) bytes)" }
            return "text of at most \(maxLength) bytes"
        case .choice(let words): return "one of \(words.joined(separator: ", "))"
        case .boolean: return "true or false"
        case .either(let a, let b): return "\(a.expectation), or \(b.expectation)"
        }
    }

    /// The OpenAPI 3.1 schema of this type.
    var schema: [String: Any] {
        switch self {
        case .integer(let r): return ["type": "integer", "format": "int64", "minimum": r.lowerBound, "maximum": r.upperBound]
        case .number(let r): return ["type": "number", "minimum": r.lowerBound, "maximum": r.upperBound]
        case .string(let maxLength, let pattern, _):
            var s: [String: Any] = ["type": "string", "maxLength": maxLength]
            if let pattern { s["pattern"] = pattern }
            return s
        case .choice(let words): return ["type": "string", "enum": words]
        case .boolean: return ["type": "boolean"]
        case .either(let a, let b): return ["anyOf": [a.schema, b.schema]]
        }
    }

    private static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// Patterns are fixed strings from route declarations; each is compiled once.
    private static let compiled = PatternCache()

    static func matches(_ text: String, _ pattern: String) -> Bool {
        compiled.matches(text, pattern)
    }
}

/// A checked parameter value.
package enum ParameterValue: Sendable, Equatable {
    case integer(Int64)
    case number(Double)
    case string(String)
    case boolean(Bool)
}

/// Compiled declaration patterns. `@unchecked Sendable`: NSRegularExpression is immutable and
/// thread-safe once built; the table is behind a Mutex.
final class PatternCache: @unchecked Sendable {
    private let table = Mutex<[String: NSRegularExpression]>([:])

    func matches(_ text: String, _ pattern: String) -> Bool {
        let regex: NSRegularExpression? = table.withLock { t in
            if let r = t[pattern] { return r }
            let r = try? NSRegularExpression(pattern: pattern)
            t[pattern] = r
            return r
        }
        guard let regex else { return false }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return regex.firstMatch(in: text, options: [.anchored], range: range).map { $0.range == range } ?? false
    }
}
