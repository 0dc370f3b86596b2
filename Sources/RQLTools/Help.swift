/// The text of `rqlc --help`.
enum Help {
    static let overview = """
        rqlc: try Realm Query Language queries, see how they run, and script checks.

        Usage: rqlc COMMAND [OPTIONS] QUERY

        Commands:
          run       Run a query against a dataset (the built-in demo database by default).
          check     Parse and type-check a query against a schema.
          format    Print the canonical form of a query.

        Options:
          -h, --help    Show this help; 'rqlc COMMAND --help' shows a command's.
          --version     Print the version.

        Exit codes: 0 success, 1 the query or the data is wrong, 2 wrong usage.

        """
}
