import RQLCore
import RQLEngine
import RQLStorage

/// `rqlc run --class NAME [--count] [--arg JSON]… [--format F] QUERY`: runs a query and prints
/// the matching objects.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "Run a query against a dataset (the built-in demo database by default)."
    static let help = """
        Usage: rqlc run --class NAME [--count] [--arg JSON]... [--format jsonl|table|json|keys|csv]
                        [--dialect rql|nspredicate] [--engine vm|reference] [--disable-pass NAME]...
                        [--no-optimize] [--data FILE | --schema FILE | --demo] (QUERY | --query-file FILE)

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
                              json, keys (primary keys, or positions for classes without one), or
                              csv (a header of property names, then RFC 4180 rows).
          --dialect D         rql (default) or nspredicate.
        \(EngineFlags.help)
        \(QueryInput.help)
        \(DataSource.help)

        """
    static let valuedOptions = PreparedQuery.valuedOptions.union(["--format"])
    static let flags = DataSource.flags.union(EngineFlags.flags).union(["--count"])

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        let name = try list.value("--format") ?? (context.environment.standardOutputIsTerminal ? "table" : "jsonl")
        guard let format = ResultFormat(rawValue: name) else {
            throw .usage("unknown format '\(name)'; use jsonl, table, json, keys or csv")
        }
        let prepared = try PreparedQuery.prepare(list, need: .objects, context)
        defer {
            prepared.data.keepOpen()
            prepared.data.keepUntilExit(context.environment)
        }
        let compiled = try prepared.compile()
        try answer(compiled, prepared, on: prepared.data.reader, count: list.has("--count"), format, context)
    }

    /// Runs `compiled` on `store` and writes the answer. A store file's damaged block met by the
    /// query or while writing its objects ends the command (exit 1) before a row it spoiled is
    /// written. `rqlc shell` answers each line with it.
    static func answer<Store: StoreReader>(
        _ compiled: CompiledQuery,
        _ prepared: PreparedQuery,
        on store: Store,
        count: Bool,
        _ format: ResultFormat,
        _ context: CommandContext
    ) throws(CommandFailure) {
        if count {
            let matches = prepared.engine.count(compiled, on: store)
            try StoreFileSource.checkDamage(store)
            try context.output.write("\(matches)\n")
            return
        }
        let keys = prepared.engine.run(compiled, on: store)
        try StoreFileSource.checkDamage(store)
        guard let table = store.table(named: compiled.className) else { return }
        try format.write(keys, in: table, store: store, to: context.output)
    }
}
