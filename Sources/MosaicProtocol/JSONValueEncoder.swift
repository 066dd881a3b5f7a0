import Foundation

extension JSONValue {
    /// The JSON form of `value` through its own `Encodable` conformance, with the fields of each
    /// object in the order `encode(to:)` writes them (a synthesized conformance writes them in
    /// declaration order). This is how clients print a protocol type: the same keys and numbers
    /// the HTTP API sends, not a second copy written key by key.
    ///
    /// Integers keep their exact value (above `Int64.max` as `.unsigned`). A dictionary keyed by
    /// `String` or `Int` is an object with its keys in order (strings as Swift sorts them, integers
    /// by value), not in the order of its hash table, which changes from run to run; what a person
    /// or a test reads is then the same every time. A fractional floating
    /// point number throws `EncodingError.invalidValue`: amounts and counts are integers. A nil
    /// optional written with `encodeIfPresent` (what synthesized conformances do) is left out,
    /// or written as `null` with `nilAsNull`.
    /// - Throws: `EncodingError` for a float with a fraction, or whatever `value` itself throws.
    /// - Parameter nilAsNull: write a nil optional as `null` instead of leaving its key out, so a
    ///   person (or a script) sees every field; the canonical form (`false`) matches JSONEncoder.
    public init<T: Encodable>(encoding value: T, nilAsNull: Bool = false) throws {
        let root = EncodedNode(nilAsNull: nilAsNull)
        try EncodedNode.encode(value, into: root, codingPath: [])
        self = root.value
    }
}

/// A value being built by `JSONValueEncoder`; a reference, so containers handed out by an
/// encoder keep writing into the same place after the call that made them returns.
private final class EncodedNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([(String, EncodedNode)])
        case array([EncodedNode])
    }

    var content = Content.empty
    let nilAsNull: Bool

    init(nilAsNull: Bool) { self.nilAsNull = nilAsNull }

    var value: JSONValue {
        switch content {
        case .empty: return .object(JSONObject())
        case .value(let v): return v
        case .object(let fields): return .object(JSONObject(fields.map { ($0.0, $0.1.value) }))
        case .array(let items): return .array(items.map(\.value))
        }
    }

    /// The child for `key`, replacing an earlier one with the same key (its first place kept).
    func child(_ key: String) -> EncodedNode {
        var fields: [(String, EncodedNode)]
        if case .object(let f) = content { fields = f } else { fields = [] }
        let node = EncodedNode(nilAsNull: nilAsNull)
        if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = node } else { fields.append((key, node)) }
        content = .object(fields)
        return node
    }

    func append() -> EncodedNode {
        var items: [EncodedNode]
        if case .array(let a) = content { items = a } else { items = [] }
        let node = EncodedNode(nilAsNull: nilAsNull)
        items.append(node)
        content = .array(items)
        return node
    }

    var arrayCount: Int { if case .array(let a) = content { a.count } else { 0 } }

    static func encode<T: Encodable>(_ value: T, into node: EncodedNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let v as JSONValue: node.content = .value(v)
        case let v as JSONObject: node.content = .value(.object(v))
        // What JSONEncoder writes for these by default, rather than their keyed forms.
        case let v as URL: node.content = .value(.string(v.absoluteString))
        case let v as Data: node.content = .value(.string(v.base64EncodedString()))
        case let v as any SortedKeyDictionary where v.hasObjectForm: try v.encodeSorted(into: node, codingPath: codingPath)
        default: try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        }
    }

    static func integer<I: BinaryInteger>(_ v: I) -> JSONValue {
        if let i = Int64(exactly: v) { return .integer(i) }
        return .unsigned(UInt64(clamping: v))
    }

    static func float<F: BinaryFloatingPoint>(_ v: F, codingPath: [any CodingKey]) throws -> JSONValue {
        if let i = Int64(exactly: v) { return .integer(i) }
        throw EncodingError.invalidValue(
            v,
            EncodingError.Context(codingPath: codingPath, debugDescription: "only integers are JSON numbers here (amounts are base units)"))
    }
}

/// A dictionary that `Encodable` writes as an object (keys `String` or `Int`), written here with
/// its keys sorted.
private protocol SortedKeyDictionary {
    var hasObjectForm: Bool { get }
    func encodeSorted(into node: EncodedNode, codingPath: [any CodingKey]) throws
}

extension Dictionary: SortedKeyDictionary where Key: Comparable, Value: Encodable {
    fileprivate var hasObjectForm: Bool { Key.self == String.self || Key.self == Int.self }

    fileprivate func encodeSorted(into node: EncodedNode, codingPath: [any CodingKey]) throws {
        node.content = .object([])
        for (key, value) in sorted(by: { $0.key < $1.key }) {
            let name = "\(key)"
            try EncodedNode.encode(value, into: node.child(name), codingPath: codingPath + [FieldKey(name)])
        }
    }
}

private struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { Int(stringValue) }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(String(intValue)) }
}

private struct NodeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String
    init(_ i: Int) {
        intValue = i
        stringValue = String(i)
    }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { nil }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    private func set(_ v: JSONValue, _ key: Key) { node.child(key.stringValue).content = .value(v) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ v: Bool, forKey key: Key) throws { set(.bool(v), key) }
    mutating func encode(_ v: String, forKey key: Key) throws { set(.string(v), key) }
    mutating func encode(_ v: Double, forKey key: Key) throws { set(try EncodedNode.float(v, codingPath: codingPath + [key]), key) }
    mutating func encode(_ v: Float, forKey key: Key) throws { set(try EncodedNode.float(v, codingPath: codingPath + [key]), key) }
    mutating func encode(_ v: Int, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { set(EncodedNode.integer(v), key) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws {
        try EncodedNode.encode(v, into: node.child(key.stringValue), codingPath: codingPath + [key])
    }

    // Synthesized conformances write optionals through these: nil is left out, or null.
    mutating func encodeIfPresent(_ v: Bool?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: String?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Double?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Float?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Int?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Int8?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Int16?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Int32?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: Int64?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: UInt?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: UInt8?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: UInt16?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: UInt32?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent(_ v: UInt64?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { absent(key) } }
    mutating func encodeIfPresent<T: Encodable>(_ v: T?, forKey key: Key) throws {
        if let v { try encode(v, forKey: key) } else { absent(key) }
    }
    private func absent(_ key: Key) { if node.nilAsNull { set(.null, key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.child("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var count: Int { node.arrayCount }

    private func add(_ v: JSONValue) { node.append().content = .value(v) }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ v: Bool) throws { add(.bool(v)) }
    mutating func encode(_ v: String) throws { add(.string(v)) }
    mutating func encode(_ v: Double) throws { add(try EncodedNode.float(v, codingPath: nextPath)) }
    mutating func encode(_ v: Float) throws { add(try EncodedNode.float(v, codingPath: nextPath)) }
    mutating func encode(_ v: Int) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int8) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int16) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int32) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int64) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt8) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt16) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt32) throws { add(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt64) throws { add(EncodedNode.integer(v)) }
    mutating func encode<T: Encodable>(_ v: T) throws {
        let path = nextPath
        try EncodedNode.encode(v, into: node.append(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return NodeEncoder(node: node.append(), codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return NodeEncoder(node: node.append(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.append(), codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    private func set(_ v: JSONValue) { node.content = .value(v) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ v: Bool) throws { set(.bool(v)) }
    mutating func encode(_ v: String) throws { set(.string(v)) }
    mutating func encode(_ v: Double) throws { set(try EncodedNode.float(v, codingPath: codingPath)) }
    mutating func encode(_ v: Float) throws { set(try EncodedNode.float(v, codingPath: codingPath)) }
    mutating func encode(_ v: Int) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int8) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int16) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int32) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: Int64) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt8) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt16) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt32) throws { set(EncodedNode.integer(v)) }
    mutating func encode(_ v: UInt64) throws { set(EncodedNode.integer(v)) }
    mutating func encode<T: Encodable>(_ v: T) throws { try EncodedNode.encode(v, into: node, codingPath: codingPath) }
}
