import RQLCore

/// How a command ends early, and so its exit code and what it prints to standard error.
enum CommandFailure: Error {
    /// The command line is wrong: exit 2 with the problem and a pointer to the help.
    case usage(String)
    /// The query, the data or an argument is wrong: exit 1 with the message as given (usually a
    /// rendered diagnostic, already escaped for a terminal).
    case invalidInput(String)
    /// A file or stream named on the command line cannot be opened, or is not what the command
    /// takes (missing, a directory, a FIFO where a store is expected): exit 2 with the problem.
    case io(String)
    /// Reading or writing failed once under way (a full disk, an I/O error, a closed output):
    /// exit 1 with the problem. The command line was right; the run failed.
    case failed(String)
    /// Standard output's reader went away (`rqlc run … | head`): stop quietly, as `cat` does.
    case outputClosed

    var exitCode: Int32 {
        switch self {
        case .usage, .io: 2
        case .invalidInput, .failed: 1
        case .outputClosed: 0
        }
    }

    /// What goes to standard error for a failure of `command` (nil for `rqlc` itself).
    func message(command: String?) -> String {
        switch self {
        case .usage(let problem):
            let help = command.map { "rqlc \($0) --help" } ?? "rqlc --help"
            return "rqlc: \(TerminalText.escaped(problem))\nSee '\(help)'.\n"
        case .invalidInput(let message): return message.hasSuffix("\n") ? message : message + "\n"
        case .io(let problem), .failed(let problem): return "rqlc: \(TerminalText.escaped(problem))\n"
        case .outputClosed: return ""
        }
    }
}
