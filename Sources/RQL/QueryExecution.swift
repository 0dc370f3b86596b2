import RQLCore
import RQLEngine
import RQLStorage

/// The one place the object model calls the query engine: bind text for a class, compile a
/// `LogicalPlan` (a whole `Results` chain) once through `QueryEngine` (optimizer applied, one
/// plan per chain), run it on a store version (whole table, or restricted to a collection's
/// elements) to row keys, count, explain.
///
/// ```swift
/// let filter = try QueryExecution.bind("age > %@", dialect: .nsPredicate, className: "Dog",
///                                      schema: schema, arguments: [.value(.int(2))])
/// let plan = LogicalPlan(className: "Dog", operators: [.filter(filter.predicate)])
/// let compiled = QueryExecution.compile(plan, on: version)
/// QueryExecution.run(compiled, on: version)          // [RowKey]
/// ```
///
/// The engine's backend decides how a compiled plan runs (the VM); a plan the engine cannot
/// compile (a bug in the engine) stops with the `EngineError` naming the query.
enum QueryExecution {
    /// The engine every realm uses: all passes, the optimized backend, the shared cache.
    static let engine = QueryEngine()

    /// A plan ready to run.
    struct CompiledPlan {
        let plan: LogicalPlan
        /// The engine's compiled query; nil for the whole table (no filter and no clause), which
        /// needs no engine call.
        let compiled: CompiledQuery?

        /// The chain merged into one bound query.
        var query: BoundQuery { compiled?.bound ?? plan.query }
    }

    /// Binds query text for objects of `className`.
    static func bind(
        _ text: String,
        dialect: Dialect,
        className: String,
        schema: RQLCore.Schema,
        arguments: [QueryArgument]
    ) throws(RQLEngine.QueryError) -> BoundQuery {
        try engine.bind(text, dialect: dialect, className: className, schema: schema, arguments: arguments)
    }

    /// Compiles a plan once, optimized for `version`'s statistics; runs at later versions reuse it
    /// (a compiled plan is valid at every version of the schema).
    static func compile(_ plan: LogicalPlan, on version: StoreVersion) -> CompiledPlan {
        if plan.operators.isEmpty { return CompiledPlan(plan: plan, compiled: nil) }
        return CompiledPlan(plan: plan, compiled: compiled(plan, by: engine, on: version.snapshot))
    }

    /// `engine`'s compiled query, or a stop naming the query: the engine cannot compile a plan
    /// that bound (a bug in the engine, `EngineError`), and there is no other way to run it.
    private static func compiled<Store: StoreReader>(
        _ plan: LogicalPlan,
        by engine: QueryEngine,
        on store: Store
    ) -> CompiledQuery {
        do {
            return try engine.compile(plan, store: store)
        } catch {
            realmStop(error.description)
        }
    }

    /// The keys of the results, in order.
    static func run(_ compiled: CompiledPlan, on version: StoreVersion) -> [RowKey] {
        guard let query = compiled.compiled else { return version.table(named: compiled.plan.className)?.allKeys ?? [] }
        return engine.run(query, on: version.snapshot)
    }

    /// The keys of the results among `keys` (a collection's elements, in its order).
    static func run(_ compiled: CompiledPlan, on version: StoreVersion, restrictedTo keys: [RowKey]) -> [RowKey] {
        guard let query = compiled.compiled else { return keys }
        guard let table = version.table(named: compiled.plan.className) else { return [] }
        let positions = keys.compactMap { table.position(of: $0) }
        return engine.run(query, on: version.snapshot, positions: positions)
    }

    /// The number of results, without materializing them when the engine can count.
    static func count(_ compiled: CompiledPlan, on version: StoreVersion) -> Int {
        guard let query = compiled.compiled else { return version.table(named: compiled.plan.className)?.rowCount ?? 0 }
        return engine.count(query, on: version.snapshot)
    }

    // MARK: Plain values

    /// Binds query text for a collection of plain values, whose `SELF` is the element.
    static func bind(
        _ text: String,
        dialect: Dialect,
        elements table: PlainValueTable,
        arguments: [QueryArgument]
    ) throws(RQLEngine.QueryError) -> BoundQuery {
        let syntax: QuerySyntax
        do {
            syntax = try Parser.parse(text, dialect: dialect)
        } catch {
            throw .syntax(error)
        }
        do {
            return try Binder(schema: table.schema, selfProperty: PlainValueTable.propertyName)
                .bind(syntax, className: table.className, arguments: arguments)
        } catch {
            throw .binding(error)
        }
    }

    /// Compiles a plan over a collection of plain values (`PlainValueTable`), optimized for
    /// `store`'s statistics; valid for every store of the same table.
    static func compile(_ plan: LogicalPlan, onElements store: BlockSnapshot) -> CompiledPlan {
        if plan.operators.isEmpty { return CompiledPlan(plan: plan, compiled: nil) }
        return CompiledPlan(plan: plan, compiled: compiled(plan, by: engine, on: store))
    }

    /// The keys (positions) of the elements in the results, in order.
    static func run(_ compiled: CompiledPlan, onElements store: BlockSnapshot) -> [RowKey] {
        guard let query = compiled.compiled else {
            guard let table = store.table(named: compiled.plan.className) else { return [] }
            return (0..<table.rowCount).map(table.rowKey(at:))
        }
        return engine.run(query, on: store)
    }

    /// `explain(_:on:)` for a plan over a collection of plain values.
    static func explain(_ plan: LogicalPlan, onElements store: BlockSnapshot) -> String {
        var options = engine.options
        options.recordsTrace = true
        guard let explaining = try? QueryEngine(options: options, cache: engine.cache) else { return "" }
        return explaining.explain(compiled(plan, by: explaining, on: store)).text
    }

    /// Every stage of the plan as `rqlc explain` prints it for the same query (the syntax-tree
    /// section aside: a chain has no text), optimized for `version`'s statistics.
    static func explain(_ plan: LogicalPlan, on version: StoreVersion) -> String {
        var options = engine.options
        options.recordsTrace = true
        // The default options name no pass, so they cannot be refused.
        guard let explaining = try? QueryEngine(options: options, cache: engine.cache) else { return "" }
        return explaining.explain(compiled(plan, by: explaining, on: version.snapshot)).text
    }
}
