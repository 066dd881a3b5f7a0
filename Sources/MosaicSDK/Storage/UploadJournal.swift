import Foundation
import MosaicCrypto

/// What an interrupted upload needs to continue where it stopped: the same upload id (blobbers keep
/// its bytes) and the same content key and nonce prefix (so the fragments come out identical).
/// The key is stored sealed to the owner's key, never in the clear. One file per (allocation,
/// remote path) under `$MOSAIC_HOME/uploads/`, written atomically, removed when the upload ends.
struct UploadJournal: Codable, Equatable {
    var allocationID: String
    var remotePath: String
    var localPath: String
    var size: Int64
    var modified: Double
    var uploadID: String
    var wrappedKey: String
    var noncePrefix: String
    var created: Int64

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case remotePath = "remote_path"
        case localPath = "local_path"
        case size, modified
        case uploadID = "upload_id"
        case wrappedKey = "wrapped_key"
        case noncePrefix = "nonce_prefix"
        case created
    }

    static func url(home: URL, allocation: String, remotePath: String) -> URL {
        let name = Hex.encode(SHA256.hash(Array((allocation + "\n" + remotePath).utf8)).prefix(16))
        return home.appendingPathComponent("uploads").appendingPathComponent(name + ".json")
    }

    static func load(_ url: URL) -> UploadJournal? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(UploadJournal.self, from: data)
    }

    func save(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Array(try JSONEncoder().encode(self)), to: url)
    }
}
