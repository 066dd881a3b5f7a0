import Foundation

/// Builds the OpenAPI 3.1 document from the routes a server really has, so it cannot drift.
enum OpenAPIDocument {
    static func build(title: String, version: String, routes: [Route]) -> Data {
        var paths: [String: [String: Any]] = [:]
        for r in routes {
            var op: [String: Any] = [
                "summary": r.docs.summary,
                "operationId": operationId(r),
            ]
            if let d = r.docs.description { op["description"] = d }
            var params: [[String: Any]] = []
            for seg in r.segments {
                if case let .param(name) = seg {
                    var p: [String: Any] = ["name": name, "in": "path", "required": true, "schema": ["type": "string"]]
                    if let d = r.docs.params[name] { p["description"] = d }
                    params.append(p)
                }
            }
            for (name, desc) in r.docs.query.sorted(by: { $0.key < $1.key }) {
                params.append(["name": name, "in": "query", "required": false, "description": desc, "schema": ["type": "string"]])
            }
            if !params.isEmpty { op["parameters"] = params }
            var body: [String: Any]?
            switch r.body {
            case .streaming:
                body = ["required": true, "content": ["application/octet-stream": ["schema": ["type": "string", "format": "binary"]]]]
            case .buffered:
                if [.post, .put, .patch].contains(r.method) || r.docs.request != nil {
                    body = ["content": ["application/json": ["schema": ["type": "object"]]]]
                }
            }
            if var b = body {
                if let d = r.docs.request { b["description"] = d }
                op["requestBody"] = b
            }
            let errorRef: [String: Any] = ["description": "error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
            op["responses"] = ["200": ["description": r.docs.response ?? "success"], "default": errorRef]
            paths[r.openAPIPath, default: [:]][r.method.rawValue.lowercased()] = op
        }
        let doc: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": title, "version": version],
            "paths": paths,
            "components": ["schemas": ["Error": [
                "type": "object",
                "required": ["error"],
                "properties": ["error": [
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                ]],
            ]]],
        ]
        return (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func operationId(_ r: Route) -> String {
        let words = r.segments.map { seg -> String in
            switch seg {
            case let .literal(l): return l
            case let .param(p): return "by_" + p
            }
        }
        return ([r.method.rawValue.lowercased()] + words).joined(separator: "_")
            .map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
    }
}
