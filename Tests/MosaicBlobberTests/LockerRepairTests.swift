import Foundation
import MosaicCrypto
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// A locker file missed by a blobber is rebuilt by `repair` without its PIN (repair re-codes
/// fragments and never decrypts), and then opens from the repaired blobber alone.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LockerRepairTests {
    @Test func repairRebuildsALockerFileWithoutThePIN() async throws {
        let grid = try await StorageGrid(data: 1, parity: 2)
        defer { Task { await grid.shutdown() } }
        var locker = Locker(storage: grid.client, allocation: grid.allocation)
        locker.parameters = .testing
        let bytes = randomBytes(200_000)
        await grid.stop(2)
        try await locker.put(localFile: try grid.localFile(bytes), name: "will.pdf", pin: try LockerPIN("2580"))
        #expect(Set(grid.client.pendingRepairs(allocation: grid.allocation.id).keys) == [2])
        try await grid.restart(2)
        let report = try await grid.client.repair(allocation: grid.allocation)
        #expect(report.failed.isEmpty)
        #expect(report.repaired.contains { $0.blobber == 2 && $0.path == "/locker/will.pdf" })

        await grid.stop(0)
        await grid.stop(1)
        let out = grid.outputURL()
        try await locker.get(name: "will.pdf", pin: try LockerPIN("2580"), to: out)
        #expect([UInt8](try Data(contentsOf: out)) == bytes)
    }
}
