/// `rqlc check --class NAME QUERY`: parses and type-checks, printing `ok` or the error. Only the
/// schema is read (and the objects an argument's `$link` names).
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Parse and type-check a query against a schema."
    static let help = """
        Usage: rqlc check --class NAME [--arg JSON]... [--dialect rql|nspredicate]
                          [--engine vm|reference] [--disable-pass NAME]... [--no-optimize]
                          [--data FILE | --schema FILE | --demo] (QUERY | --query-file FILE)

        Parses QUERY and checks it against the schema of class NAME: names, types and arguments.
        Prints 'ok', or the error with a caret under the problem and exits 1. Only the schema of
        the dataset is read.

        Options:
          --class NAME        The class to query (required).
          --arg JSON          A value for $0, $1, ... in order, as for 'rqlc run'.
          --dialect D         rql (default) or nspredicate.
        \(EngineFlags.help)
                              (check only validates these; it runs nothing.)
        \(QueryInput.help)
        \(DataSource.help)

        """
    static let valuedOptions = PreparedQuery.valuedOptions
    static let flags = DataSource.flags.union(EngineFlags.flags)

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        _ = try PreparedQuery.prepare(list, need: .schema, context).bind()
        try context.output.write("ok\n")
    }
}
