import Foundation

extension JSONValue {
    /// Compact JSON text with object keys sorted (the same bytes `JSONEncoder` with `.sortedKeys`
    /// and `.withoutEscapingSlashes` writes), produced directly: Foundation's encoder spends about
    /// 15 µs a value on this enum, which made a 20-post feed page cost 8 ms to encode.
    public var jsonData: Data {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(into: &out, sortedKeys: true)
        return Data(out)
    }

    /// Compact JSON text with the fields of each object in their order: for people (the CLI's
    /// `--json`), never for a hash or signature (those use `jsonData`).
    public func rendered() -> String {
        var out: [UInt8] = []
        write(into: &out, sortedKeys: false)
        return String(decoding: out, as: UTF8.self)
    }

    func write(into out: inout [UInt8], sortedKeys: Bool) {
        switch self {
        case .null: out.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c])
        case .bool(let b): out.append(contentsOf: b ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6c, 0x73, 0x65])
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .unsigned(let u): out.append(contentsOf: String(u).utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(0x5b)
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(0x2c) }
                item.write(into: &out, sortedKeys: sortedKeys)
            }
            out.append(0x5d)
        case .object(let fields):
            out.append(0x7b)
            // Keys sorted as `.sortedKeys` sorts them (String order: byte order for the ASCII keys contracts use).
            let ordered = sortedKeys ? fields.sorted { $0.key < $1.key } : Array(fields)
            for (n, field) in ordered.enumerated() {
                if n > 0 { out.append(0x2c) }
                JSONValue.writeString(field.key, into: &out)
                out.append(0x3a)
                field.value.write(into: &out, sortedKeys: sortedKeys)
            }
            out.append(0x7d)
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        // Most strings need no escapes: copy them whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c }) {
            out.append(contentsOf: s.utf8)
            out.append(0x22)
            return
        }
        let hex: [UInt8] = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66]
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5c, 0x22])
            case 0x5c: out.append(contentsOf: [0x5c, 0x5c])
            case 0x0a: out.append(contentsOf: [0x5c, 0x6e])
            case 0x0d: out.append(contentsOf: [0x5c, 0x72])
            case 0x09: out.append(contentsOf: [0x5c, 0x74])
            case 0x08: out.append(contentsOf: [0x5c, 0x62])
            case 0x0c: out.append(contentsOf: [0x5c, 0x66])
            case 0..<0x20: out.append(contentsOf: [0x5c, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}

extension ContractViewResult {
    /// `{"result":…,"round":N}` as `jsonData` writes it (sorted keys), for the node's answers.
    public var jsonData: Data {
        JSONValue.object(["round": .integer(Int64(clamping: round)), "result": result]).jsonData
    }
}
