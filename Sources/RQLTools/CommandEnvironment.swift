import RQLCore
import RQLDatasets
import RQLStorage

/// What a command needs from the process it runs in, so tests can run commands without one.
///
///     let environment = CommandEnvironment(files: ["d.json": #"{"schema": {}}"#])
public struct CommandEnvironment: Sendable {
    /// Whether standard output is a terminal: `rqlc run` then prints a table instead of JSON lines.
    public var standardOutputIsTerminal: Bool
    /// Whether standard input is a terminal: `rqlc shell` then edits lines and prompts (when
    /// standard output is one too); otherwise it reads a script without prompts.
    public var standardInputIsTerminal = false
    /// Whether standard error is a terminal: a long `rqlc import` then shows its progress there.
    public var standardErrorIsTerminal = false
    /// Whether the process ends when the command returns (`rqlc` itself; never a test running
    /// commands in one process): a command may then leave what it read for the exit to free.
    ///
    /// ```swift
    /// environment.endsProcess = true   // only where `exit` follows the command
    /// ```
    public var endsProcess = false
    /// Opens a file named on the command line for reading (its bytes as given); `-` is standard
    /// input.
    public var open: @Sendable ([UInt8]) throws(InputFailure) -> ByteInput

    public init(
        standardOutputIsTerminal: Bool = false,
        open: @escaping @Sendable ([UInt8]) throws(InputFailure) -> ByteInput = CommandEnvironment.openFile
    ) {
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.open = open
    }

    /// An environment whose files are the given texts (and bytes), and whose standard input is
    /// `standardInput`: for tests.
    public init(
        standardOutputIsTerminal: Bool = false,
        files: [String: String],
        binaryFiles: [String: [UInt8]] = [:],
        standardInput: [UInt8] = []
    ) {
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.open = { (path) throws(InputFailure) in
            let name = String(decoding: path, as: UTF8.self)
            if name == "-" { return MemoryInput(standardInput) }
            if let text = files[name] { return MemoryInput(Array(text.utf8)) }
            if let bytes = binaryFiles[name] { return MemoryInput(bytes) }
            throw InputFailure("cannot read '\(name)': no such file")
        }
    }

    /// Opens a real file; `-` is the process's standard input.
    @Sendable
    public static func openFile(_ path: [UInt8]) throws(InputFailure) -> ByteInput {
        if path == Array("-".utf8) { return FileInput(descriptor: 0, name: "standard input") }
        return try FileInput(path: path)
    }
}
