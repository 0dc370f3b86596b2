import RQLEngine
import RQLStorage

/// `rqlc explain --class NAME [--format text|json] QUERY`: prints every stage of compiling a
/// query: syntax tree, bound IR, the optimizer's passes with the plan after each that fired, the
/// `QUERY PLAN` tree with cost and selectivity estimates, and the bytecode listing.
enum ExplainCommand: Command {
    static let name = "explain"
    static let summary = "Show every stage of compiling a query: syntax tree, IR, passes, plan, bytecode."
    static let help = """
        Usage: rqlc explain --class NAME [--arg JSON]... [--format text|json]
                            [--dialect rql|nspredicate] [--engine vm|reference] [--disable-pass NAME]...
                            [--no-optimize] [--data FILE | --schema FILE | --demo] (QUERY | --query-file FILE)

        Compiles QUERY for the objects of class NAME and prints every stage: the parsed syntax
        tree, the bound and type-checked IR, each optimizer pass (+ fired, - did not, x disabled)
        with the plan after each one that fired, the physical plan as a QUERY PLAN tree (access
        path: primary key, index, sorted-index range or full scan; the remaining conditions in
        the order they run, with estimated cost and selectivity; sort, distinct, top-N, limit),
        and the bytecode listing (addr opcode p1 p2 p3 p4 p5 comment). Estimates come from the
        dataset's statistics.

        Options:
          --class NAME        The class to query (required).
          --arg JSON          A value for $0, $1, ... in order, as for 'rqlc run'.
          --format F          text (default) or json (one object with every stage, for tools).
          --dialect D         rql (default) or nspredicate.
        \(EngineFlags.help)
        \(QueryInput.help)
        \(DataSource.help)

        """
    static let valuedOptions = PreparedQuery.valuedOptions.union(["--format"])
    static let flags = DataSource.flags.union(EngineFlags.flags)

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        let format = try list.value("--format") ?? "text"
        guard format == "text" || format == "json" else {
            throw .usage("unknown format '\(format)'; use text or json")
        }
        let prepared = try PreparedQuery.prepare(list, need: .objects, recordsTrace: true, context)
        defer { prepared.data.keepOpen() }
        try explain(prepared, json: format == "json", to: context.output)
    }

    /// Prints every stage of compiling the query (its engine records the optimizer's trace);
    /// `rqlc shell` runs `.explain` with it.
    static func explain(_ prepared: PreparedQuery, json: Bool, to output: CommandOutput) throws(CommandFailure) {
        let explanation = prepared.engine.explain(try prepared.compile())
        try StoreFileSource.checkDamage(prepared.data.reader)
        if json {
            try output.write(explanation.json.serialized(pretty: true) + "\n")
        } else {
            try output.write(explanation.text.escapedForTerminal)
        }
    }
}
