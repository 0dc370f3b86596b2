import RQLCore
import RQLEngine

/// `rqlc format [--dialect rql|nspredicate] QUERY`: prints the query's canonical form.
enum FormatCommand: Command {
    static let name = "format"
    static let summary = "Print the canonical form of a query."
    static let help = """
        Usage: rqlc format [--dialect rql|nspredicate] (QUERY | --query-file FILE)

        Prints the canonical form of QUERY: upper-case keywords, single spaces, single-quoted
        strings and only the parentheses the meaning needs. The output parses back to the same
        query. A syntax error prints a diagnostic with a caret under the problem and exits 1.

        Options:
          --dialect D         rql (default) or nspredicate: the syntax QUERY is written in.
        \(QueryInput.help)
          -h, --help          Show this help.

        """
    static let valuedOptions = QueryInput.options.union(["--dialect"])
    static let flags: Set<String> = []

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        let dialect = try DialectOption.parse(list)
        let query = try QueryInput.read(list, context)
        let syntax: QuerySyntax
        do {
            syntax = try Parser.parse(query, dialect: dialect)
        } catch {
            throw .invalidInput(error.rendered(in: query) + "\n")
        }
        try context.output.write(SyntaxPrinter.print(syntax) + "\n")
    }
}

/// The `--dialect` option shared by the commands that read a query.
enum DialectOption {
    static func parse(_ list: ArgumentList) throws(CommandFailure) -> Dialect {
        guard let name = try list.value("--dialect") else { return .rql }
        guard let dialect = Dialect(rawValue: name) else {
            throw .usage("unknown dialect '\(name)'; use rql or nspredicate")
        }
        return dialect
    }
}
