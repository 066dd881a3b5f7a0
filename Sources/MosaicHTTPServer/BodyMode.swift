/// How a route receives its body.
enum BodyMode: Sendable {
    case buffered(limit: Int64)
    case streaming(limit: Int64?)
}
