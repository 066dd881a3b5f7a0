import MosaicProtocol

/// A contract's state record in compact binary: a version byte, then fields in a fixed order
/// written with `CanonicalWriter` (integers big-endian, strings behind a 4-byte length, bools as
/// one byte). Views decode a record per item they return, and this costs a fraction of JSON.
protocol ContractRecord {
    func write(to w: inout CanonicalWriter)
    init(from r: inout CanonicalReader) throws(CanonicalReader.Malformed)
}

enum ContractRecordFormat {
    static let version: UInt8 = 1
}

extension ContractRecord {
    var bytes: [UInt8] {
        var w = CanonicalWriter()
        w.append(uint8: ContractRecordFormat.version)
        write(to: &w)
        return w.bytes
    }

    /// The record in `bytes` (nil when absent); a record that does not decode is refused with its key.
    static func load(_ bytes: [UInt8]?, key: String) throws(ContractError) -> Self? {
        guard let bytes else { return nil }
        do {
            var r = CanonicalReader(bytes)
            guard try r.uint8() == ContractRecordFormat.version else { throw CanonicalReader.Malformed() }
            return try Self(from: &r)
        } catch {
            throw .refused(.stateUnavailable, "contract record \(key) is unreadable")
        }
    }
}
