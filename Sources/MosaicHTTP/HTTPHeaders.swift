/// Header fields with case-insensitive lookup; order is kept because some headers repeat.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (n, v) in elements { add(n, v) }
    }
    public init(_ dictionary: [String: String]) {
        for (n, v) in dictionary.sorted(by: { $0.key < $1.key }) { add(n, v) }
    }

    /// The first value for `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }
        set {
            remove(name)
            if let v = newValue { add(name, v) }
        }
    }

    /// All values for `name` (e.g. several Set-Cookie lines).
    public func values(_ name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    public mutating func remove(_ name: String) {
        let key = name.lowercased()
        fields.removeAll { $0.name.lowercased() == key }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}
