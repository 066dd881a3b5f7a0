/// The fields of a JSON object, kept in the order they were added.
///
/// The order is for people: the CLI's `--json` output lists fields the way the HTTP API does.
/// It never reaches a signature or a hash: equality and hashing ignore it, and the canonical
/// `jsonData` writes keys sorted.
public struct JSONObject: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, Sequence {
    public typealias Element = (key: String, value: JSONValue)
    public typealias Key = String
    public typealias Value = JSONValue
    public typealias ArrayLiteralElement = (String, JSONValue)

    private var keysInOrder: [String] = []
    private var values: [String: JSONValue] = [:]

    public init() {}

    /// The fields of `dictionary`, in sorted key order.
    public init(_ dictionary: [String: JSONValue]) {
        values = dictionary
        keysInOrder = dictionary.keys.sorted()
    }

    /// `[("a", x), ("b", y)]`: fields in this order; a repeated key keeps its first place and last value.
    public init(_ fields: [(String, JSONValue)]) {
        for (k, v) in fields { self[k] = v }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
    public init(arrayLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keysInOrder.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keysInOrder.removeAll { $0 == key }
            }
        }
    }

    public var keys: [String] { keysInOrder }
    public var count: Int { keysInOrder.count }
    public var isEmpty: Bool { keysInOrder.isEmpty }
    /// The fields as a dictionary (no order).
    public var dictionary: [String: JSONValue] { values }

    public func makeIterator() -> some IteratorProtocol<Element> {
        keysInOrder.lazy.compactMap { k in values[k].map { (key: k, value: $0) } }.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.values == rhs.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    public init(from decoder: any Decoder) throws { self.init(try [String: JSONValue](from: decoder)) }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldName.self)
        for (k, v) in self { try c.encode(v, forKey: FieldName(k)) }
    }

    private struct FieldName: CodingKey {
        let stringValue: String
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
