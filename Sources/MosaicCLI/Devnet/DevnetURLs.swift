import Foundation
import MosaicProtocol

/// Where a running devnet can be reached; `--json` prints exactly these four keys.
struct DevnetURLs: Sendable {
    var node: URL
    var app: URL?
    var blobbers: [URL]
    var directory: URL

    var json: JSONValue {
        .object([
            ("node", .string(Devnet.text(node))),
            ("app", .optional(app.map(Devnet.text))),
            ("blobbers", .array(blobbers.map { .string(Devnet.text($0)) })),
            ("dir", .string(directory.path)),
        ])
    }
}
