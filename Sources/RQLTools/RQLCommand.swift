import RQLCore
import RQLSyntax

/// The `rqlc` command line as a library, so that tests can run it without a process.
///
///     let result = RQLCommand.run(["format", "age>2"])
///     result.standardOutput   // "age > 2\n"
public enum RQLCommand {
    public static let version = "0.1.0"

    /// Runs `rqlc` with `arguments` (without the program name).
    public static func run(
        _ arguments: [String],
        environment: CommandEnvironment = CommandEnvironment()
    ) -> CommandResult {
        guard let command = arguments.first else {
            return .usageError("no command given")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help":
            return .success(Help.overview)
        case "--version":
            return .success("rqlc \(version)\n")
        case "format":
            return FormatCommand.run(rest)
        case "run":
            return RunCommand.run(rest, environment: environment)
        case "check":
            return CheckCommand.run(rest, environment: environment)
        default:
            return .usageError("unknown command '\(command)'")
        }
    }
}
