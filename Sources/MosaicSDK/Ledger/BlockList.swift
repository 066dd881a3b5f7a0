import MosaicProtocol

/// `GET /v1/blocks` answer.
struct BlockList: Decodable, Sendable {
    let blocks: [BlockView]
}
