import Foundation
import Glibc

/// A local folder as a folder upload or sync sees it: its regular files (with size and mtime) and
/// its folders, by path relative to the root, sorted. Symbolic links, sockets, devices and
/// unreadable entries are not followed or sent; each is named in `skipped`, so the user learns
/// what was left out instead of silently losing it.
public struct LocalTree: Sendable {
    /// One regular file of the tree.
    public struct File: Sendable, Equatable {
        /// Path below the root, "/"-separated, no leading "/".
        public let relativePath: String
        /// Bytes.
        public let size: Int64
        /// Modification time, unix seconds (what the signed metadata of an upload records).
        public let modified: Int64
    }

    /// The folder walked.
    public let root: URL
    /// Regular files, sorted by relative path.
    public private(set) var files: [File] = []
    /// Every folder below the root (so empty ones are mirrored too), sorted.
    public private(set) var folders: [String] = []
    /// Entries left out, with why (symbolic links, special files, unreadable folders).
    public private(set) var skipped: [FolderIssue] = []

    /// Walks `root` without following symbolic links.
    /// - Parameter root: the local folder.
    /// - Throws: `StorageClientError.localFile` when `root` is not a readable folder.
    public init(walking root: URL) throws {
        self.root = root
        var st = stat()
        guard lstat(root.path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw StorageClientError.localFile(path: root.path, reason: "not a folder (give a folder to upload -r or sync)")
        }
        var queue = [""]
        while let rel = queue.popLast() {
            let dir = rel.isEmpty ? root.path : root.path + "/" + rel
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
                skipped.append(FolderIssue(path: rel, code: "local_file", message: "folder cannot be read; it was skipped"))
                continue
            }
            for name in names {
                let child = rel.isEmpty ? name : rel + "/" + name
                var s = stat()
                guard lstat(dir + "/" + name, &s) == 0 else {
                    skipped.append(FolderIssue(path: child, code: "local_file", message: "cannot be read; it was skipped"))
                    continue
                }
                switch s.st_mode & S_IFMT {
                case S_IFDIR:
                    folders.append(child)
                    queue.append(child)
                case S_IFREG:
                    files.append(File(relativePath: child, size: Int64(s.st_size), modified: Int64(s.st_mtim.tv_sec)))
                case S_IFLNK:
                    skipped.append(
                        FolderIssue(
                            path: child, code: "symlink", message: "a symbolic link; links are not followed, upload its target itself"))
                default:
                    skipped.append(FolderIssue(path: child, code: "special_file", message: "not a regular file or folder; it was skipped"))
                }
            }
        }
        files.sort { $0.relativePath < $1.relativePath }
        folders.sort()
        skipped.sort { $0.path < $1.path }
    }

    /// Plaintext bytes of every file.
    public var totalBytes: Int64 { files.reduce(0) { $0 &+ $1.size } }
}

/// One file or folder a folder operation could not handle, or left out: its path (relative to
/// the folder), an error code and a message saying what to do. Encodes as `{"path","code","message"}`.
public struct FolderIssue: Sendable, Equatable, Codable {
    /// Path relative to the folder.
    public let path: String
    /// A stable code (`StorageClientError.code` values, or `symlink`, `special_file`).
    public let code: String
    /// What happened and what to do.
    public let message: String

    /// - Parameters:
    ///   - path: path relative to the folder.
    ///   - code: the stable code.
    ///   - message: the user's message.
    public init(path: String, code: String, message: String) {
        self.path = path
        self.code = code
        self.message = message
    }
}
