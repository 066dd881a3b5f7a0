import MosaicStorageCore

/// A file or folder as `ls` and `stat` print it with `--json`: what a listing shows of its
/// `FileMeta` (not its fragment roots, key or signature), with its name and `type` (`file` or
/// `folder`) spelled out.
struct FileEntryOutput: Encodable {
    let path: String
    let name: String
    let type: String
    let size: Int64
    let contentType: String
    let created: Int64
    let modified: Int64

    enum CodingKeys: String, CodingKey {
        case path, name, type, size
        case contentType = "content_type"
        case created, modified
    }

    init(_ m: FileMeta) {
        path = m.path
        name = m.path.split(separator: "/").last.map(String.init) ?? "/"
        type = m.kind == .directory ? "folder" : "file"
        size = m.size
        contentType = m.contentType
        created = m.created
        modified = m.modified
    }
}
