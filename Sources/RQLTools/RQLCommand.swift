#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `rqlc` command line as a library, so that tests can run it without a process.
///
///     let result = RQLCommand.run(["format", "age>2"])
///     result.standardOutput   // "age > 2\n"
public enum RQLCommand {
    public static let version = "0.1.0"

    /// Every command, in the order `rqlc --help` lists them. A new command adds one line.
    static let commands: [any Command.Type] =
        [
            RunCommand.self, CheckCommand.self, FormatCommand.self, ExplainCommand.self, ShellCommand.self,
            SchemaCommand.self, OpcodesCommand.self,
        ]
        + StoreCommands.all

    /// The options whose value names a file to read; at most one of them may be `-`, standard
    /// input (new commands that read files add theirs).
    static let fileOptions: Set<String> = DataSource.options.union(QueryInput.options)

    /// Runs `rqlc` with `arguments` (without the program name), writing to `output` and
    /// `errors`, and returns the exit code: 0 success, 1 the query or the data is wrong, 2 wrong
    /// usage or a file that cannot be read or written.
    public static func run(
        _ arguments: [CommandArgument],
        environment: CommandEnvironment,
        output: CommandOutput,
        errors: CommandOutput
    ) -> Int32 {
        var command: String?
        var failure: CommandFailure?
        do {
            command = try dispatch(arguments, environment: environment, output: output, errors: errors)
            try output.flush()
        } catch {
            failure = error
        }
        // A failed flush of the command's output is reported like any failure.
        if let failure {
            if case .outputClosed = failure {
                return 0
            }
            do {
                try errors.write(failure.message(command: command ?? commandName(arguments)))
                try errors.flush()
            } catch {}
            return failure.exitCode
        }
        return 0
    }

    /// Runs `rqlc` with output kept in memory, for tests.
    public static func run(
        _ arguments: [String],
        environment: CommandEnvironment = CommandEnvironment()
    ) -> CommandResult {
        let output = CommandOutput.memory()
        let errors = CommandOutput.memory(name: "standard error")
        let code = run(arguments.map { CommandArgument($0) }, environment: environment, output: output, errors: errors)
        return CommandResult(exitCode: code, standardOutput: output.text, standardError: errors.text)
    }

    /// Runs `rqlc` as the process: reads the arguments as bytes (so a query that is not UTF-8
    /// is reported, not silently repaired) and exits with the exit code.
    public static func main() -> Never {
        let arguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        exit(main(arguments: arguments, endsProcess: true))
    }

    /// The process's entry point: arguments as the operating system gave them (bytes), output
    /// to file descriptors 1 and 2. A closed pipe is not a signal but a quiet end (SIGPIPE is
    /// ignored), and closed standard descriptors are held by `/dev/null` so that no file this
    /// opens takes their place. With `endsProcess` the caller exits once this returns
    /// (`CommandEnvironment.endsProcess`).
    ///
    /// ```swift
    /// exit(RQLCommand.main(arguments: [Array("check".utf8), Array("age > 2".utf8)], endsProcess: true))
    /// ```
    public static func main(arguments: [[UInt8]], endsProcess: Bool = false) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in 0...2 where fcntl(Int32(descriptor), F_GETFD) == -1 {
            // Opened read-only: a write to it fails (EBADF) and is reported; reads see nothing.
            _ = open("/dev/null", O_RDONLY)
        }
        var environment = CommandEnvironment(standardOutputIsTerminal: isatty(STDOUT_FILENO) != 0)
        environment.standardInputIsTerminal = isatty(STDIN_FILENO) != 0
        environment.standardErrorIsTerminal = isatty(STDERR_FILENO) != 0
        environment.endsProcess = endsProcess
        return run(
            arguments.map { CommandArgument(bytes: $0) },
            environment: environment,
            output: .descriptor(STDOUT_FILENO, name: "standard output"),
            errors: .descriptor(STDERR_FILENO, name: "standard error")
        )
    }

    /// Runs the command and returns its name.
    private static func dispatch(
        _ arguments: [CommandArgument],
        environment: CommandEnvironment,
        output: CommandOutput,
        errors: CommandOutput
    ) throws(CommandFailure) -> String? {
        guard let first = arguments.first else { throw .usage("no command given") }
        switch first.text {
        case "--help", "-h", "help":
            try output.write(overview)
            return nil
        case "--version":
            try output.write("rqlc \(version)\n")
            return nil
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first.text }) else {
            throw .usage("unknown command '\(first.text)'")
        }
        let list = try ArgumentList(
            Array(arguments.dropFirst()),
            valued: command.valuedOptions,
            flags: command.flags.union(["--help", "-h"])
        )
        if list.has("--help") || list.has("-h") {
            try output.write(command.help)
            return command.name
        }
        let standardInputUses = list.values(of: fileOptions).filter { $0.bytes == Array("-".utf8) }.count
        guard standardInputUses <= 1 else { throw .usage("standard input ('-') can be read only once") }
        let context = CommandContext(environment: environment, output: output, command: command.name, errors: errors)
        try command.run(list, context)
        return command.name
    }

    /// The command named by the arguments, if it exists, for the pointer to its help.
    private static func commandName(_ arguments: [CommandArgument]) -> String? {
        guard let first = arguments.first?.text else { return nil }
        return commands.first { $0.name == first }?.name
    }

    /// The text of `rqlc --help`.
    static var overview: String {
        var names: [String] = []
        var summaries: [String] = []
        for command in commands {
            names.append(command.name)
            summaries.append(command.summary)
        }
        let width = (names.map { $0.count }.max() ?? 0) + 4
        let lines = zip(names, summaries).map { name, summary in
            "  " + name + String(repeating: " ", count: width - name.count) + summary
        }
        return """
            rqlc: try Realm Query Language queries, see how they run, and script checks.

            Usage: rqlc COMMAND [OPTIONS] QUERY

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
              -h, --help    Show this help; 'rqlc COMMAND --help' shows a command's.
              --version     Print the version.

            Exit codes: 0 success, 1 the query or the data is wrong, 2 wrong usage, or a file that
            cannot be read or output that cannot be written.

            A store file whose newest version cannot be read (a damaged or cut-short last commit)
            is an error naming it (exit 1), even when the version before it is intact; commands
            that read stores take --accept-older-version to use that intact version instead
            (a warning still names what was not read; 'import' then commits on top of it, which
            replaces the unreadable version). 'verify' always reports it.

            """
    }
}

/// What a command printed and how it ended, when run with output in memory (tests).
public struct CommandResult: Equatable, Sendable {
    /// 0 success; 1 the query or the data is wrong; 2 the command was used wrongly.
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String

    public init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}
