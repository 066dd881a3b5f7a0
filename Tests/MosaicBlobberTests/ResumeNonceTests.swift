import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// An interrupted upload resumes under the same key and nonce prefix only while the source is
/// provably the same; a changed source gets a new key, nonce prefix and upload id, and nothing
/// sealed from the new bytes is ever sent under the old nonces (AES-GCM nonce reuse).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ResumeNonceTests {
    func held(_ grid: StorageGrid, _ upload: String) async throws -> [Int64] {
        var out: [Int64] = []
        // Each blobber knows the upload by the id derived for it from the journal's.
        for i in 0..<3 {
            let c = grid.connection(i)
            out.append(try await c.uploadStatus(BlobberUploadSink.uploadID(upload, blobber: c.blobber.id)))
        }
        return out
    }

    /// The user edits the file in place between the two runs (same size) and even sets its mtime
    /// back (`touch -r`): the ctime gives it away and the upload starts afresh.
    @Test func aSourceEditedInPlaceGetsANewKeyAndNoncePrefix() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        var bytes = randomBytes(5 << 20)
        let file = try grid.localFile(bytes)
        let first = try await grid.interruptedUpload(file, path: "/e.bin").journal
        let before = try await held(grid, first.uploadID)
        #expect(before.contains { $0 > 0 })
        let mtime = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        for i in 0..<4096 { bytes[i] ^= 0x5a }
        try Data(bytes).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: file.path)

        let up = try await grid.client.upload(localFile: file, remotePath: "/e.bin", allocation: grid.allocation)
        #expect(!up.resumed)
        #expect(up.meta.noncePrefix != first.noncePrefix)
        #expect(up.meta.wrappedKey != first.wrappedKey)
        #expect(try await held(grid, first.uploadID) == before, "nothing more went out under the old key and nonces")
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/e.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
    }

    /// Where the file's times cannot tell (a coarse-grained file system, or times forged back),
    /// the chunk log does: the first chunk sealed again differs from the one sent, so nothing of it
    /// is sent and the upload starts afresh.
    @Test func aChangeTheStampMissesIsCaughtByTheChunkLogBeforeAnythingIsSent() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        var bytes = randomBytes(5 << 20)
        let file = try grid.localFile(bytes)
        let first = try await grid.interruptedUpload(file, path: "/c.bin").journal
        let before = try await held(grid, first.uploadID)
        for i in 0..<100 { bytes[i] ^= 0xff }
        try Data(bytes).write(to: file)
        // Make the journal believe the file is untouched (what a 1-second-granularity file
        // system would show for an edit within the same second).
        let url = UploadJournal.url(home: grid.client.home, allocation: grid.allocation.id, remotePath: "/c.bin")
        var forged = first
        forged.source = SourceStamp(path: file.path)
        forged.modified =
            (try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        try forged.save(url)

        let up = try await grid.client.upload(localFile: file, remotePath: "/c.bin", allocation: grid.allocation)
        #expect(!up.resumed)
        #expect(up.meta.noncePrefix != first.noncePrefix)
        #expect(try await held(grid, first.uploadID) == before, "the changed chunk was refused before it was sent")
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/c.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
    }

    /// A chunk log cut short (a power loss before the kernel wrote it) no longer covers what the
    /// blobbers hold: in doubt, the upload does not resume.
    @Test func aChunkLogShorterThanWhatBlobbersHoldIsNotResumed() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(5 << 20)
        let file = try grid.localFile(bytes)
        let first = try await grid.interruptedUpload(file, path: "/p.bin").journal
        let url = UploadJournal.url(home: grid.client.home, allocation: grid.allocation.id, remotePath: "/p.bin")
        let log = UploadChunkLog.url(journal: url)
        #expect(try Data(contentsOf: log).count >= 2 * UploadChunkLog.digestLength)
        try Data().write(to: log)
        let up = try await grid.client.upload(localFile: file, remotePath: "/p.bin", allocation: grid.allocation)
        #expect(!up.resumed)
        #expect(up.meta.noncePrefix != first.noncePrefix)
        #expect(!FileManager.default.fileExists(atPath: log.path), "the log goes with the finished upload")
    }

    /// The untouched file still resumes (what the journal is for), with the chunks it sent proven.
    @Test func anUntouchedSourceStillResumesUnderItsKey() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(5 << 20)
        let file = try grid.localFile(bytes)
        let first = try await grid.interruptedUpload(file, path: "/u.bin").journal
        #expect(first.source == SourceStamp(path: file.path))
        #expect(first.chunkLog == UploadChunkLog.format)
        let up = try await grid.client.upload(localFile: file, remotePath: "/u.bin", allocation: grid.allocation)
        #expect(up.resumed)
        #expect(up.meta.noncePrefix == first.noncePrefix)
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/u.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
    }

    @Test func theChunkLogRefusesADifferentChunkAndAGap() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).chunks")
        defer { try? FileManager.default.removeItem(at: url) }
        let leaves: [[[UInt8]]] = [
            [Array(repeating: 1, count: 32), Array(repeating: 2, count: 32)],
            [Array(repeating: 3, count: 32), Array(repeating: 4, count: 32)],
        ]
        try UploadChunkLog(url: url, resume: false).admit(firstChunk: 0, leafHashes: leaves)
        let again = try UploadChunkLog(url: url, resume: true)
        #expect(again.recorded.count == 2)
        try again.admit(firstChunk: 0, leafHashes: leaves)
        var changed = leaves
        changed[1][1][0] ^= 1
        #expect(throws: UploadChunkLog.Mismatch.self) { try again.admit(firstChunk: 0, leafHashes: changed) }
        #expect(throws: UploadChunkLog.Mismatch.self) { try again.admit(firstChunk: 5, leafHashes: leaves) }
        #expect(again.covers(heldFragmentBytes: 2 * 65536))
        #expect(!again.covers(heldFragmentBytes: 2 * 65536 + 1))
        #expect(!again.covers(heldFragmentBytes: Int64.max))
    }
}

/// Blobber error bodies never show the blobber's folders.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BlobberErrorPathTests {
    @Test func anIOErrorOnTheBlobberDoesNotShowItsDirectory() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        // A folder where the upload's part file must go: opening it for writing fails with EISDIR.
        let part = grid.root + "/blobber0/fragments/uploads/" + grid.allocation.id + "/boom.part"
        try FileManager.default.createDirectory(atPath: part, withIntermediateDirectories: true)
        do {
            _ = try await grid.connection(0).put("boom", offset: 0, bytes: randomBytes(1000))
            Issue.record("the write into a folder succeeded")
        } catch {
            let text = "\(error)"
            #expect(!text.contains(grid.root), "\(text)")
            #expect(text.contains("$BLOBBER_DIR"), "\(text)")
        }
        #expect(try await grid.connection(0).uploadStatus("other") == 0, "the blobber still answers")
    }
}
