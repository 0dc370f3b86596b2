/// One `rqlc` command. Adding a command is one file with a type that conforms, and one line in
/// `RQLCommand.commands`; reading the query (`QueryInput`), the data (`DataSource`) and writing
/// output (`CommandContext.output`) are shared, so every command behaves the same on bad input.
///
///     enum HelloCommand: Command {
///         static let name = "hello"
///         static let summary = "Say hello."
///         static let help = "Usage: rqlc hello\n"
///         static let valuedOptions: Set<String> = []
///         static let flags: Set<String> = []
///         static func run(_ arguments: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
///             try context.output.write("hello\n")
///         }
///     }
protocol Command: Sendable {
    /// The word after `rqlc`.
    static var name: String { get }
    /// One line for `rqlc --help`.
    static var summary: String { get }
    /// The text of `rqlc NAME --help`.
    static var help: String { get }
    /// Options that take a value (`--class`); `--help`/`-h` are accepted by every command.
    static var valuedOptions: Set<String> { get }
    /// Options that take none (`--count`).
    static var flags: Set<String> { get }
    /// Does the work, writing to `context.output`; a failure says how the command ends.
    static func run(_ arguments: ArgumentList, _ context: CommandContext) throws(CommandFailure)
}

/// What a running command is given: the environment and where its output goes.
struct CommandContext {
    let environment: CommandEnvironment
    let output: CommandOutput
    /// The command's name, for messages.
    let command: String
    /// Standard error, for warnings of a command that goes on (a failure is thrown instead).
    var errors: CommandOutput? = nil
}
