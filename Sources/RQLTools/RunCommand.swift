import RQLCore
import RQLEngine
import RQLSema
import RQLStorage
import RQLSyntax

/// `rqlc run --class NAME [--count] [--arg JSON]… [--format F] [--dialect D] QUERY`.
enum RunCommand {
    static let help = """
        Usage: rqlc run --class NAME [--count] [--arg JSON]... [--format jsonl|table|json|keys]
                        [--dialect rql|nspredicate] [--data FILE | --schema FILE | --demo] QUERY

        Runs QUERY against the objects of class NAME and prints the matches, after any SORT,
        DISTINCT and LIMIT in the query.

        Options:
          --class NAME        The class to query (required).
          --count             Print only the number of matches.
          --arg JSON          A value for $0, $1, ... in order (NSPredicate: for %@ ...). JSON in the
                              dataset format's mixed form ({"$oid": "..."}, {"$date": ...}); an array
                              is a list argument; {"$geoBox": [[lon, lat], [lon, lat]]},
                              {"$geoCircle": {"center": [lon, lat], "radius": RADIANS}} and
                              {"$geoPolygon": [[[lon, lat], ...], ...]} are regions.
          --format F          jsonl (default when not a terminal), table (default on a terminal),
                              json, or keys (primary keys, or positions for classes without one).
          --dialect D         rql (default) or nspredicate.
          --data FILE         A dataset (schema and objects) in the JSON dataset format.
          --schema FILE       A dataset file of which only the schema is read.
          --demo              The built-in demo database (the default).

        """

    static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandResult {
        let list: ArgumentList
        do {
            list = try ArgumentList(
                arguments,
                valued: DataSource.options.union(["--class", "--arg", "--format", "--dialect"]),
                flags: DataSource.flags.union(["--count", "--help", "-h"])
            )
        } catch {
            return .usageError(error.message, command: "run")
        }
        if list.has("--help") || list.has("-h") { return .success(help) }
        let format: ResultFormat
        do {
            let name = try list.value("--format") ?? (environment.standardOutputIsTerminal ? "table" : "jsonl")
            guard let value = ResultFormat(rawValue: name) else {
                return .usageError("unknown format '\(name)'; use jsonl, table, json or keys", command: "run")
            }
            format = value
        } catch {
            return .usageError(error.message, command: "run")
        }
        let prepared: PreparedQuery
        switch PreparedQuery.prepare(list, command: "run", environment: environment) {
        case .success(let value): prepared = value
        case .failure(let failure): return failure.result
        }
        let keys = QueryEngine.run(prepared.query, on: prepared.store)
        if list.has("--count") { return .success("\(keys.count)\n") }
        guard let table = prepared.store.table(named: prepared.query.className) else { return .success("") }
        return .success(format.render(keys, in: table, store: prepared.store))
    }
}
