/// What `/openapi.json` says about a route; names map to human descriptions.
struct RouteDocs: Sendable {
    var summary: String
    var description: String?
    var params: [String: String]
    var query: [String: String]
    var request: String?
    var response: String?
}
