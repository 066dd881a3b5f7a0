import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK
import Testing

/// Share links keep the content key in the URL fragment, which browsers never send to a server.
@Suite struct ShareLinkTests {
    func token(recipient: Ed25519.PublicKey? = nil) throws -> (ShareToken, String) {
        let key = SecretBytes(Random.bytes(32))
        let t = try ShareToken(
            owner: Ed25519.SigningKey.generate(), allocationID: String(repeating: "b", count: 64), path: "/docs/a b.pdf",
            kind: .file, contentKey: key, recipient: recipient, expiration: 0)
        return (t, Hex.encode(key.copyBytes()))
    }

    @Test func aLinkCarriesTheKeyOnlyInItsFragment() throws {
        let (t, keyHex) = try token()
        let link = t.link(base: try #require(URL(string: "http://127.0.0.1:7300/")))
        let url = try #require(URL(string: link))
        #expect(url.fragment == "key=" + keyHex)
        // What a browser sends (path and query) holds neither the key nor a ticket that carries it.
        let sent = url.path + (url.query ?? "")
        #expect(!sent.contains(keyHex))
        let inPath = try ShareToken.decode(String(url.path.dropFirst(3)))
        #expect(inPath.key == nil)
        #expect(inPath.ticket == t.ticket)
        // Pasting the link (or the bare ticket, or an old link with the key inside) gives the token back.
        #expect(try ShareToken.decode(link: link) == t)
        #expect(try ShareToken.decode(link: t.encoded) == t)
        #expect(try ShareToken.decode(link: "http://127.0.0.1:7300/s/" + t.encoded) == t)
    }

    @Test func aDamagedKeyOrLinkIsRefusedWithAMessage() throws {
        let (t, keyHex) = try token()
        for bad in ["", "zz", String(keyHex.dropLast()), keyHex + "00", String(repeating: "g", count: 64)] {
            #expect(throws: ShareTokenError.self) { try t.withoutKey.with(keyHex: bad) }
        }
        #expect(try t.withoutKey.with(keyHex: keyHex.uppercased()) == t)
        #expect(throws: ShareTokenError.self) { try ShareToken.decode(link: "http://127.0.0.1:7300/not-a-share") }
        #expect(throws: ShareTokenError.self) {
            try ShareToken.decode(link: "http://127.0.0.1:7300/s/" + t.withoutKey.encoded + "#key=nothex")
        }
    }

    @Test func aLinkSealedToOneWalletHasNoFragment() throws {
        let (t, _) = try token(recipient: Ed25519.SigningKey.generate().publicKey)
        let link = t.link(base: try #require(URL(string: "http://localhost:7300")))
        #expect(!link.contains("#"))
        #expect(link.hasPrefix("http://localhost:7300/s/mosaic-ticket:"))
        #expect(try ShareToken.decode(link: link).sealedKey == t.sealedKey)
    }
}
