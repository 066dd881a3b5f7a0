/// Rules for remote paths: absolute, "/"-separated, no empty, "." or ".." parts, no NUL, at most
/// 1024 bytes. "/" is the allocation's root folder and cannot hold metadata itself.
package enum RemotePath {
    public static let maxBytes = 1024

    public static func validate(_ path: String) throws(StorageRequestError) {
        guard path.hasPrefix("/"), path != "/", !path.hasSuffix("/"), path.utf8.count <= maxBytes, !path.utf8.contains(0) else {
            throw .invalid(
                "'\(path)' is not a valid remote path: use an absolute path like /photos/cat.jpg (no trailing '/', at most \(maxBytes) bytes)"
            )
        }
        for part in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard !part.isEmpty, part != ".", part != ".." else {
                throw .invalid("'\(path)' is not a valid remote path: empty, '.' and '..' parts are not allowed")
            }
        }
    }

    /// "/a/b/c" → "/a/b"; "/a" → "/".
    public static func parent(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/"), i != path.startIndex else { return "/" }
        return String(path[..<i])
    }

    public static func name(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: i)...])
    }

    /// True when `path` is `folder` itself or inside it.
    public static func isWithin(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// "/a/b/c" → ["/a", "/a/b"].
    public static func ancestors(_ path: String) -> [String] {
        var out: [String] = []
        var p = parent(path)
        while p != "/" {
            out.insert(p, at: 0)
            p = parent(p)
        }
        return out
    }
}
