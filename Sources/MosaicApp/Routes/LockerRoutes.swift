import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import MosaicStorageCore

/// Locker: PIN-locked files of the session's wallet (docs/LOCKER.md). The PIN travels only in the
/// request that needs it (upload: two headers, percent-encoded UTF-8, entered twice; download: the
/// JSON body), is never stored or logged, and the errors are the SDK's, word for word as in the CLI.
extension AppServer {
    struct LockerNameBody: Decodable {
        let alloc: String?
        let name: String
    }

    struct LockerOpenBody: Decodable {
        let alloc: String?
        let name: String
        let pin: String
    }

    func registerLockerRoutes() {
        api(
            .get, "/api/locker", summary: "The locker's files", access: .wallet, parameters: [AppParameters.alloc],
            errors: [403, 404, 422]
        ) { [self] req in
            let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
            let entries = try await AppServer.mapLocker { try await Locker(storage: client, allocation: alloc).list() }
            return try AppServer.json(["allocation_id": alloc.id, "entries": entries.map(AppServer.lockerJSON)])
        }

        apiStreaming(
            .post, "/api/locker/upload", summary: "Lock a file (raw body) under a PIN given twice in X-Locker-PIN and X-Locker-PIN-Repeat",
            parameters: [
                AppParameters.lockerName, AppParameters.alloc, AppParameters.replace,
                AppParameters.lockerPIN, AppParameters.lockerPINRepeat,
            ]
        ) { [self] req, body in
            let name = try req.http[AppParameters.lockerName]
            let firstText = try req.http[AppParameters.lockerPIN]
            let secondText = try req.http[AppParameters.lockerPINRepeat]
            let pin = try AppServer.mapLocker { () throws(LockerError) -> LockerPIN in
                try Locker.validate(name: name)
                let first = try AppServer.headerPIN(firstText)
                let second = try AppServer.headerPIN(secondText)
                guard first.matches(second) else { throw LockerError.pinMismatch }
                return first
            }
            let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
            let spool = try spoolFile()
            defer { try? FileManager.default.removeItem(at: spool) }
            try await AppServer.write(body, to: spool)
            let type = req.http.headers["Content-Type"].flatMap {
                $0.hasPrefix("application/x-www-form") || $0 == "application/octet-stream" ? nil : $0
            }
            let entry = try await AppServer.mapLocker {
                try await Locker(storage: client, allocation: alloc).put(
                    localFile: spool, name: name, pin: pin,
                    replace: try req.http[AppParameters.replace], contentType: type)
            }
            return try AppServer.json(AppServer.lockerJSON(entry), status: 201)
        }

        api(
            .post, "/api/locker/download", summary: "Open a locker file with its PIN (JSON {name, pin}); answers the file", access: .wallet,
            body: .json(
                .object(
                    [("alloc", .hex64), ("name", .string(maxLength: 255)), ("pin", .string(maxLength: 1024))], required: ["name", "pin"])),
            errors: [403, 404, 422, 429], bodyLimit: 4096
        ) { [self] req in
            let body = try req.decode(LockerOpenBody.self)
            let pin = try AppServer.mapLocker { () throws(LockerError) -> LockerPIN in
                try Locker.validate(name: body.name)
                return try LockerPIN(body.pin)
            }
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            let spool = try spoolFile()
            let entry: LockerEntry
            do {
                entry = try await AppServer.mapLocker {
                    try await Locker(storage: client, allocation: alloc).get(name: body.name, pin: pin, to: spool)
                }
            } catch {
                try? FileManager.default.removeItem(at: spool)
                throw error
            }
            // The response holds the open file; the name can go now, so nothing stays on disk.
            defer { try? FileManager.default.removeItem(at: spool) }
            return try AppServer.userFile(atPath: spool.path, name: entry.name, inline: false)
        }

        api(
            .post, "/api/locker/delete", summary: "Delete a locker file (fragments, wrapped key, PIN count)", access: .wallet,
            body: .json(.object([("alloc", .hex64), ("name", .string(maxLength: 255))], required: ["name"])),
            statuses: [204], errors: [403, 404, 422]
        ) { [self] req in
            let body = try req.decode(LockerNameBody.self)
            try AppServer.mapLocker { () throws(LockerError) in try Locker.validate(name: body.name) }
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            try await AppServer.mapLocker { try await Locker(storage: client, allocation: alloc).remove(name: body.name) }
            return HTTPResponse(status: 204, body: Data(), contentType: "text/plain")
        }
    }

    static func headerPIN(_ value: String?) throws(LockerError) -> LockerPIN {
        guard let value, !value.isEmpty else {
            throw .invalidPIN("enter the PIN twice; a locker PIN needs \(LockerPIN.minCharacters) to \(LockerPIN.maxCharacters) characters")
        }
        guard let text = value.removingPercentEncoding else { throw .invalidPIN("the PIN could not be read (bad encoding)") }
        return try LockerPIN(text)
    }

    static func lockerJSON(_ e: LockerEntry) -> [String: Any] {
        ["name": e.name, "size": e.size, "mime": e.contentType, "created": e.created, "modified": e.modified]
    }

    /// Locker failures as HTTP answers with the SDK's words.
    static func mapLocker<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let e as LockerError {
            throw httpError(e)
        } catch let e as StorageClientError {
            throw httpError(.storage(e))
        } catch let e as StorageRequestError {
            throw httpError(storage: e)
        }
    }

    static func mapLocker<T>(_ body: () throws(LockerError) -> T) throws -> T {
        do { return try body() } catch { throw httpError(error) }
    }

    static func httpError(_ e: LockerError) -> HTTPError {
        switch e {
        case .incorrectPIN: return HTTPError(status: 403, code: e.code, message: e.description)
        case .tooManyAttempts(_, let after):
            return HTTPError(status: 429, code: e.code, message: e.description, headers: ["Retry-After": String(after)])
        case .invalidPIN, .pinMismatch, .pinUnavailable, .invalidName: return HTTPError(status: 400, code: e.code, message: e.description)
        // The page's words, not the CLI's (no --replace, no 'mosaic locker ls').
        case .exists(let name):
            return HTTPError(
                status: 409, code: e.code,
                message:
                    "A locker file named \(name) already exists. Tick \u{201C}Replace a locker file with this name\u{201D} to overwrite it."
            )
        case .notFound(let name):
            return HTTPError(
                status: 404, code: e.code, message: "There is no locker file named \(name); it may have been deleted. Reload the list.")
        case .notALockerFile(let name):
            return HTTPError(status: 422, code: e.code, message: "\(name) in the locker folder has no PIN, so it is not a locker file.")
        case .storage(let s):
            let h = AppServer.httpError(client: s)
            return HTTPError(status: h.status, code: h.code, message: h.message)
        default: return HTTPError(status: 422, code: e.code, message: e.description)
        }
    }
}
