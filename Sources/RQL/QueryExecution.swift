import RQLCore
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax

/// The one place the object model calls the query engine: bind text for a class, compile a
/// `LogicalPlan` once, run it on a store version (whole table, or restricted to a collection's
/// elements) to row keys, count, explain.
///
/// ```swift
/// let filter = try QueryExecution.bind("age > %@", dialect: .nsPredicate, className: "Dog",
///                                      schema: schema, arguments: [.value(.int(2))])
/// let compiled = QueryExecution.compile(LogicalPlan(className: "Dog", operators: [.filter(filter.predicate)]))
/// QueryExecution.run(compiled, on: version)          // [RowKey]
/// ```
///
/// Today a compiled plan is the plan merged into one `BoundQuery`, run by the reference
/// evaluator through `QueryEngine`; when the VM lands, `CompiledPlan` holds the engine's
/// compiled program and these functions call it instead. Nothing else in RQL changes.
enum QueryExecution {
    /// A plan ready to run.
    struct CompiledPlan {
        let plan: LogicalPlan
        let query: BoundQuery
        /// No filter and no clause: every object in table order, with no engine call.
        let isWholeTable: Bool
        /// Whether the count of matches is the count of results (no DISTINCT or LIMIT).
        let countIsMatchCount: Bool
    }

    /// Binds query text for objects of `className`.
    static func bind(
        _ text: String,
        dialect: Dialect,
        className: String,
        schema: RQLCore.Schema,
        arguments: [QueryArgument]
    ) throws(RQLEngine.QueryError) -> BoundQuery {
        try QueryEngine.compile(text, dialect: dialect, className: className, schema: schema, arguments: arguments)
    }

    /// Compiles a plan once; runs reuse it.
    static func compile(_ plan: LogicalPlan) -> CompiledPlan {
        let query = plan.query
        let isWholeTable = plan.operators.isEmpty
        let countIsMatchCount = !query.clauses.contains { clause in
            switch clause {
            case .sort: false
            case .distinct, .limit: true
            }
        }
        return CompiledPlan(plan: plan, query: query, isWholeTable: isWholeTable, countIsMatchCount: countIsMatchCount)
    }

    /// The keys of the results, in order.
    static func run(_ compiled: CompiledPlan, on version: StoreVersion) -> [RowKey] {
        if compiled.isWholeTable { return version.table(named: compiled.plan.className)?.allKeys ?? [] }
        return QueryEngine.run(compiled.query, on: version.snapshot)
    }

    /// The keys of the results among `keys` (a collection's elements, in its order).
    static func run(_ compiled: CompiledPlan, on version: StoreVersion, restrictedTo keys: [RowKey]) -> [RowKey] {
        if compiled.isWholeTable { return keys }
        guard let table = version.table(named: compiled.plan.className) else { return [] }
        let positions = keys.compactMap { table.position(of: $0) }
        return ReferenceEvaluator(store: version.snapshot).run(compiled.query, positions: positions)
    }

    /// The number of results, without materializing them when the engine can count.
    static func count(_ compiled: CompiledPlan, on version: StoreVersion) -> Int {
        if compiled.isWholeTable { return version.table(named: compiled.plan.className)?.rowCount ?? 0 }
        if compiled.countIsMatchCount { return ReferenceEvaluator(store: version.snapshot).count(compiled.query) }
        return run(compiled, on: version).count
    }

    /// What the engine says about how it runs the plan. Today: the bound query the plan merges
    /// into, as the IR printer writes it (the VM's EXPLAIN will replace it).
    static func explain(_ compiled: CompiledPlan) -> String {
        IRPrinter.print(compiled.query)
    }
}
