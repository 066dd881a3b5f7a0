/// Failures of the app process itself (not of a request).
enum AppError: Error, CustomStringConvertible {
    case startup(String)

    var description: String {
        switch self {
        case .startup(let m): return m
        }
    }
}
