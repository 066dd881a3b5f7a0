import Foundation
import MosaicHTTP

/// Where a parameter travels.
package enum ParameterLocation: String, Sendable {
    case path, query, header
}

/// One declared parameter: the server checks it before the handler runs, and `/openapi.json`
/// describes it with the same type and bounds.
package struct ParameterSpec: Sendable {
    public let name: String
    public let location: ParameterLocation
    public let type: ParameterType
    public let required: Bool
    /// Used when the parameter is absent (or empty); published as the schema's `default`.
    public let defaultValue: ParameterValue?
    public let description: String

    public init(
        name: String, location: ParameterLocation, type: ParameterType, required: Bool,
        defaultValue: ParameterValue? = nil, description: String
    ) {
        self.name = name
        self.location = location
        self.type = type
        self.required = required || location == .path
        self.defaultValue = defaultValue
        self.description = description
    }

    /// The checked value of the raw text (nil when absent and optional). An empty query value
    /// counts as absent, so `?limit=` means the default.
    public func check(_ text: String?, errorCode: String = "invalid_parameter") throws(HTTPError) -> ParameterValue? {
        guard let text, !(text.isEmpty && location != .path) else {
            if let defaultValue { return defaultValue }
            if required {
                throw HTTPError.badRequest(
                    "\(location.rawValue) parameter '\(name)' is required: send \(type.expectation)", code: errorCode)
            }
            return nil
        }
        guard let v = type.parse(text) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw HTTPError.badRequest(
                "\(location.rawValue) parameter '\(name)' must be \(type.expectation); got \"\(shown)\"", code: errorCode)
        }
        return v
    }

    /// The OpenAPI parameter object.
    var openAPI: [String: Any] {
        var schema = type.schema
        if let d = defaultValue { schema["default"] = d.json }
        return ["name": name, "in": location.rawValue, "required": required, "description": description, "schema": schema]
    }
}

extension ParameterValue {
    var json: Any {
        switch self {
        case .integer(let v): return v
        case .number(let v): return v
        case .string(let v): return v
        case .boolean(let v): return v
        }
    }

    var integer: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }
    var number: Double? {
        if case .number(let v) = self { return v }
        return nil
    }
    var string: String? {
        if case .string(let v) = self { return v }
        return nil
    }
    var boolean: Bool? {
        if case .boolean(let v) = self { return v }
        return nil
    }
}

/// Anything a route can declare as a parameter.
package protocol RouteParameter: Sendable {
    var spec: ParameterSpec { get }
}

/// A declared parameter whose checked value a handler reads as a `Value` with `request[p]`.
package struct Parameter<Value: Sendable>: RouteParameter {
    public let spec: ParameterSpec
    /// The handler's value from the checked one (nil when absent); nil means "missing".
    let convert: @Sendable (ParameterValue?) -> Value?

    /// For values of a route's own type (e.g. "a round or a hash" as an enum).
    public init(_ spec: ParameterSpec, convert: @escaping @Sendable (ParameterValue?) -> Value?) {
        self.spec = spec
        self.convert = convert
    }
}

/// Builders of path parameters (always required).
package enum Path {
    public static func integer<I: FixedWidthInteger & Sendable>(_ name: String, in range: ClosedRange<I>, _ description: String)
        -> Parameter<I>
    {
        Parameter(ParameterSpec(name: name, location: .path, type: .integer(int64(range)), required: true, description: description)) {
            $0?.integer.flatMap { I(exactly: $0) }
        }
    }

    public static func string(_ name: String, _ type: ParameterType, _ description: String) -> Parameter<String> {
        Parameter(ParameterSpec(name: name, location: .path, type: type, required: true, description: description)) { $0?.string }
    }
}

/// Builders of request-header parameters.
package enum Header {
    public static func integer<I: FixedWidthInteger & Sendable>(_ name: String, in range: ClosedRange<I>, _ description: String)
        -> Parameter<I?>
    {
        Parameter(ParameterSpec(name: name, location: .header, type: .integer(int64(range)), required: false, description: description)) {
            v in
            guard let v else { return .some(nil) }
            return v.integer.flatMap { I(exactly: $0) }.map { .some($0) }
        }
    }

    public static func string(_ name: String, _ type: ParameterType, _ description: String) -> Parameter<String?> {
        Parameter(ParameterSpec(name: name, location: .header, type: type, required: false, description: description)) { v in
            guard let v else { return .some(nil) }
            return v.string.map { .some($0) }
        }
    }

    public static func requiredInteger<I: FixedWidthInteger & Sendable>(_ name: String, in range: ClosedRange<I>, _ description: String)
        -> Parameter<I>
    {
        Parameter(ParameterSpec(name: name, location: .header, type: .integer(int64(range)), required: true, description: description)) {
            $0?.integer.flatMap { I(exactly: $0) }
        }
    }
}

/// Builders of query parameters: with a default, optional (a `Value?`) or required.
package enum Query {
    public static func integer<I: FixedWidthInteger & Sendable>(
        _ name: String, in range: ClosedRange<I>, default value: I,
        _ description: String
    ) -> Parameter<I> {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: .integer(int64(range)), required: false,
                defaultValue: .integer(Int64(clamping: value)), description: description)
        ) {
            $0?.integer.flatMap { I(exactly: $0) }
        }
    }

    public static func integer<I: FixedWidthInteger & Sendable>(_ name: String, in range: ClosedRange<I>, _ description: String)
        -> Parameter<I?>
    {
        Parameter(ParameterSpec(name: name, location: .query, type: .integer(int64(range)), required: false, description: description)) {
            v in
            guard let v else { return .some(nil) }
            return v.integer.flatMap { I(exactly: $0) }.map { .some($0) }
        }
    }

    public static func requiredInteger<I: FixedWidthInteger & Sendable>(_ name: String, in range: ClosedRange<I>, _ description: String)
        -> Parameter<I>
    {
        Parameter(ParameterSpec(name: name, location: .query, type: .integer(int64(range)), required: true, description: description)) {
            $0?.integer.flatMap { I(exactly: $0) }
        }
    }

    public static func number(_ name: String, in range: ClosedRange<Double>, default value: Double, _ description: String) -> Parameter<
        Double
    > {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: .number(range), required: false, defaultValue: .number(value),
                description: description)
        ) { $0?.number }
    }

    public static func string(
        _ name: String, _ type: ParameterType, default value: String,
        _ description: String
    ) -> Parameter<String> {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: type, required: false, defaultValue: .string(value),
                description: description)
        ) { $0?.string }
    }

    public static func string(_ name: String, _ type: ParameterType, _ description: String) -> Parameter<String?> {
        Parameter(ParameterSpec(name: name, location: .query, type: type, required: false, description: description)) { v in
            guard let v else { return .some(nil) }
            return v.string.map { .some($0) }
        }
    }

    public static func requiredString(_ name: String, _ type: ParameterType, _ description: String) -> Parameter<String> {
        Parameter(ParameterSpec(name: name, location: .query, type: type, required: true, description: description)) { $0?.string }
    }

    public static func boolean(_ name: String, default value: Bool = false, _ description: String) -> Parameter<Bool> {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: .boolean, required: false, defaultValue: .boolean(value),
                description: description)
        ) { $0?.boolean }
    }

    /// One of the given cases of a string enum, by raw value.
    public static func choice<E: RawRepresentable & Sendable>(
        _ name: String, _ cases: [E], default value: E,
        _ description: String
    ) -> Parameter<E> where E.RawValue == String {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: .choice(cases.map(\.rawValue)), required: false,
                defaultValue: .string(value.rawValue), description: description)
        ) { $0?.string.flatMap(E.init(rawValue:)) }
    }

    public static func choice<E: RawRepresentable & Sendable>(_ name: String, _ cases: [E], _ description: String) -> Parameter<E?>
    where E.RawValue == String {
        Parameter(
            ParameterSpec(
                name: name, location: .query, type: .choice(cases.map(\.rawValue)), required: false,
                description: description)
        ) { v in
            guard let v else { return .some(nil) }
            return v.string.flatMap(E.init(rawValue:)).map { .some($0) }
        }
    }
}

/// A declared range in the server's integer type; bounds beyond Int64 are clamped (the published
/// bound is the enforced one).
func int64<I: FixedWidthInteger>(_ r: ClosedRange<I>) -> ClosedRange<Int64> {
    Int64(clamping: r.lowerBound)...Int64(clamping: r.upperBound)
}
