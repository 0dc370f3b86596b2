/// What a command printed and how it ended; `rqlc`'s `main.swift` writes it out, tests read it.
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

    static func success(_ output: String) -> CommandResult { CommandResult(exitCode: 0, standardOutput: output) }

    /// The query or the data is wrong: exit 1 with the rendered diagnostic.
    static func queryError(_ message: String) -> CommandResult { CommandResult(exitCode: 1, standardError: message) }

    /// The command line is wrong: exit 2 with the problem and a pointer to the help.
    static func usageError(_ message: String, command: String? = nil) -> CommandResult {
        let help = command.map { "rqlc \($0) --help" } ?? "rqlc --help"
        return CommandResult(exitCode: 2, standardError: "rqlc: \(message)\nSee '\(help)'.\n")
    }
}
