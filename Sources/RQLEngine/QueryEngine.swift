import RQLCore
import RQLIR
import RQLOptimizer
import RQLSema
import RQLSyntax

/// The one entry point from a query to results: text (either dialect) or a bound query or plan
/// → `CompiledQuery` (parse, bind, optimize, codegen; once, then from the cache) → row keys, a
/// count, or an explanation of every stage.
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
/// `bind` only parses and binds; an engine whose backend is `.reference` runs the reference
/// evaluator, the oracle. A query the engine cannot compile (a bug in the engine, never in the
/// query) is a thrown `EngineError` naming the query; no other executor stands in.
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
    /// Throws `.syntax` or `.binding` for text that does not parse or bind, and `.engine` when
    /// the engine cannot compile text that binds (a bug).
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
        let compiled: CompiledQuery
        do {
            compiled = try optimize(
                LogicalPlan(bound),
                bound: bound,
                syntax: syntax,
                source: (text, dialect),
                store: store
            )
        } catch {
            throw .engine(error, span: SourceSpan(offset: 0, length: text.utf8.count, line: 1, column: 1))
        }
        cache.insert(compiled, for: key)
        return compiled
    }

    /// Compiles a bound query (a DSL-built one, or one bound earlier); throws only when the
    /// engine cannot compile it (a bug).
    public func compile<Store: StoreReader>(_ query: BoundQuery, store: Store) throws(EngineError) -> CompiledQuery {
        try compile(LogicalPlan(query), store: store)
    }

    /// Compiles a logical plan: a `Results` chain of filters and clauses becomes one plan. Throws
    /// only when the engine cannot compile it (a bug).
    public func compile<Store: StoreReader>(_ plan: LogicalPlan, store: Store) throws(EngineError) -> CompiledQuery {
        let key = CompiledQueryCache.Key(
            source: .plan(plan),
            schemaID: cache.schemaID(of: store.schema),
            options: options
        )
        if let compiled = cache.compiled(key) { return compiled }
        let compiled = try optimize(plan, bound: plan.query, syntax: nil, source: nil, store: store)
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
    ) throws(EngineError) -> CompiledQuery {
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
        let executable: Executable
        do {
            executable = try Executable.make(
                backend: options.backend,
                bound: bound,
                physical: physical,
                schema: store.schema
            )
        } catch {
            throw EngineError(
                query: source?.text ?? IRPrinter.print(bound),
                className: bound.className,
                reason: .codegen(error)
            )
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
            executable: executable
        )
    }

    // MARK: Running

    /// The keys of the results, in order (after SORT, DISTINCT and LIMIT).
    ///
    /// Codegen verified the program, so the VM cannot refuse it; if it does (a bug in the
    /// verifier or the VM), this stops with the `EngineError` naming the query rather than
    /// return a shortened answer. `runChecked` throws it instead.
    public func run<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) -> [RowKey] {
        do {
            return try compiled.executable.run(on: store)
        } catch {
            fatalError(compiled.engineError(error).description)
        }
    }

    /// The number of results, as `run(_:on:).count`, without building the row list when the
    /// query has no DISTINCT or LIMIT.
    public func count<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) -> Int {
        do {
            return try compiled.executable.count(on: store)
        } catch {
            fatalError(compiled.engineError(error).description)
        }
    }

    /// `run(_:on:)`, then the damage the run met: a store file's damaged block reads as empty
    /// rows (so the non-throwing `run` never traps), and those rows are not an answer. A program
    /// the VM refuses is a thrown `EngineError`.
    ///
    /// ```swift
    /// let keys = try engine.runChecked(compiled, on: store.snapshot)  // throws StoreFileError
    /// ```
    public func runChecked<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) throws -> [RowKey] {
        let keys: [RowKey]
        do {
            keys = try compiled.executable.run(on: store)
        } catch {
            throw compiled.engineError(error)
        }
        if let damage = store.damage { throw damage }
        return keys
    }

    /// `count(_:on:)`, then the damage the count met (see `runChecked`).
    public func countChecked<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store) throws -> Int {
        let count: Int
        do {
            count = try compiled.executable.count(on: store)
        } catch {
            throw compiled.engineError(error)
        }
        if let damage = store.damage { throw damage }
        return count
    }

    /// The keys of the results among the objects at `positions` (a collection's elements, in the
    /// collection's order; repeats kept), shaped by the query's clauses. Stops as `run(_:on:)` does.
    public func run<Store: StoreReader>(_ compiled: CompiledQuery, on store: Store, positions: [Int]) -> [RowKey] {
        do {
            return try compiled.executable.run(on: store, positions: positions)
        } catch {
            fatalError(compiled.engineError(error).description)
        }
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
}
