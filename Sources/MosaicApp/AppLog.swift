import Foundation
import MosaicSDK

/// What the app writes to its access log. The server logs only the method, the path without its
/// query, the status, the size and the time: never a request body (where a share link's key and a
/// locker PIN travel) and never a URL fragment (browsers do not send it). Share tickets in paths
/// are shortened too: an old-form link (`/s/mosaic-ticket:…` with the key inside) would otherwise
/// put the key in the log.
enum AppLog {
    static func redact(_ line: String) -> String {
        guard line.contains(ShareToken.prefix) else { return line }
        var out = ""
        var rest = Substring(line)
        while let r = rest.range(of: ShareToken.prefix) {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            let token = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "=" || $0 == "+" || $0 == "%" }
            rest = rest[token.endIndex...]
            out += token.isEmpty ? "" : "…"
        }
        return out + rest
    }
}
