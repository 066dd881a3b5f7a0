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
        guard let data = try? Data(contentsOf: url(home: home)) else { return RepairLog() }
        return (try? JSONDecoder().decode(RepairLog.self, from: data)) ?? RepairLog()
    }

    func save(home: URL) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(Array(try e.encode(self)), to: RepairLog.url(home: home))
    }
}
