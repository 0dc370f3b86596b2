import RQLCore
import RQLEngine
import RQLOptimizer
import RQLSema
import RQLStorage

/// Runs a query the three ways every executor is held to: the optimized path with every pass,
/// the optimized path with no pass (`--no-optimize`), and the reference evaluator. Each engine
/// has its own compiled-query and statistics caches, so nothing one run learned leaks into another.
///
/// ```swift
/// let runner = ThreeWayRunner()
/// let outcomes = runner.run("age > 2", className: "Dog", store: store)
/// outcomes.map(\.outcome)   // three equal results, or three equal errors
/// ```
///
/// The `.vm` ways run programs on the VM; a query codegen refuses is their `QueryError.engine`.
public struct ThreeWayRunner: Sendable {
    /// One way of running, named for messages.
    public struct Way: Sendable {
        public let name: String
        public let engine: QueryEngine
    }

    public let ways: [Way]

    public init() {
        func engine(_ options: EngineOptions) -> QueryEngine {
            // These options name no pass, so they cannot be refused.
            (try? QueryEngine(options: options, cache: CompiledQueryCache(), statisticsCache: StatisticsCache()))
                ?? QueryEngine()
        }
        ways = [
            Way(name: "all passes", engine: engine(EngineOptions(backend: .vm))),
            Way(name: "no passes", engine: engine(EngineOptions(backend: .vm, optimizes: false))),
            Way(name: "reference", engine: engine(EngineOptions(backend: .reference))),
        ]
    }

    /// Each way's outcome: the result keys, or the query error.
    public func run(
        _ text: String,
        className: String,
        store: BlockSnapshot,
        arguments: [QueryArgument] = []
    ) -> [(way: String, outcome: Result<[RowKey], QueryError>, compiled: CompiledQuery?)] {
        var outcomes: [(way: String, outcome: Result<[RowKey], QueryError>, compiled: CompiledQuery?)] = []
        for way in ways {
            do {
                let compiled = try way.engine.compile(text, className: className, store: store, arguments: arguments)
                outcomes.append((way.name, .success(way.engine.run(compiled, on: store)), compiled))
            } catch {
                outcomes.append((way.name, .failure(error), nil))
            }
        }
        return outcomes
    }
}
