/// The text of `rqlc --help`.
enum Help {
    static let overview = """
        rqlc: try Realm Query Language queries, see how they run, and script checks.

        Usage: rqlc COMMAND [OPTIONS] QUERY

        Commands:
          format    Print the canonical form of a query.

        Options:
          -h, --help    Show this help; 'rqlc COMMAND --help' shows a command's.
          --version     Print the version.

        Exit codes: 0 success, 1 the query or the data is wrong, 2 wrong usage.

        """
}
