import RQLCore
import RQLIR
import RQLOptimizer
import RQLSema
import RQLSyntax

/// The one entry point from a query to results: text (either dialect) or a bound query or plan
/// → `CompiledQuery` (parse, bind, optimize; once, then from the cache) → row keys, a count, or
/// an explanation of every stage.
///
/// ```swift
/// let store = try DemoDataset.load()
/// let engine = QueryEngine()                           // all passes, the optimized backend
/// let compiled = try engine.compile("age > $0 SORT(name ASC)", className: "Dog", store: store,
///                                   arguments: [.value(.int(2))])
/// let keys = engine.run(compiled, on: store)           // run it as often as needed
/// engine.count(compiled, on: store)                     // no row list when it can be avoided
/// print(engine.explain(compiled).text)                  // what `rqlc explain` prints
/// ```
///
/// `QueryEngine.bind` only parses and binds; `QueryEngine.run(_:on:)` on a bound query runs the
/// reference evaluator, the oracle.
public struct QueryEngine: Sendable {
    /// How queries are compiled and run.
    public let options: EngineOptions
    /// Where compiled queries are kept.
    public let cache: CompiledQueryCache
    /// Where the optimizer's column statistics are kept.
    public let statisticsCache: StatisticsCache

    /// An engine with the default options: every pass, the optimized backend, no trace.
    public init(cache: CompiledQueryCache = .shared, statisticsCache: StatisticsCache = .shared) {
        self.options = EngineOptions()
        self.cache = cache
        self.statisticsCache = statisticsCache
    }

    /// An engine with `options`; throws `EngineOptionsError.unknownPass` for a disabled pass
    /// name that is not a pass.
    public init(
        options: EngineOptions,
        cache: CompiledQueryCache = .shared,
        statisticsCache: StatisticsCache = .shared
    ) throws(EngineOptionsError) {
        if let unknown = options.unknownPass() { throw .unknownPass(unknown, known: Optimizer.passNames) }
        self.options = options
        self.cache = cache
        self.statisticsCache = statisticsCache
    }

    // MARK: Compiling

    /// Compiles query text for objects of `className`, optimized for `store`'s statistics.
    public func compile<Store: StoreReader>(
        _ text: String,
        dialect: Dialect = .rql,
        className: String,
        store: Store,
        arguments: [QueryArgument] = []
    ) throws(QueryError) -> CompiledQuery {
        let key = CompiledQueryCache.Key(
            source: .text(text, dialect, className: className, arguments: arguments),
            schemaID: cache.schemaID(of: store.schema),
            options: options
        )
        if let compiled = cache.compiled(key) { return compiled }
        let syntax = try parse(text, dialect: dialect)
        let bound: BoundQuery
        do {
            bound = try Binder(schema: store.schema).bind(syntax, className: className, arguments: arguments)
        } catch {
            throw .binding(error)
        }
        let compiled = optimize(LogicalPlan(bound), bound: bound, syntax: syntax, source: (text, dialect), store: store)
        cache.insert(compiled, for: key)
        return compiled
    }

    /// Compiles a bound query (a DSL-built one, or one bound earlier).
    public func compile<Store: StoreReader>(_ query: BoundQuery, store: Store) -> CompiledQuery {
        compile(LogicalPlan(query), store: store)
    }

    /// Compiles a logical plan: a `Results` chain of filters and clauses becomes one plan.
    public func compile<Store: StoreReader>(_ plan: LogicalPlan, store: Store) -> CompiledQuery {
        let key = CompiledQueryCache.Key(
            source: .plan(plan),
            schemaID: cache.schemaID(of: store.schema),
            options: options
        )
        if let compiled = cache.compiled(key) { return compiled }
        let compiled = optimize(plan, bound: plan.query, syntax: nil, source: nil, store: store)
        cache.insert(compiled, for: key)
        return compiled
    }

    private func parse(_ text: String, dialect: Dialect) throws(QueryError) -> QuerySyntax {
        let key = CompiledQueryCache.SyntaxKey(text: text, dialect: dialect)
        if let syntax = cache.syntax(key) { return syntax }
        do {
            let syntax = try Parser.parse(text, dialect: dialect)
            cache.insert(syntax, for: key)
            return syntax
        } catch {
            throw .syntax(error)
        }
    }

    private func optimize<Store: StoreReader>(
        _ logical: LogicalPlan,
        bound: BoundQuery,
        syntax: QuerySyntax?,
        source: (text: String, dialect: Dialect)?,
        store: Store
    ) -> CompiledQuery {
        let optimizerOptions = OptimizerOptions(
            isEnabled: options.optimizes,
            disabledPasses: options.disabledPasses,
            recordsPlans: options.recordsTrace,
            statisticsCache: statisticsCache
        )
        var physical: PhysicalPlan
        var trace = OptimizerTrace()
        var failure: OptimizerError?
        do {
            (physical, trace) = try Optimizer.optimize(logical, store: store, options: optimizerOptions)
        } catch {
            // A pass broke the IR (a bug the tests catch): run the query unoptimized, correctly.
            physical = PhysicalPlan.unoptimized(bound)
            failure = error
        }
        return CompiledQuery(
            source: source,
            syntax: syntax,
            bound: bound,
            logical: logical,
            physical: physical,
            trace: trace,
            optimizerFailure: failure,
            options: options,
            executable: Executable.make(
                backend: options.backend,
                bound: bound,
                physical: physical,
                schema: store.schema
            )
        )
    }

    // MARK: Running

    /// The keys of the results, in order (after SORT, DISTINCT and LIMIT).
    public func run<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) -> [RowKey] {
        compiled.executable.run(on: store)
    }

    /// The number of results, as `run(_:on:).count`, without building the row list when the
    /// query has no DISTINCT or LIMIT.
    public func count<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) -> Int {
        compiled.executable.count(on: store)
    }

    /// `run(_:on:)`, then the damage the run met: a store file's damaged block reads as empty
    /// rows (so the non-throwing `run` never traps), and those rows are not an answer.
    ///
    /// ```swift
    /// let keys = try engine.runChecked(compiled, on: store.snapshot)  // throws StoreFileError
    /// ```
    public func runChecked<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) throws -> [RowKey] {
        let keys = run(compiled, on: store)
        if let damage = store.damage { throw damage }
        return keys
    }

    /// `count(_:on:)`, then the damage the count met (see `runChecked`).
    public func countChecked<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) throws -> Int {
        let count = count(compiled, on: store)
        if let damage = store.damage { throw damage }
        return count
    }

    /// The keys of the results among the objects at `positions` (a collection's elements, in the
    /// collection's order; repeats kept), shaped by the query's clauses.
    public func run<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store, positions: [Int]) -> [RowKey] {
        compiled.executable.run(on: store, positions: positions)
    }

    /// Every stage of `compiled`, as `rqlc explain` prints it. The optimizer's plans after each
    /// pass are there only when the engine records the trace (`EngineOptions.recordsTrace`).
    public func explain(_ compiled: CompiledQuery) -> QueryExplanation {
        QueryExplanation(compiled)
    }

    // MARK: Binding only

    /// Parses (through the cache's syntax trees) and binds `text`, with no optimization: what a
    /// caller that builds its own plan needs (`Results.filter` appends the bound filter to a chain).
    public func bind(
        _ text: String,
        dialect: Dialect = .rql,
        className: String,
        schema: Schema,
        arguments: [QueryArgument] = []
    ) throws(QueryError) -> BoundQuery {
        let syntax = try parse(text, dialect: dialect)
        do {
            return try Binder(schema: schema).bind(syntax, className: className, arguments: arguments)
        } catch {
            throw .binding(error)
        }
    }

    /// Parses and binds `text` for objects of `className`, with no optimization.
    public static func bind(
        _ text: String,
        dialect: Dialect = .rql,
        className: String,
        schema: Schema,
        arguments: [QueryArgument] = []
    ) throws(QueryError) -> BoundQuery {
        let syntax: QuerySyntax
        do {
            syntax = try Parser.parse(text, dialect: dialect)
        } catch {
            throw .syntax(error)
        }
        do {
            return try Binder(schema: schema).bind(syntax, className: className, arguments: arguments)
        } catch {
            throw .binding(error)
        }
    }

    /// Parses and binds `text`: the same as `bind`, kept for the callers that predate compiled
    /// queries.
    public static func compile(
        _ text: String,
        dialect: Dialect = .rql,
        className: String,
        schema: Schema,
        arguments: [QueryArgument] = []
    ) throws(QueryError) -> BoundQuery {
        try bind(text, dialect: dialect, className: className, schema: schema, arguments: arguments)
    }

    /// Runs a bound query through the reference evaluator (the oracle): the keys of the results
    /// in order.
    public static func run<Store: StoreReader>(_ query: BoundQuery, on store: Store) -> [RowKey] {
        ReferenceEvaluator(store: store).run(query)
    }
}
