import Foundation
import MosaicHTTP

/// One registered route with what OpenAPI needs to describe it.
struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case param(String)
    }

    let method: HTTPMethod
    let pattern: String
    let segments: [Segment]
    let docs: RouteDocs
    let body: BodyMode
    /// Synchronous header check of streaming routes, run before the body is read.
    let precheck: (@Sendable (HTTPRequest) throws -> Void)?
    let handler: @Sendable (HTTPRequest, RequestBodyStream?) async throws -> HTTPResponse

    static func split(_ path: String) -> [Substring] { path.split(separator: "/", omittingEmptySubsequences: true) }

    /// A pattern's segments and what `/openapi.json` says of the route.
    static func describe(
        _ path: String, summary: String, description: String?, parameters: [any RouteParameter], body: RequestBody?,
        statuses: [Int], response: String?, errors: [Int]
    ) -> ([Segment], RouteDocs) {
        let segments = parse(path)
        let docs = RouteDocs(
            summary: summary, description: description, parameters: Route.parameters(parameters, segments: segments),
            body: body, statuses: statuses, response: response, errors: errors)
        return (segments, docs)
    }

    static func parse(_ pattern: String) -> [Segment] {
        split(pattern).map { $0.hasPrefix(":") ? .param(String($0.dropFirst())) : .literal(String($0)) }
    }

    /// Path parameters if `parts` fits this route's pattern.
    func match(_ parts: [Substring]) -> [String: String]? {
        guard parts.count == segments.count else { return nil }
        var params: [String: String] = [:]
        for (seg, part) in zip(segments, parts) {
            switch seg {
            case .literal(let l): if l != part { return nil }
            case .param(let name): params[name] = String(part)
            }
        }
        return params
    }

    /// Declared parameters, plus a plain string for any `:name` segment left undeclared.
    static func parameters(_ declared: [any RouteParameter], segments: [Segment]) -> [ParameterSpec] {
        var specs = declared.map(\.spec)
        for case .param(let name) in segments where !specs.contains(where: { $0.location == .path && $0.name == name }) {
            specs.append(ParameterSpec(name: name, location: .path, type: .string(maxLength: 256), required: true, description: name))
        }
        return specs
    }

    var literalCount: Int {
        segments.reduce(0) {
            if case .literal = $1 { return $0 + 1 }
            return $0
        }
    }

    /// `/v1/tx/:hash` → `/v1/tx/{hash}`.
    var openAPIPath: String {
        "/"
            + segments.map {
                if case .param(let n) = $0 { return "{\(n)}" }
                if case .literal(let l) = $0 { return l }
                return ""
            }
            .joined(separator: "/")
    }
}
