import MosaicHTTP

/// What a route declares besides its handler: the parameters the server checks before the
/// handler runs, and what `/openapi.json` says about the route.
struct RouteDocs: Sendable {
    var summary: String
    var description: String?
    /// Path parameters (one per `:name` segment) and query parameters.
    var parameters: [ParameterSpec]
    var body: RequestBody?
    /// Success statuses the handler really returns (200, 201, 202, 204, 206, 302…).
    var statuses: [Int]
    /// What a success answer holds.
    var response: String?
    /// Client-error statuses beyond those every route may answer (400, 404, 405, 413).
    var errors: [Int]
}
