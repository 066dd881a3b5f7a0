import Foundation
import MosaicHTTP
import MosaicHTTPServer
import Synchronization

/// Checks every request passes before any route runs, so that a page on another site can neither
/// reach the app through a rebound DNS name nor post to it with a plain HTML form.
enum RequestGuard {
    /// The Host values the app answers to: its own address (`127.0.0.1:PORT`, `localhost:PORT`,
    /// `[::1]:PORT`) and the names given with `--allow-host`, each with the port. A DNS-rebinding
    /// page reaches the app under the attacker's name, which is not in this list.
    static func allowedHosts(port: UInt16, listening host: String, extra: [String]) -> Set<String> {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        if host != "0.0.0.0" { names.insert(host.lowercased()) }
        for name in extra {
            let n = normalized(name)
            if !n.isEmpty { names.insert(n) }
        }
        var out: Set<String> = []
        for name in names {
            // A name given with its own port keeps it; otherwise it is reachable on the app's port.
            if hasPort(name) {
                out.insert(name)
            } else {
                out.insert("\(name):\(port)")
                if port == 80 { out.insert(name) }
            }
        }
        return out
    }

    /// Lowercased, without a trailing dot on the name, so `LocalHost.:7300` is `localhost:7300`.
    static func normalized(_ host: String) -> String {
        var h = host.trimmingCharacters(in: .whitespaces).lowercased()
        if let colon = h.lastIndex(of: ":"), !h.hasSuffix("]"), h[h.startIndex..<colon].hasSuffix(".") {
            h.remove(at: h.index(before: colon))
        } else if h.hasSuffix(".") {
            h.removeLast()
        }
        return h
    }

    static func hasPort(_ host: String) -> Bool {
        guard let colon = host.lastIndex(of: ":") else { return false }
        // "[::1]" has colons but no port; "[::1]:80" and "name:80" have one.
        if host.hasPrefix("[") { return host[..<colon].hasSuffix("]") }
        return true
    }

    /// 421 unless the request names this app in its Host header.
    static func checkHost(_ req: HTTPRequest, allowed: Set<String>, port: UInt16) throws {
        let given = req.headers["Host"].map(normalized) ?? ""
        guard allowed.contains(given) else {
            let shown = given.isEmpty ? "no Host header" : "Host \"\(given.prefix(100))\""
            throw HTTPError(
                status: 421, code: "wrong_host",
                message:
                    "this Mosaic app answers only at http://127.0.0.1:\(port) or http://localhost:\(port); the request named \(shown), which may be another site rebinding its name to this computer. Open the app at its own address, or start it with --allow-host NAME to reach it under another name"
            )
        }
    }

    /// 415 unless a request that carries a body (or names a type) says it is JSON. A cross-site
    /// HTML form can only send form or text types, which never pass; `fetch` with JSON needs a
    /// CORS preflight that this app never grants.
    static func checkJSONBody(_ req: HTTPRequest) throws {
        guard req.method != .get, req.method != .head else { return }
        let type = req.headers["Content-Type"]
        if type == nil && req.body.isEmpty { return }
        guard let type, isJSON(type) else {
            let shown = type.map { "\"\($0.prefix(80))\"" } ?? "none"
            throw HTTPError(
                status: 415, code: "unsupported_media_type",
                message: "this endpoint takes a JSON body: send it with Content-Type: application/json (the request's type: \(shown))")
        }
    }

    /// `application/json`, with parameters such as `; charset=utf-8`, in any letter case.
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}

/// The Host values one running app accepts; filled in when the port is bound (no request
/// arrives before), read by the server's admission check on every request.
final class HostAllowList: Sendable {
    private let state = Mutex<(allowed: Set<String>, port: UInt16)>(([], 0))

    func set(_ allowed: Set<String>, port: UInt16) {
        state.withLock { $0 = (allowed, port) }
    }

    func check(_ req: HTTPRequest) throws {
        let (allowed, port) = state.withLock { $0 }
        try RequestGuard.checkHost(req, allowed: allowed, port: port)
    }
}
