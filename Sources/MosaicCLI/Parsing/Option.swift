import Synchronization

/// The options of one command, declared once as typed properties:
///
///     struct Options: CommandOptions {
///         @Option("permlink", "P", help: "1–255 of a-z, 0-9, -") var permlink: String?
///         @Option(help: "tokens for the write pool") var lock: TokenAmount?
///         @Flag(help: "overwrite REMOTE if it exists") var replace: Bool
///         var alloc = AllocOption()   // a group of options shared by several commands
///     }
///
/// The parser, `--help` and the command all read these declarations, so a misspelt option fails
/// to compile instead of reading nothing. To add an option, add one property: its name is the
/// first argument (default: the property name in kebab case, `publicURL` → `--public-url`), the
/// placeholder in help the second (default: the type's `valueName`), and the property's type says
/// how it binds: `T` is required (or has the default `= value`), `T?` may be absent, `[T]` repeats.
/// `T` is any `OptionValue`; its `parse` does the format and range checks.
protocol CommandOptions: Sendable {
    init()
}

/// What a value given on the command line parses into. The type owns its checks (format, range),
/// so every option of that type refuses the same mistakes with the same words.
protocol OptionValue: Sendable {
    /// The placeholder in help when a declaration names none, e.g. `TOKENS`.
    static var valueName: String { get }
    /// Parses the text given to `--option`; throws the usage error the user sees.
    static func parse(_ text: String, option: String) throws -> Self
}

/// One declared option or flag, as the parser and help see it.
protocol OptionDeclaration: Sendable {
    var explicitName: String? { get }
    func flag(named name: String) -> OptionSpec
    /// Reads this option's words out of the invocation into the property.
    func bind(_ words: ParsedWords, name: String) throws
}

/// The words the parser found for each option of a command, before they become typed values.
struct ParsedWords: Sendable {
    let commandPath: [String]
    let values: [String: [String]]
    let toggles: Set<String>

    var commandName: String { "mosaic \(commandPath.joined(separator: " "))" }
}

/// Holds a property's parsed value; the declaration is a value type, its value is set once when
/// the command's options are bound.
final class OptionSlot<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)

    func set(_ value: Value) { state.withLock { $0 = value } }

    func get(_ name: String) -> Value {
        guard let value = state.withLock({ $0 }) else {
            preconditionFailure("option \(name) was read before the command's options were bound")
        }
        return value
    }
}

/// `--name VALUE`, read as a typed value. See `CommandOptions` for how to declare one.
@propertyWrapper
struct Option<Value: Sendable>: OptionDeclaration {
    let explicitName: String?
    let valueName: String
    let help: String
    let repeatable: Bool
    private let convert: @Sendable ([String], String, ParsedWords) throws -> Value
    private let slot = OptionSlot<Value>()

    var wrappedValue: Value { slot.get(explicitName ?? valueName) }

    func flag(named name: String) -> OptionSpec {
        .option(name, valueName, help, repeatable: repeatable)
    }

    func bind(_ words: ParsedWords, name: String) throws {
        slot.set(try convert(words.values[name] ?? [], name, words))
    }

    fileprivate init(
        _ name: String?, _ valueName: String, help: String, repeatable: Bool = false,
        convert: @escaping @Sendable ([String], String, ParsedWords) throws -> Value
    ) {
        self.explicitName = name
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.convert = convert
    }
}

extension Option where Value: OptionValue {
    /// A required option: missing, it is a usage error.
    init(_ name: String? = nil, _ valueName: String? = nil, help: String) {
        self.init(name, valueName ?? Value.valueName, help: help) { texts, name, words in
            guard let text = texts.last else {
                throw CLIError.usage(
                    "missing --\(name) for '\(words.commandName)'; see 'mosaic help \(words.commandPath.joined(separator: " "))'")
            }
            return try Value.parse(text, option: name)
        }
    }

    /// An option with a default value.
    init(wrappedValue: Value, _ name: String? = nil, _ valueName: String? = nil, help: String) {
        self.init(name, valueName ?? Value.valueName, help: help) { texts, name, _ in
            try texts.last.map { try Value.parse($0, option: name) } ?? wrappedValue
        }
    }
}

extension Option {
    /// An option that may be absent (nil).
    init<T: OptionValue>(_ name: String? = nil, _ valueName: String? = nil, help: String) where Value == T? {
        self.init(name, valueName ?? T.valueName, help: help) { texts, name, _ in
            try texts.last.map { try T.parse($0, option: name) }
        }
    }

    /// An option that may be given several times, in the order given.
    init<T: OptionValue>(_ name: String? = nil, _ valueName: String? = nil, help: String) where Value == [T] {
        self.init(name, valueName ?? T.valueName, help: help, repeatable: true) { texts, name, _ in
            try texts.map { try T.parse($0, option: name) }
        }
    }
}

/// `--name` without a value: true when given.
@propertyWrapper
struct Flag: OptionDeclaration {
    let explicitName: String?
    let help: String
    /// A one-letter alias (`-r` for `--recursive`), for the flags people type from other tools.
    let short: Character?
    private let slot = OptionSlot<Bool>()

    init(_ name: String? = nil, short: Character? = nil, help: String) {
        self.explicitName = name
        self.short = short
        self.help = help
    }

    var wrappedValue: Bool { slot.get(explicitName ?? "flag") }

    func flag(named name: String) -> OptionSpec {
        var spec = OptionSpec.toggle(name, help)
        spec.short = short
        return spec
    }

    func bind(_ words: ParsedWords, name: String) throws { slot.set(words.toggles.contains(name)) }
}

extension CommandOptions {
    /// The declarations in declaration order, with their option names; groups are expanded.
    static var declarations: [(name: String, declaration: any OptionDeclaration)] { collect(Self()) }

    /// The flags for the parser and help, in declaration order.
    static var flags: [OptionSpec] { declarations.map { $0.declaration.flag(named: $0.name) } }

    /// Fresh options bound to what the parser found.
    static func bind(_ words: ParsedWords) throws -> Self {
        let options = Self()
        for (name, declaration) in collect(options) { try declaration.bind(words, name: name) }
        return options
    }

    private static func collect(_ value: Any) -> [(name: String, declaration: any OptionDeclaration)] {
        Mirror(reflecting: value).children.flatMap { child -> [(name: String, declaration: any OptionDeclaration)] in
            if let declaration = child.value as? any OptionDeclaration {
                let property = (child.label ?? "").drop { $0 == "_" }
                return [(declaration.explicitName ?? kebabCase(String(property)), declaration)]
            }
            if let group = child.value as? any CommandOptions { return collect(group) }
            return []
        }
    }

    /// `writePrice` → `write-price`, `publicURL` → `public-url`.
    static func kebabCase(_ name: String) -> String {
        var out = ""
        let chars = Array(name)
        for (i, c) in chars.enumerated() {
            if c.isUppercase && i > 0 && (chars[i - 1].isLowercase || (i + 1 < chars.count && chars[i + 1].isLowercase)) { out += "-" }
            out += c.lowercased()
        }
        return out
    }
}

/// A command without options of its own.
struct NoOptions: CommandOptions {}
