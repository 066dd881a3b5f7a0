import Foundation
import MosaicProtocol

/// Stored forms of the social records. Posts, read on every feed page, use a compact binary
/// form (version byte 1, then the fields in declaration order: strings as u32 length + UTF-8,
/// integers big-endian, a final byte 1 when the body was cut); the rarer records are sorted-key JSON.
enum SocialCodec {
    static func encode(_ p: SocialPost) -> [UInt8] {
        var w = Writer()
        w.bytes.append(1)
        for s in [p.author, p.permlink, p.parentAuthor, p.parentPermlink, p.category, p.title, p.body, p.jsonMetadata] { w.string(s) }
        w.u32(UInt32(p.tags.count))
        for t in p.tags { w.string(t) }
        w.u64(UInt64(bitPattern: p.created))
        w.u64(UInt64(bitPattern: p.lastUpdate))
        w.u32(p.depth)
        w.u32(p.children)
        w.u64(UInt64(bitPattern: p.netRshares))
        w.u32(p.voteCount)
        w.u64(UInt64(bitPattern: p.trendingScore))
        w.u64(UInt64(bitPattern: p.hotScore))
        w.u64(UInt64(bitPattern: p.payoutAt))
        w.u64(p.sequence)
        w.bytes.append(p.bodyTruncated ? 1 : 0)
        return w.bytes
    }

    /// Bytes of body a feed card keeps (the anchor's front end asks for 1,024 too).
    static let cardBodyBytes = 1024

    /// The post as a feed entry holds it: the record with the body cut to 1,024 bytes (at a
    /// character boundary, `body_truncated` set), so a feed page is one range scan with no
    /// further reads.
    static func card(_ p: SocialPost) -> [UInt8] {
        guard p.body.utf8.count > cardBodyBytes else { return encode(p) }
        var c = p
        let bytes = Array(p.body.utf8)
        var end = cardBodyBytes
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        c.body = String(decoding: bytes[0..<end], as: UTF8.self)
        c.bodyTruncated = true
        return encode(c)
    }

    /// The post in `bytes`; nil when they are not a version-1 post record. `bodyLimit` > 0 cuts
    /// the body to at most that many bytes (at a character boundary) without decoding the rest.
    static func decodePost(_ bytes: [UInt8], bodyLimit: Int = 0) -> SocialPost? {
        var r = Reader(bytes: bytes)
        guard r.u8() == 1,
              let author = r.string(), let permlink = r.string(), let parentAuthor = r.string(), let parentPermlink = r.string(),
              let category = r.string(), let title = r.string() else { return nil }
        var truncated = false
        guard let body = r.string(limit: bodyLimit, truncated: &truncated), let meta = r.string(), let tagCount = r.u32(),
              tagCount <= 64 else { return nil }
        var tags: [String] = []
        for _ in 0..<tagCount { guard let t = r.string() else { return nil }; tags.append(t) }
        guard let created = r.u64(), let lastUpdate = r.u64(), let depth = r.u32(), let children = r.u32(), let net = r.u64(),
              let votes = r.u32(), let trending = r.u64(), let hot = r.u64(), let payout = r.u64(), let seq = r.u64() else { return nil }
        if r.u8() == 1 { truncated = true }
        return SocialPost(author: author, permlink: permlink, parentAuthor: parentAuthor, parentPermlink: parentPermlink,
                          category: category, title: title, body: body, jsonMetadata: meta, tags: tags,
                          created: Int64(bitPattern: created), lastUpdate: Int64(bitPattern: lastUpdate), depth: depth,
                          children: children, netRshares: Int64(bitPattern: net), voteCount: votes,
                          trendingScore: Int64(bitPattern: trending), hotScore: Int64(bitPattern: hot),
                          payoutAt: Int64(bitPattern: payout), sequence: seq, bodyTruncated: truncated)
    }

    static func encodeJSON<T: Encodable>(_ value: T) throws(ContractError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return [UInt8](try encoder.encode(value)) } catch { throw .refused("cannot encode \(T.self): \(error)") }
    }

    static func decodeJSON<T: Decodable>(_ bytes: [UInt8], as type: T.Type, key: String) throws(ContractError) -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .refused("social state \(key) is unreadable: \(error)")
        }
    }

    struct Writer {
        var bytes: [UInt8] = []
        mutating func u32(_ v: UInt32) { for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(s))) } }
        mutating func u64(_ v: UInt64) { for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(s))) } }
        mutating func string(_ s: String) {
            u32(UInt32(truncatingIfNeeded: s.utf8.count))
            bytes.append(contentsOf: s.utf8)
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func u8() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func u32() -> UInt32? {
            guard bytes.count - at >= 4 else { return nil }
            var v: UInt32 = 0
            for i in 0..<4 { v = v << 8 | UInt32(bytes[at + i]) }
            at += 4
            return v
        }

        mutating func u64() -> UInt64? {
            guard bytes.count - at >= 8 else { return nil }
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(bytes[at + i]) }
            at += 8
            return v
        }

        mutating func string() -> String? {
            var unused = false
            return string(limit: 0, truncated: &unused)
        }

        mutating func string(limit: Int, truncated: inout Bool) -> String? {
            guard let n32 = u32() else { return nil }
            let n = Int(n32)
            guard bytes.count - at >= n else { return nil }
            defer { at += n }
            var end = at + n
            if limit > 0, n > limit {
                end = at + limit
                // Back up to the start of a UTF-8 sequence so no character is cut in half.
                while end > at, bytes[end] & 0xC0 == 0x80 { end -= 1 }
                truncated = true
            }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
    }
}
