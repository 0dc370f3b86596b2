import RQLCore
import RQLSyntax

/// `rqlc format [--dialect rql|nspredicate] QUERY`: prints the query's canonical form.
enum FormatCommand {
    static let help = """
        Usage: rqlc format [--dialect rql|nspredicate] QUERY

        Prints the canonical form of QUERY: upper-case keywords, single spaces, single-quoted
        strings and only the parentheses the meaning needs. The output parses back to the same
        query. A syntax error prints a diagnostic with a caret under the problem and exits 1.

        Options:
          --dialect rql|nspredicate   The syntax QUERY is written in (default: rql).
          -h, --help                  Show this help.

        """

    static func run(_ arguments: [String]) -> CommandResult {
        let list: ArgumentList
        do {
            list = try ArgumentList(arguments, valued: ["--dialect"], flags: ["--help", "-h"])
        } catch {
            return .usageError(error.message, command: "format")
        }
        if list.has("--help") || list.has("-h") { return .success(help) }
        let dialect: Dialect
        switch Result(catching: { () throws(ArgumentList.UsageError) in try DialectOption.parse(list) }) {
        case .success(let value): dialect = value
        case .failure(let error): return .usageError(error.message, command: "format")
        }
        guard list.positionals.count == 1, let query = list.positionals.first else {
            return .usageError(
                list.positionals.isEmpty ? "format needs a QUERY" : "format takes one QUERY; quote it",
                command: "format"
            )
        }
        do {
            let syntax = try Parser.parse(query, dialect: dialect)
            return .success(SyntaxPrinter.print(syntax) + "\n")
        } catch {
            return .queryError(error.rendered(in: query) + "\n")
        }
    }
}

/// The `--dialect` option shared by the commands that read a query.
enum DialectOption {
    static func parse(_ list: ArgumentList) throws(ArgumentList.UsageError) -> Dialect {
        guard let name = try list.value("--dialect") else { return .rql }
        guard let dialect = Dialect(rawValue: name) else {
            throw ArgumentList.UsageError(message: "unknown dialect '\(name)'; use rql or nspredicate")
        }
        return dialect
    }
}
