import RQLCore
import RQLStorage

/// The query a command reads: its QUERY argument, or `--query-file FILE` (`-` is standard input)
/// for queries too long for a command line or kept in files. Either way the bytes must be UTF-8:
/// a byte that is not is an error that shows where it is, never replaced by U+FFFD.
enum QueryInput {
    static let options: Set<String> = ["--query-file"]

    /// The help lines for the query options, shared by every command that reads a query.
    static let help = """
          --query-file FILE   Read QUERY from FILE ('-': standard input) instead of the
                              command line; one trailing line break is ignored.
        """

    /// Reads the query, or fails with a usage error (none or two given, unreadable file) or an
    /// invalid-input error (not UTF-8).
    static func read(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) -> String {
        let command = context.command
        var bytes: [UInt8]
        if let file = try list.argument("--query-file") {
            guard list.positionals.isEmpty else {
                throw .usage("give the query as QUERY or with --query-file, not both")
            }
            bytes = try readAll(file, context)
            // A file written by an editor or `echo` ends with a line break that is not part of it.
            if bytes.last == UInt8(ascii: "\n") {
                bytes.removeLast()
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            }
        } else {
            guard list.positionals.count == 1, let query = list.positionals.first else {
                throw .usage(
                    list.positionals.isEmpty ? "\(command) needs a QUERY" : "\(command) takes one QUERY; quote it"
                )
            }
            bytes = query.bytes
        }
        return try decode(bytes)
    }

    /// The query's bytes as text, or an invalid-input error that shows the first byte that is
    /// not UTF-8; `rqlc shell` decodes each line with it.
    static func decode(_ bytes: [UInt8]) throws(CommandFailure) -> String {
        do {
            return try UTF8Validation.decode(bytes)
        } catch {
            let diagnostic = Diagnostic(
                .error,
                "the query is not valid UTF-8: \(error.location)",
                at: SourceSpan(offset: error.offset, length: 1, line: 1, column: 1)
            )
            throw .invalidInput(bytes.withUnsafeBufferPointer { diagnostic.rendered(inUTF8: $0) })
        }
    }

    /// Every byte of the file named by `path`.
    static func readAll(_ path: CommandArgument, _ context: CommandContext) throws(CommandFailure) -> [UInt8] {
        do {
            return try context.environment.open(path.bytes).readAll()
        } catch {
            throw .io(error.message)
        }
    }
}
