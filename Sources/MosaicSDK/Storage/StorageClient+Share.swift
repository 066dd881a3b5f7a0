import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

extension StorageClient {
    /// Shares the file at `path`: checks that it can be shared (a file, not a locker file, one
    /// whose content key this wallet opens), then signs a ticket for it with the key in clear
    /// (a public link) or sealed to `recipient`. The same checks for the CLI and the web app.
    /// - Parameters:
    ///   - path: the remote file.
    ///   - allocation: the owner's allocation (this wallet's).
    ///   - recipient: the only wallet that may read, from `LedgerClient.shareRecipient`; nil for a public link.
    ///   - expiration: unix seconds after which blobbers refuse the ticket; 0 for never.
    ///   - readBudget: the most the allocation's write pool pays for reads under the ticket;
    ///     nil for `ShareToken.defaultReadBudget` of the file.
    /// - Returns: the share, ready to print or to put in a link.
    /// - Throws: `ShareError` (`.notAFile`, `.lockerFile`, `.notOwner`), or `StorageClientError`
    ///   from reading the file's metadata.
    public func share(
        _ path: String, allocation: StorageAllocation, recipient: Ed25519.PublicKey?, expiration: Int64, readBudget: UInt64? = nil
    ) async throws -> ShareToken {
        let meta = try await stat(path, allocation: allocation)
        guard meta.kind == .file else { throw ShareError.notAFile(path: path) }
        guard meta.cipher != FileMeta.lockerCipher else { throw ShareError.lockerFile(path: path) }
        guard let wrapped = Hex.decode(meta.wrappedKey), let contentKey = try? SealedBox.open(wrapped, with: key) else {
            throw ShareError.notOwner(path: path)
        }
        return try ShareToken(
            owner: key, allocationID: allocation.id, path: meta.path, kind: .file, contentKey: contentKey, recipient: recipient,
            expiration: expiration, readBudget: readBudget ?? ShareToken.defaultReadBudget(fileSize: meta.size, allocation: allocation))
    }
}
