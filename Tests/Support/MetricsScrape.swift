import Foundation

/// A `/metrics` answer read back: each sample line's name with its labels (as written, e.g.
/// `mosaic_http_requests_total{method="GET",route="/x",status="200"}`) to its value, so tests
/// assert figures rather than text.
package struct MetricsScrape: Sendable {
    package var values: [String: Double] = [:]
    /// Names declared by `# TYPE` lines, with their kind.
    package var types: [String: String] = [:]

    package init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { types[String(parts[2])] = String(parts[3]) }
                continue
            }
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " ") else { continue }
            let value = line[line.index(after: space)...]
            values[String(line[..<space])] = value == "+Inf" ? .infinity : Double(value)
        }
    }

    /// The value of `name` with exactly these labels, written in the order the server writes them.
    package subscript(_ name: String, _ labels: KeyValuePairs<String, String> = [:]) -> Double? {
        let key = labels.isEmpty ? name : name + "{" + labels.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
        return values[key]
    }
}
