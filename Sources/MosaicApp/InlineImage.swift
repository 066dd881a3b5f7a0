import Foundation
import MosaicHTTP
import MosaicHTTPServer

/// The only user files the app lets a browser show in place: PNG, JPEG, GIF and WebP, recognised
/// by their first bytes. The name and the type the uploader gave are never trusted, since a
/// file called `cat.png` typed `image/png` may hold HTML or SVG with script.
enum InlineImage: String, Sendable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"

    /// Bytes needed to tell the four apart.
    static let headLength = 12

    static func sniff(_ head: [UInt8]) -> InlineImage? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// The type of the file at `path` from its first bytes; nil when it is none of the four (or unreadable).
    static func sniff(fileAt path: String) -> InlineImage? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headLength) else { return nil }
        return sniff(Array(head))
    }
}

extension AppServer {
    /// A user's file (decrypted into `path`) as an answer. Shown inline only when `inline` is
    /// asked for and the bytes are one of the `InlineImage` types; everything else is an
    /// attachment of type `application/octet-stream`. Always `nosniff`, and a sandboxing CSP so
    /// that even a file opened on its own in a tab runs no script in the app's origin.
    static func userFile(atPath path: String, name: String, inline: Bool) throws -> HTTPResponse {
        let image = InlineImage.sniff(fileAt: path)
        var response = try HTTPResponse.file(atPath: path, contentType: image?.rawValue ?? "application/octet-stream")
        let show = inline && image != nil
        response.headers.add("Content-Disposition", contentDisposition(show ? "inline" : "attachment", name: name))
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Content-Security-Policy", "sandbox; default-src 'none'")
        return response
    }

    /// `attachment; filename="ascii"; filename*=UTF-8''percent-encoded`: the quoted name keeps
    /// printable ASCII only (no quote, backslash or line break can end the header early).
    static func contentDisposition(_ kind: String, name: String) -> String {
        let ascii = String(name.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" })
        let fallback = ascii.isEmpty ? "file" : ascii
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? fallback
        return "\(kind); filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }
}
