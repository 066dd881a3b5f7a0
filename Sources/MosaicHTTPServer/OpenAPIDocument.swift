import Foundation
import MosaicHTTP

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
            let params = r.docs.parameters.map(\.openAPI)
            if !params.isEmpty { op["parameters"] = params }
            if let body = r.docs.body { op["requestBody"] = body.openAPI }
            let errorRef: [String: Any] = ["$ref": "#/components/responses/Error"]
            var responses: [String: Any] = ["default": errorRef]
            for status in r.docs.statuses {
                responses[String(status)] = ["description": r.docs.response ?? reason(status)]
            }
            var errors = Set(r.docs.errors)
            if !r.docs.parameters.isEmpty || r.docs.body != nil { errors.insert(400) }
            if r.docs.body != nil { errors.insert(413) }
            for status in errors.sorted() {
                responses[String(status)] = [
                    "description": reason(status), "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
                ]
            }
            op["responses"] = responses
            paths[r.openAPIPath, default: [:]][r.method.rawValue.lowercased()] = op
        }
        let doc: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": title, "version": version],
            "paths": paths,
            "components": [
                "responses": [
                    "Error": ["description": "error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
                ],
                "schemas": [
                    "Error": [
                        "type": "object",
                        "required": ["error"],
                        "properties": [
                            "error": [
                                "type": "object",
                                "required": ["code", "message"],
                                "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                            ]
                        ],
                    ]
                ],
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "success"
        case 201: return "created"
        case 202: return "accepted"
        case 204: return "no content"
        case 206: return "partial content"
        case 302: return "redirect"
        case 400: return "a parameter or the body is invalid; the message names it and what to send"
        case 401: return "no session, or the wallet is locked"
        case 403: return "not allowed"
        case 404: return "not found"
        case 409: return "conflict with the current state"
        case 413: return "body too large"
        case 416: return "range not satisfiable"
        case 422: return "the request is well formed but cannot be carried out"
        case 429: return "too many requests; retry later"
        case 502: return "an upstream server failed"
        case 503: return "unavailable"
        default: return "status \(status)"
        }
    }

    static func operationId(_ r: Route) -> String {
        let words = r.segments.map { seg -> String in
            switch seg {
            case .literal(let l): return l
            case .param(let p): return "by_" + p
            }
        }
        return ([r.method.rawValue.lowercased()] + words).joined(separator: "_")
            .map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
    }
}
