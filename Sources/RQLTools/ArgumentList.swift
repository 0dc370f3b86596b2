/// A hand-rolled reader of command-line arguments: options with values, flags, and positionals.
///
/// Options may come before or after the positional arguments, as `--name value` or
/// `--name=value`; `--` ends the options, so a query that starts with '-' can be given
/// (`rqlc format -- "-1 == x"`). Values keep their bytes (`CommandArgument`).
struct ArgumentList {
    /// The arguments that are not options, in order.
    private(set) var positionals: [CommandArgument] = []
    /// Every option given, in order, with its value (nil for a flag).
    private var options: [(name: String, value: CommandArgument?)] = []

    /// Reads `arguments`, accepting the options in `valued` (which take a value) and `flags`.
    init(_ arguments: [CommandArgument], valued: Set<String>, flags: Set<String>) throws(CommandFailure) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.bytes == Array("--".utf8) {
                positionals.append(contentsOf: arguments[index...])
                break
            }
            guard argument.bytes.first == UInt8(ascii: "-"), argument.bytes.count > 1 else {
                positionals.append(argument)
                continue
            }
            var name = argument.text
            var inlineValue: CommandArgument?
            if argument.bytes.starts(with: Array("--".utf8)),
                let equals = argument.bytes.firstIndex(of: UInt8(ascii: "="))
            {
                name = String(decoding: argument.bytes[..<equals], as: UTF8.self)
                inlineValue = CommandArgument(bytes: Array(argument.bytes[(equals + 1)...]))
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("option '\(name)' takes no value") }
                options.append((name, nil))
            } else if valued.contains(name) {
                if let inlineValue {
                    options.append((name, inlineValue))
                } else {
                    guard index < arguments.count else { throw .usage("option '\(name)' needs a value") }
                    options.append((name, arguments[index]))
                    index += 1
                }
            } else {
                throw .usage("unknown option '\(name)'")
            }
        }
    }

    /// The list with one more option, as if it were given on the command line: `rqlc shell FILE`
    /// reads FILE as `--data FILE`.
    func adding(_ name: String, _ value: CommandArgument) -> ArgumentList {
        var list = self
        list.options.append((name, value))
        return list
    }

    /// Whether the flag was given.
    func has(_ flag: String) -> Bool { options.contains { $0.name == flag } }

    /// The value of an option given at most once, as text.
    func value(_ name: String) throws(CommandFailure) -> String? {
        try argument(name)?.text
    }

    /// The value of an option given at most once, with its bytes.
    func argument(_ name: String) throws(CommandFailure) -> CommandArgument? {
        let values = self.values(name)
        guard values.count <= 1 else { throw .usage("option '\(name)' is given more than once") }
        return values.first
    }

    /// Every value of an option that may repeat (`--arg`), in order.
    func values(_ name: String) -> [CommandArgument] { options.filter { $0.name == name }.compactMap(\.value) }

    /// The values of the options in `names` (in order given): which files a command will read.
    func values(of names: Set<String>) -> [CommandArgument] {
        options.filter { names.contains($0.name) }.compactMap(\.value)
    }
}
