import Foundation

/// One metric family in the Prometheus text format (version 0.0.4), the format every scraper
/// reads: what a server adds to its `/metrics` beside the HTTP figures the server keeps itself.
package struct Metric: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One line: the family's name plus `suffix` (`_bucket`, `_sum`, `_count` of a histogram),
    /// its labels in order, and the value.
    package struct Sample: Sendable, Equatable {
        package var suffix: String
        package var labels: [Label]
        package var value: Double

        package init(suffix: String = "", _ labels: [Label] = [], _ value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    package struct Label: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package var name: String
    package var help: String
    package var kind: Kind
    package var samples: [Sample]

    package init(_ name: String, _ kind: Kind, help: String, _ samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A family of one unlabelled sample.
    package init(_ name: String, _ kind: Kind, help: String, value: Double) {
        self.init(name, kind, help: help, [Sample([], value)])
    }

    /// The family as exposition text: `# HELP`, `# TYPE`, then one line per sample.
    package var text: String {
        var out = "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for s in samples {
            out += name + s.suffix
            if !s.labels.isEmpty {
                out += "{" + s.labels.map { "\($0.name)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
            }
            out += " " + Self.format(s.value) + "\n"
        }
        return out
    }

    /// Whole numbers print without a fraction (counters stay exact up to 2^53).
    package static func format(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 9.0e15 { return String(Int64(v)) }
        return String(v)
    }

    static func escapeLabel(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func escapeHelp(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
