/// `rqlc check --class NAME QUERY`: parses and type-checks, printing `ok` or the error.
enum CheckCommand {
    static let help = """
        Usage: rqlc check --class NAME [--arg JSON]... [--dialect rql|nspredicate]
                          [--data FILE | --schema FILE | --demo] QUERY

        Parses QUERY and checks it against the schema of class NAME: names, types and arguments.
        Prints 'ok', or the error with a caret under the problem and exits 1.

        """

    static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandResult {
        let list: ArgumentList
        do {
            list = try ArgumentList(
                arguments,
                valued: DataSource.options.union(["--class", "--arg", "--dialect"]),
                flags: DataSource.flags.union(["--help", "-h"])
            )
        } catch {
            return .usageError(error.message, command: "check")
        }
        if list.has("--help") || list.has("-h") { return .success(help) }
        switch PreparedQuery.prepare(list, command: "check", environment: environment) {
        case .success: return .success("ok\n")
        case .failure(let failure): return failure.result
        }
    }
}
