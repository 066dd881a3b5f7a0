import MosaicHTTP

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

extension RouteMatch {
    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }
}
