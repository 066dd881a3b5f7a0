import Foundation

/// The page's HTML, CSS and JavaScript, read once at start-up from the resource folder that
/// SwiftPM places next to the executable (or the source tree when run from a checkout).
struct StaticFiles: Sendable {
    struct File: Sendable {
        let data: Data
        let contentType: String
    }

    let files: [String: File]

    static func load() throws -> StaticFiles {
        guard let dir = locate() else {
            throw AppError.startup(
                "the web app's static files were not found next to the mosaic binary (Mosaic_MosaicApp.resources); rebuild with 'swift build'"
            )
        }
        var files: [String: File] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        for name in names where !name.hasPrefix(".") {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            files[name] = File(data: data, contentType: contentType(for: name))
        }
        guard files["index.html"] != nil else { throw AppError.startup("index.html is missing from \(dir.path)") }
        return StaticFiles(files: files)
    }

    private static func locate() -> URL? {
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["MOSAIC_STATIC_DIR"] {
            candidates.append(URL(fileURLWithPath: env))
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        let bundleName = "Mosaic_MosaicApp.resources"
        candidates.append(exe.appendingPathComponent(bundleName).appendingPathComponent("Static"))
        if let res = Bundle.main.resourceURL {
            candidates.append(res.appendingPathComponent(bundleName).appendingPathComponent("Static"))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName).appendingPathComponent("Static"))
        candidates.append(
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName).appendingPathComponent("Static"))
        // A checkout: Sources/MosaicApp/Static beside this file.
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Static"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }

    static func contentType(for name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
