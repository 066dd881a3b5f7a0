import MosaicStorageCore

/// One file in the Locker, as listed (no key material). Encodes as
/// `{"name","size","content_type","created","modified"}`.
public struct LockerEntry: Sendable, Equatable, Encodable {
    /// Its name in the locker.
    public let name: String
    /// Plaintext bytes.
    public let size: Int64
    /// The MIME type recorded at upload.
    public let contentType: String
    /// Unix seconds it was first stored.
    public let created: Int64
    /// Unix seconds of its latest change.
    public let modified: Int64

    enum CodingKeys: String, CodingKey {
        case name, size
        case contentType = "content_type"
        case created, modified
    }

    init(_ m: FileMeta) {
        name = RemotePath.name(m.path)
        size = m.size
        contentType = m.contentType
        created = m.created
        modified = m.modified
    }
}
