import RQLCore
import RQLEngine

/// `rqlc shell [FILE]`: an interactive session over a dataset, a store file or the demo
/// database, as `sqlite3` is over a database: a line is a query on the current class, a line
/// starting with `.` a command. The data is read once; each query is compiled and run as
/// `rqlc run` does (`RunCommand.answer`), `.explain` as `rqlc explain` (`ExplainCommand.explain`),
/// and a query error is the diagnostic `rqlc check` prints.
enum ShellCommand: Command {
    static let name = "shell"
    static let summary = "An interactive session of queries and dot-commands (scripts on standard input)."
    static let help = """
        Usage: rqlc shell [FILE] [--class NAME] [--format F] [--dialect rql|nspredicate] [--bail]
                          [--engine vm|reference] [--disable-pass NAME]... [--no-optimize]
                          [--data FILE | --schema FILE | --demo]

        Reads FILE (a JSON dataset or a store file; the built-in demo database when none is
        given) once, then reads lines: a line is a query run against the current class, a line
        starting with '.' a command. When standard input and output are terminals the line can
        be edited (arrows, Home/End, Backspace/Delete, Ctrl-A/E/U/K/W, Up/Down through the
        history, which is kept in ~/.rqlc_history; Ctrl-C abandons the line, Ctrl-D on an empty
        line quits). Otherwise standard input is a script, read without prompts:

            printf '.class Dog\\nage > 2\\n' | rqlc shell

        A query error prints the diagnostic 'rqlc check' prints (in a script, after the line
        number) and the session goes on. A script, like one piped into sqlite3, runs to its end
        and then exits 1 if any line failed (0 otherwise); --bail stops at the first failure.
        A line longer than \(maximumLineLength) bytes ends the session with exit 1.

        Commands:
        \(dotHelp)
        Options:
          --class NAME        The class queried first (otherwise set it with .class).
          --format F          The output format first: jsonl (default when not a terminal),
                              table (default on a terminal), json, keys or csv, as for 'rqlc run'.
          --dialect D         rql (default) or nspredicate.
          --bail              In a script, stop at the first line that fails.
        \(EngineFlags.help)
        \(DataSource.help)

        """
    static let valuedOptions = DataSource.options.union(EngineFlags.valuedOptions)
        .union(["--class", "--format", "--dialect"])
    static let flags = DataSource.flags.union(EngineFlags.flags).union(["--bail"])

    /// The longest line read, in bytes: a longer one (`/dev/zero` has no line breaks) is an error,
    /// not a wait for memory to run out.
    static let maximumLineLength = 1 << 20

    /// The dot-commands, for `.help` and `--help`.
    static let dotHelp = """
          .class NAME         Query objects of class NAME.
          .schema [CLASS]     The classes and their properties (or one class), as 'rqlc schema'.
          .format F           Print results as jsonl, table, json, keys or csv.
          .count on|off       Print only the number of matches.
          .timer on|off       Print how long each query took.
          .dialect D          Read queries as rql or nspredicate.
          .explain QUERY      Every stage of compiling QUERY, as 'rqlc explain'.
          .help               This list.
          .quit, .exit        End the session (so does the end of input, Ctrl-D).

        """

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        var list = list
        guard list.positionals.count <= 1 else { throw .usage("give at most one FILE") }
        if let file = list.positionals.first {
            let data = try list.argument("--data")
            let schema = try list.argument("--schema")
            guard data == nil, schema == nil, !list.has("--demo") else {
                throw .usage("give the data as FILE or with --data, --schema or --demo, not both")
            }
            list = list.adding("--data", file)
        }
        let schemaFile = try list.argument("--schema")
        let source = try list.argument("--data") ?? schemaFile
        if source?.bytes == Array("-".utf8) {
            throw .usage("the shell reads its lines from standard input; give the data as a file")
        }
        var session = try ShellSession(list, describing: source, context)
        let interactive = context.environment.standardInputIsTerminal && context.environment.standardOutputIsTerminal
        if interactive {
            try session.interact()
            return
        }
        let input: ByteInput
        do {
            input = try context.environment.open(Array("-".utf8))
        } catch {
            throw .io(error.message)
        }
        try session.runScript(LineReader(input), bail: list.has("--bail"))
    }
}

/// The state of a shell session: the data and engine read once, and what the dot-commands set.
struct ShellSession {
    /// The data, dialect and engine; each query sets the text and class of a copy.
    private var prepared: PreparedQuery
    /// The same engine recording the optimizer's trace, for `.explain`.
    private let explainEngine: QueryEngine
    private var className: String?
    private var format: ResultFormat
    private var counts = false
    private var timer = false
    private let context: CommandContext
    /// What the banner calls the data.
    private let sourceName: String

    /// What a line did.
    enum Outcome {
        case next
        case quit
    }

    init(_ list: ArgumentList, describing source: CommandArgument?, _ context: CommandContext) throws(CommandFailure) {
        let formatName =
            try list.value("--format") ?? (context.environment.standardOutputIsTerminal ? "table" : "jsonl")
        guard let format = ResultFormat(rawValue: formatName) else {
            throw .usage("unknown format '\(formatName)'; use jsonl, table, json, keys or csv")
        }
        self.format = format
        let dialect = try DialectOption.parse(list)
        let engine = try EngineFlags.engine(list)
        explainEngine = try EngineFlags.engine(list, recordsTrace: true)
        let data = try DataSource.load(list, need: .objects, context)
        prepared = PreparedQuery(data: data, text: "", dialect: dialect, className: "", arguments: [], engine: engine)
        self.context = context
        sourceName = source.map { TerminalText.escaped($0.text) } ?? "the demo database"
        if let name = try list.value("--class") { try choose(name) }
    }

    /// Runs the lines of a script: every line, reporting each failure with its line number, or
    /// up to the first failure with `bail`; exits 1 at the end if any line failed.
    mutating func runScript(_ reader: LineReader, bail: Bool) throws(CommandFailure) {
        var reader = reader
        var failed = 0
        var number = 0
        while let bytes = try reader.next() {
            number += 1
            do {
                if try perform(QueryInput.decode(bytes)) == .quit { break }
            } catch {
                try report(error, prefix: "line \(number): ")
                failed += 1
                if bail { break }
            }
            try context.output.flush()
        }
        if failed > 0 {
            throw .failed("\(failed) of \(number) lines failed")
        }
    }

    /// Reads lines from the terminal with a prompt, editing and history, until `.quit` or the
    /// end of input. Errors are shown and the session goes on.
    mutating func interact() throws(CommandFailure) {
        let history = ShellHistory.inHome()
        let (lines, warning) = history.load()
        if let warning { try context.errors?.write(warning) }
        var editor = LineEditor(
            history: lines,
            maximumLength: ShellCommand.maximumLineLength,
            historyLimit: history.limit
        )
        try context.output.write(
            "rqlc \(RQLCommand.version) shell on \(sourceName). Enter .help for the commands, .quit to leave.\n"
        )
        var savingHistory = true
        while true {
            try context.output.flush()
            try context.errors?.flush()
            let prompt = (className.map { TerminalText.escaped($0) } ?? "rqlc") + "> "
            guard case .text(let line) = Terminal.readLine(prompt: prompt, editor: &editor) else { return }
            if savingHistory, let warning = history.save(line) {
                try context.errors?.write(warning)
                savingHistory = false
            }
            do {
                if try perform(line) == .quit { return }
            } catch {
                try report(error, prefix: "")
            }
        }
    }

    /// Writes a line's failure to standard error; a failure to write output ends the session.
    private func report(_ failure: CommandFailure, prefix: String) throws(CommandFailure) {
        switch failure {
        case .outputClosed, .failed: throw failure
        case .usage(let problem): try context.errors?.write(prefix + "error: \(TerminalText.escaped(problem))\n")
        default: try context.errors?.write(prefix + failure.message(command: ShellCommand.name))
        }
        try context.errors?.flush()
    }

    /// Does what one line says.
    mutating func perform(_ line: String) throws(CommandFailure) -> Outcome {
        let trimmed = line.drop { $0.isWhitespace }
        guard trimmed.first == "." else {
            if !trimmed.allSatisfy(\.isWhitespace) { try query(line) }
            return .next
        }
        let word = String(trimmed.prefix { !$0.isWhitespace })
        let rest = String(trimmed.dropFirst(word.count).drop { $0.isWhitespace })
        var argument = rest
        while argument.last?.isWhitespace == true { argument.removeLast() }
        switch word {
        case ".quit", ".exit":
            return .quit
        case ".help":
            try context.output.write(ShellCommand.dotHelp)
        case ".class":
            guard !argument.isEmpty else { throw .usage(".class needs a class name") }
            try choose(argument)
        case ".schema":
            let schema = prepared.data.reader.schema
            var classes = schema.classes
            if !argument.isEmpty {
                guard let objectSchema = schema[argument] else {
                    throw PreparedQuery.unknownClass(argument, in: schema)
                }
                classes = [objectSchema]
            }
            try context.output.write(SchemaText.text(classes, of: schema))
        case ".format":
            guard let format = ResultFormat(rawValue: argument) else {
                throw .usage("unknown format '\(argument)'; use jsonl, table, json, keys or csv")
            }
            self.format = format
        case ".count": counts = try onOff(word, argument)
        case ".timer": timer = try onOff(word, argument)
        case ".dialect":
            guard let dialect = Dialect(rawValue: argument) else {
                throw .usage("unknown dialect '\(argument)'; use rql or nspredicate")
            }
            prepared.dialect = dialect
        case ".explain":
            guard !rest.isEmpty else { throw .usage(".explain needs a query") }
            var explained = try asking(rest)
            explained.engine = explainEngine
            try ExplainCommand.explain(explained, json: false, to: context.output)
        default:
            throw .usage("unknown command '\(word)'; .help lists the commands")
        }
        return .next
    }

    /// Runs a query on the current class and prints the answer in the current format.
    private func query(_ text: String) throws(CommandFailure) {
        let clock = ContinuousClock()
        let start = clock.now
        let query = try asking(text)
        try RunCommand.answer(try query.compile(), query, on: query.data.reader, count: counts, format, context)
        if timer {
            let elapsed = clock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
            try context.output.write("time: \(formatted(milliseconds)) ms\n")
        }
    }

    /// The query `text` on the current class, checked as `rqlc check` checks it.
    private func asking(_ text: String) throws(CommandFailure) -> PreparedQuery {
        guard let className else {
            let names = prepared.data.reader.schema.classes.filter { !$0.isEmbedded }.map(\.name)
            let hint = names.first.map { " (e.g. '.class \($0)')" } ?? ""
            throw .usage("no class to query; choose one with .class NAME\(hint)".escapedForTerminal)
        }
        var query = prepared
        query.text = text
        query.className = className
        _ = try query.bind()
        return query
    }

    private mutating func choose(_ name: String) throws(CommandFailure) {
        let schema = prepared.data.reader.schema
        guard let objectSchema = schema[name], !objectSchema.isEmbedded else {
            throw PreparedQuery.unknownClass(name, in: schema)
        }
        className = name
    }

    private func onOff(_ command: String, _ value: String) throws(CommandFailure) -> Bool {
        switch value {
        case "on": return true
        case "off": return false
        default: throw .usage("\(command) takes on or off")
        }
    }

    /// Milliseconds with three decimals.
    private func formatted(_ milliseconds: Double) -> String {
        let thousandths = Int((milliseconds * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// The lines of a script on standard input, as bytes without their line break (and a CR before
/// it). A line longer than `ShellCommand.maximumLineLength` is an error, found without reading
/// more than that, so an endless stream without line breaks fails rather than fills memory.
struct LineReader {
    private let input: ByteInput
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How much of the unread part has been searched for a line break.
    private var searched = 0
    private var ended = false
    private var lineNumber = 0

    init(_ input: ByteInput) {
        self.input = input
    }

    /// The next line, or nil at the end of the input.
    mutating func next() throws(CommandFailure) -> [UInt8]? {
        while true {
            if let end = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[start..<end])
                start = end + 1
                searched = 0
                lineNumber += 1
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return line
            }
            searched = buffer.count - start
            if searched > ShellCommand.maximumLineLength {
                throw .invalidInput(
                    "error: line \(lineNumber + 1) is longer than \(ShellCommand.maximumLineLength) bytes\n"
                )
            }
            if ended {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                searched = 0
                lineNumber += 1
                return line
            }
            // Drop what was read before reading more, so the buffer holds at most one line.
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            if input.read(appendingTo: &buffer, upTo: 1 << 16) == 0 {
                if let failure = input.failure { throw .failed(failure.message) }
                ended = true
            }
        }
    }
}
