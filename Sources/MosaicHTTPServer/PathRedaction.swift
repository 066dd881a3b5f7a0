import Foundation
import MosaicHTTP

/// Replaces server-side paths in error answers with placeholders (`$MOSAIC_HOME`, `$TMPDIR`, …),
/// so no error reveals where a server keeps its files, whichever code path built the message.
/// The messages stay useful: "`$MOSAIC_HOME`/locker/attempts.json is damaged" still says what to do.
struct PathRedaction: Sendable {
    /// (path as it may appear, placeholder), longest first so a folder inside another wins.
    let pairs: [(String, String)]

    /// Error bodies longer than this are left alone (error messages are short; file bodies are not data).
    static let maxBody = 1 << 20

    init(_ paths: [String: String]) {
        var list: [(String, String)] = []
        for (path, name) in paths {
            for variant in Self.variants(path) where !list.contains(where: { $0.0 == variant }) {
                list.append((variant, name))
            }
        }
        pairs = list.sorted { $0.0.utf8.count > $1.0.utf8.count }
    }

    /// The spellings a path can take in a message: as given, without a trailing slash, with
    /// symlinks resolved, and JSON-escaped (`JSONSerialization` writes `\/`).
    static func variants(_ path: String) -> [String] {
        var plain: [String] = []
        func add(_ p: String) {
            var p = p
            while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
            // "/" or a single name is not a private location; replacing it would garble every message.
            guard p.utf8.count >= 2, p != "/", !plain.contains(p) else { return }
            plain.append(p)
        }
        add(path)
        add(URL(fileURLWithPath: path).standardizedFileURL.path)
        add(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        return plain + plain.map { $0.replacingOccurrences(of: "/", with: "\\/") }.filter { !plain.contains($0) }
    }

    func apply(_ response: HTTPResponse) -> HTTPResponse {
        guard !pairs.isEmpty, response.status >= 400, case .data(let data) = response.body, data.count <= Self.maxBody,
            var text = String(data: data, encoding: .utf8)
        else { return response }
        var changed = false
        for (path, name) in pairs where text.contains(path) {
            text = text.replacingOccurrences(of: path, with: name)
            changed = true
        }
        guard changed else { return response }
        var r = response
        r.body = .data(Data(text.utf8))
        return r
    }
}
