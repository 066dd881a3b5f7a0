import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// Reads verified blocks of one fragment stream from a blobber (the decoder checks the proofs).
struct BlobberFragmentSource: FragmentSource {
    let connection: BlobberConnection
    let path: String

    func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        var out: [FragmentBlock] = []
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(range.upperBound, start + 64)
            out += try await connection.blocks(path, range: start..<end)
            start = end
        }
        return out
    }
}
