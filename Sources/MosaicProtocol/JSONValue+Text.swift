/// Compact JSON text of a `JSONValue`, written by hand: sorted keys, no escaped slashes — the same
/// form as the node's `JSONEncoder` — at a fraction of its cost (view answers are hot: a note page
/// through `JSONEncoder` spent more time encoding than reading the state).
extension JSONValue {
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, v) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                fields[key]?.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied at once.
            var run = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                escape(b, into: &out)
                run = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ b: UInt8, into out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
        }
    }
}

extension ContractViewResult {
    /// `{"result":…,"round":N}` as compact JSON (sorted keys, like the node's encoder).
    public var jsonBytes: [UInt8] {
        var out = Array("{\"result\":".utf8)
        result.write(into: &out)
        out += Array(",\"round\":\(round)}".utf8)
        return out
    }
}
