import Foundation
import MosaicProtocol

/// Stored forms of the social records. Posts, read on every feed page, use the compact binary
/// form of `ContractRecord` (version byte 1, then the fields in declaration order: strings as u32
/// length + UTF-8, integers big-endian, a final byte 1 when the body was cut); the rarer records
/// are sorted-key JSON.
enum SocialCodec {
    static func encode(_ p: SocialPost) -> [UInt8] {
        var w = CanonicalWriter()
        w.append(uint8: ContractRecordFormat.version)
        for s in [p.author, p.permlink, p.parentAuthor, p.parentPermlink, p.category, p.title, p.body, p.jsonMetadata] {
            w.append(string: s)
        }
        w.append(uint32: UInt32(p.tags.count))
        for t in p.tags { w.append(string: t) }
        w.append(int64: p.created)
        w.append(int64: p.lastUpdate)
        w.append(uint32: p.depth)
        w.append(uint32: p.children)
        w.append(int64: p.netRshares)
        w.append(uint32: p.voteCount)
        w.append(int64: p.trendingScore)
        w.append(int64: p.hotScore)
        w.append(int64: p.payoutAt)
        w.append(uint64: p.sequence)
        w.append(bool: p.bodyTruncated)
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
        var r = CanonicalReader(bytes)
        do {
            guard try r.uint8() == ContractRecordFormat.version else { return nil }
            let author = try r.string()
            let permlink = try r.string()
            let parentAuthor = try r.string()
            let parentPermlink = try r.string()
            let category = try r.string()
            let title = try r.string()
            var truncated = false
            let body = try r.string(limit: bodyLimit, truncated: &truncated)
            let meta = try r.string()
            let tagCount = try r.uint32()
            guard tagCount <= 64 else { return nil }
            var tags: [String] = []
            for _ in 0..<tagCount { tags.append(try r.string()) }
            let created = try r.int64()
            let lastUpdate = try r.int64()
            let depth = try r.uint32()
            let children = try r.uint32()
            let net = try r.int64()
            let votes = try r.uint32()
            let trending = try r.int64()
            let hot = try r.int64()
            let payout = try r.int64()
            let seq = try r.uint64()
            if try r.bool() { truncated = true }
            return SocialPost(
                author: author, permlink: permlink, parentAuthor: parentAuthor, parentPermlink: parentPermlink,
                category: category, title: title, body: body, jsonMetadata: meta, tags: tags,
                created: created, lastUpdate: lastUpdate, depth: depth, children: children, netRshares: net,
                voteCount: votes, trendingScore: trending, hotScore: hot, payoutAt: payout, sequence: seq,
                bodyTruncated: truncated)
        } catch {
            return nil
        }
    }

    static func encodeJSON<T: Encodable>(_ value: T) throws(ContractError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return [UInt8](try encoder.encode(value)) } catch { throw .refused(.stateUnavailable, "cannot encode \(T.self): \(error)") }
    }

    static func decodeJSON<T: Decodable>(_ bytes: [UInt8], as type: T.Type, key: String) throws(ContractError) -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .refused(.stateUnavailable, "social state \(key) is unreadable: \(error)")
        }
    }
}
