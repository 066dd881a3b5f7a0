import Foundation

extension JSONValue {
    /// Compact JSON text with object keys sorted (the same bytes `JSONEncoder` with `.sortedKeys`
    /// and `.withoutEscapingSlashes` writes), produced directly: Foundation's encoder spends about
    /// 15 µs a value on this enum, which made a 20-post feed page cost 8 ms to encode.
    public var jsonData: Data {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(into: &out)
        return Data(out)
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c])
        case .bool(let b): out.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(0x5b)
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(0x2c) }
                item.write(into: &out)
            }
            out.append(0x5d)
        case .object(let fields):
            out.append(0x7b)
            for (n, key) in fields.keys.sorted().enumerated() {
                if n > 0 { out.append(0x2c) }
                JSONValue.writeString(key, into: &out)
                out.append(0x3a)
                fields[key]?.write(into: &out)
            }
            out.append(0x7d)
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var text = s
        text.withUTF8 { utf8 in
            // Runs that need no escape are copied at once (note bodies are long and plain).
            var run = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                if b >= 0x20 && b != 0x22 && b != 0x5c { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                escape(b, into: &out)
                run = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
        out.append(0x22)
    }

    private static func escape(_ b: UInt8, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        switch b {
        case 0x22: out.append(contentsOf: [0x5c, 0x22])
        case 0x5c: out.append(contentsOf: [0x5c, 0x5c])
        case 0x0a: out.append(contentsOf: [0x5c, 0x6e])
        case 0x0d: out.append(contentsOf: [0x5c, 0x72])
        case 0x09: out.append(contentsOf: [0x5c, 0x74])
        case 0x08: out.append(contentsOf: [0x5c, 0x62])
        case 0x0c: out.append(contentsOf: [0x5c, 0x66])
        default: out.append(contentsOf: [0x5c, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
        }
    }
}

extension ContractViewResult {
    /// `{"result":…,"round":N}` as `jsonData` writes it (sorted keys), for the node's answers.
    public var jsonData: Data {
        JSONValue.object(["round": .integer(Int64(clamping: round)), "result": result]).jsonData
    }
}
