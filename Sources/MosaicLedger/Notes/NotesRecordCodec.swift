/// The notes contract's records in a compact binary form: a version byte, then fields in a fixed
/// order — integers as 8 bytes big-endian, strings as a 4-byte big-endian length and UTF-8, a bool
/// as one byte. Views decode a record per note read, and this costs a fraction of JSON.
protocol NotesRecordCodable {
    func write(to w: inout NotesRecordWriter)
    init(from r: inout NotesRecordReader) throws(NotesRecordReader.Malformed)
}

extension NotesRecordCodable {
    var bytes: [UInt8] {
        var w = NotesRecordWriter()
        write(to: &w)
        return w.bytes
    }
}

struct NotesRecordWriter {
    static let version: UInt8 = 1
    private(set) var bytes: [UInt8] = [NotesRecordWriter.version]

    mutating func u64(_ v: UInt64) { for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(s))) } }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func string(_ s: String) {
        let u = Array(s.utf8)
        let n = UInt32(truncatingIfNeeded: u.count)
        for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: n >> UInt32(s))) }
        bytes += u
    }
}

struct NotesRecordReader {
    struct Malformed: Error {}
    private let bytes: [UInt8]
    private var at = 1

    init(_ bytes: [UInt8]) throws(Malformed) {
        guard bytes.first == NotesRecordWriter.version else { throw Malformed() }
        self.bytes = bytes
    }

    private mutating func take(_ n: Int) throws(Malformed) -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - at >= n else { throw Malformed() }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    mutating func u64() throws(Malformed) -> UInt64 { try take(8).reduce(0) { $0 << 8 | UInt64($1) } }
    mutating func i64() throws(Malformed) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func bool() throws(Malformed) -> Bool { try take(1).first == 1 }
    mutating func string() throws(Malformed) -> String {
        let n = try take(4).reduce(0) { $0 << 8 | Int($1) }
        guard let s = String(validating: try take(n), as: UTF8.self) else { throw Malformed() }
        return s
    }
}

extension NotesContract {
    static func load<T: NotesRecordCodable>(_ bytes: [UInt8]?, key: String) throws(ContractError) -> T? {
        guard let bytes else { return nil }
        do {
            var r = try NotesRecordReader(bytes)
            return try T(from: &r)
        } catch {
            throw .refused("notes record \(key) is unreadable")
        }
    }
}
