import MosaicStorageCore

/// One file in the Locker, as listed (no key material).
public struct LockerEntry: Sendable, Equatable {
    public let name: String
    public let size: Int64
    public let contentType: String
    public let created: Int64
    public let modified: Int64

    init(_ m: FileMeta) {
        name = RemotePath.name(m.path)
        size = m.size
        contentType = m.contentType
        created = m.created
        modified = m.modified
    }
}
