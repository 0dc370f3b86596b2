import Foundation

/// What a command needs from the process it runs in, so tests can run commands without one.
public struct CommandEnvironment: Sendable {
    /// Whether standard output is a terminal: `rqlc run` then prints a table instead of JSON lines.
    public var standardOutputIsTerminal: Bool
    /// Reads a file named on the command line.
    public var readFile: @Sendable (String) throws -> String

    public init(
        standardOutputIsTerminal: Bool = false,
        readFile: @escaping @Sendable (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
    ) {
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.readFile = readFile
    }
}
