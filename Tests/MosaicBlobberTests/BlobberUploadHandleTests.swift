import Foundation
import Testing

@testable import MosaicBlobber
@testable import MosaicStorageCore

/// Uploads a client abandoned must not hold a file descriptor forever, and must still resume.
@Suite struct BlobberUploadHandleTests {
    @Test func idleUploadsCloseTheirFileAndResumeFromDisk() throws {
        let dir = NSTemporaryDirectory() + "mosaic-idle-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var config = BlobberServer.Configuration(directory: dir)
        config.idleUploadTimeout = 0.05
        let server = try BlobberServer(configuration: config)
        let allocation = String(repeating: "ab", count: 32)
        let bytes = randomBytes(100_000)
        try bytes.withUnsafeBytes { try server.writer(allocation: allocation, upload: "first").receive($0, at: 0) }
        #expect(server.openUploads == [allocation + ".first"])

        Thread.sleep(forTimeInterval: 0.1)
        _ = try server.writer(allocation: allocation, upload: "second")
        #expect(server.openUploads == [allocation + ".second"], "the idle upload gave back its file")
        #expect(try server.uploadLength(allocation: allocation, upload: "first") == Int64(bytes.count))
        let resumed = try server.writer(allocation: allocation, upload: "first")
        #expect(resumed.length == Int64(bytes.count), "the next PUT resumes from the bytes on disk")
    }
}
