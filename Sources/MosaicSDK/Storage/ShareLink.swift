import Foundation
import MosaicCrypto

/// A public share as a web link: `APP/s/TICKET#key=HEX`. The ticket in the path carries no key;
/// the content key sits in the URL fragment, which browsers never send to a server nor put in a
/// `Referer`, so it reaches neither the app's access log nor another site. The share page reads
/// the fragment and hands the key over in the body of a POST.
///
/// Old links carried the key inside the ticket (`/s/mosaic-ticket:…` whose JSON has `key`); they
/// are still read (`ShareToken.decode(link:)`), and the app answers them with a redirect to the
/// new form.
extension ShareToken {
    /// The fragment parameter that holds the content key.
    public static let keyParameter = "key"

    /// This token without its clear key: what a link's path carries.
    public var withoutKey: ShareToken {
        var t = self
        t.key = nil
        return t
    }

    /// `/s/TICKET#key=HEX` for a public link, `/s/TICKET` for one sealed to a wallet.
    public var linkPath: String {
        "/s/" + withoutKey.encoded + (key.map { "#\(Self.keyParameter)=\($0)" } ?? "")
    }

    /// `base/s/TICKET#key=HEX`: the link on the web app at `base`.
    /// - Parameter base: the web app's base URL.
    public func link(base: URL) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text + linkPath
    }

    /// This token with a clear key given apart from it (a link's fragment, the share page's POST).
    /// The key must be 64 hex characters; whether it is the right one shows when the file is
    /// opened (AES-GCM fails), since the key is outside the ticket's signature.
    /// - Parameter keyHex: the content key in hex.
    /// - Returns: the token with `key` set.
    /// - Throws: `ShareTokenError.malformed` when `keyHex` is not 64 hex characters.
    public func with(keyHex: String) throws(ShareTokenError) -> ShareToken {
        let hex = keyHex.trimmingCharacters(in: .whitespaces).lowercased()
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex), bytes.count == 32 else {
            throw .malformed("the link's key is damaged (it must be 64 hex characters after #key=); copy the whole link again")
        }
        var t = self
        t.key = hex
        return t
    }

    /// Reads what a user pastes: a link in the new form (`…/s/TICKET#key=HEX`), an old link
    /// (`…/s/mosaic-ticket:…` with the key inside), or a bare ticket string.
    /// - Parameter text: the pasted link or ticket.
    /// - Returns: the token with its key, if the link carried one.
    /// - Throws: `ShareTokenError.malformed` when it is none of these or its ticket does not verify.
    public static func decode(link text: String) throws(ShareTokenError) -> ShareToken {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !s.hasPrefix(prefix) else { return try decode(s) }
        let withoutFragment: Substring
        var fragment: Substring = ""
        if let hash = s.firstIndex(of: "#") {
            withoutFragment = s[..<hash]
            fragment = s[s.index(after: hash)...]
        } else {
            withoutFragment = s[...]
        }
        guard let marker = withoutFragment.range(of: "/s/" + prefix) else {
            throw .malformed("this is neither a share link (…/s/mosaic-ticket:…) nor a ticket; copy the whole line 'mosaic share' printed")
        }
        var ticket = String(withoutFragment[withoutFragment.index(marker.lowerBound, offsetBy: 3)...])
        if let end = ticket.firstIndex(where: { $0 == "/" || $0 == "?" }) { ticket = String(ticket[..<end]) }
        var token = try decode(ticket.removingPercentEncoding ?? ticket)
        for part in fragment.split(separator: "&") where part.hasPrefix(keyParameter + "=") {
            token = try token.with(keyHex: String(part.dropFirst(keyParameter.count + 1)))
        }
        return token
    }
}
