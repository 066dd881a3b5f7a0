import Foundation

/// Blobbers that missed a write, kept in `$MOSAIC_HOME/repairs.json` until `repair` fixes them.
struct RepairLog: Codable {
    struct Item: Codable, Equatable {
        var allocationID: String
        var path: String
        var blobber: Int
        var reason: String
        var time: Int64
        enum CodingKeys: String, CodingKey {
            case allocationID = "allocation_id"
            case path, blobber, reason, time
        }
    }

    var items: [Item] = []

    static func url(home: URL) -> URL { home.appendingPathComponent("repairs.json") }

    static func load(home: URL) -> RepairLog {
        AtomicFile.readJSON(RepairLog.self, from: url(home: home)) ?? RepairLog()
    }

    func save(home: URL) throws {
        try AtomicFile.writeJSON(self, to: RepairLog.url(home: home), pretty: true)
    }
}
