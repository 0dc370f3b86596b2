/// A hand-rolled reader of command-line arguments: options with values, flags, and positionals.
///
/// Options may come before or after the positional arguments, as `--name value` or
/// `--name=value`; `--` ends the options, so a query that starts with '-' can be given
/// (`rqlc format -- "-1 == x"`).
struct ArgumentList {
    /// The arguments that are not options, in order.
    private(set) var positionals: [String] = []
    /// Every option given, in order, with its value (nil for a flag).
    private var options: [(name: String, value: String?)] = []

    /// Why the arguments cannot be read; the command turns it into exit code 2.
    struct UsageError: Error {
        var message: String
    }

    /// Reads `arguments`, accepting the options in `valued` (which take a value) and `flags`.
    init(_ arguments: [String], valued: Set<String>, flags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals.append(contentsOf: arguments[index...])
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "option '\(name)' takes no value") }
                options.append((name, nil))
            } else if valued.contains(name) {
                if let inlineValue {
                    options.append((name, inlineValue))
                } else {
                    guard index < arguments.count else { throw UsageError(message: "option '\(name)' needs a value") }
                    options.append((name, arguments[index]))
                    index += 1
                }
            } else {
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
    }

    /// Whether the flag was given.
    func has(_ flag: String) -> Bool { options.contains { $0.name == flag } }

    /// The value of an option given at most once.
    func value(_ name: String) throws(UsageError) -> String? {
        let values = self.values(name)
        guard values.count <= 1 else { throw UsageError(message: "option '\(name)' is given more than once") }
        return values.first
    }

    /// Every value of an option that may repeat (`--arg`), in order.
    func values(_ name: String) -> [String] { options.filter { $0.name == name }.compactMap(\.value) }
}
