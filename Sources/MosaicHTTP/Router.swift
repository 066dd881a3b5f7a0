import Foundation

/// How a route receives its body.
enum BodyMode: Sendable {
    case buffered(limit: Int64)
    case streaming(limit: Int64?)
}

/// One registered route with what OpenAPI needs to describe it.
struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case param(String)
    }

    let method: HTTPMethod
    let pattern: String
    let segments: [Segment]
    let summary: String
    let description: String?
    let query: [String: String]
    let body: BodyMode
    let handler: @Sendable (HTTPRequest, RequestBodyStream?) async throws -> HTTPResponse

    static func split(_ path: String) -> [Substring] { path.split(separator: "/", omittingEmptySubsequences: true) }

    static func parse(_ pattern: String) -> [Segment] {
        split(pattern).map { $0.hasPrefix(":") ? .param(String($0.dropFirst())) : .literal(String($0)) }
    }

    /// Path parameters if `parts` fits this route's pattern.
    func match(_ parts: [Substring]) -> [String: String]? {
        guard parts.count == segments.count else { return nil }
        var params: [String: String] = [:]
        for (seg, part) in zip(segments, parts) {
            switch seg {
            case let .literal(l): if l != part { return nil }
            case let .param(name): params[name] = String(part)
            }
        }
        return params
    }

    var literalCount: Int { segments.reduce(0) { if case .literal = $1 { return $0 + 1 }; return $0 } }

    /// `/v1/tx/:hash` → `/v1/tx/{hash}`.
    var openAPIPath: String {
        "/" + segments.map { if case let .param(n) = $0 { return "{\(n)}" }; if case let .literal(l) = $0 { return l }; return "" }
            .joined(separator: "/")
    }
}

/// The outcome of looking a request up.
enum RouteMatch {
    case found(Route, [String: String])
    case methodNotAllowed([HTTPMethod])
    case notFound
}

extension Array where Element == Route {
    /// The most specific route (most literal segments) for the path; HEAD falls back to GET.
    func lookup(method: HTTPMethod, path: String) -> RouteMatch {
        let parts = Route.split(path)
        var best: (Route, [String: String])?
        var allowed: [HTTPMethod] = []
        var getFallback: (Route, [String: String])?
        for r in self {
            guard let p = r.match(parts) else { continue }
            if !allowed.contains(r.method) { allowed.append(r.method) }
            if r.method == method, best.map({ $0.0.literalCount < r.literalCount }) ?? true { best = (r, p) }
            if method == .head, r.method == .get, getFallback.map({ $0.0.literalCount < r.literalCount }) ?? true { getFallback = (r, p) }
        }
        if let best { return .found(best.0, best.1) }
        if let getFallback { return .found(getFallback.0, getFallback.1) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }
}
