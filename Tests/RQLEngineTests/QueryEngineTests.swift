import RQLCore
import RQLDatasets
import RQLIR
import RQLOptimizer
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLEngine

/// `QueryEngine`: options, the compiled-query cache, the backends, and what a compiled query keeps.
@Suite("Query engine")
struct QueryEngineTests {
    static let store: BlockSnapshot = {
        // The generator's dataset loads for every seed; a failure here is a broken test fixture.
        (try? SeededGenerator.people(count: 200, seed: 11)) ?? BlockStore(schema: try! Schema([])).snapshot
    }()

    func engine(_ options: EngineOptions = EngineOptions()) throws -> QueryEngine {
        try QueryEngine(options: options, cache: CompiledQueryCache(), statisticsCache: StatisticsCache())
    }

    @Test("an unknown pass name is refused with the list of passes")
    func unknownPass() {
        #expect(throws: EngineOptionsError.unknownPass("nope", known: Optimizer.passNames)) {
            try QueryEngine(options: EngineOptions(disabledPasses: ["top-n", "nope"]))
        }
        let error = EngineOptionsError.unknownPass("nope", known: Optimizer.passNames)
        #expect(error.description.contains("unknown optimizer pass 'nope'; the passes are: chain-merging, "))
    }

    @Test("compiling the same query again is a cache hit; new argument values bind again")
    func cache() throws {
        let cache = CompiledQueryCache()
        let engine = try QueryEngine(options: EngineOptions(), cache: cache)
        let first = try engine.compile("age > $0", className: "Person", store: Self.store, arguments: [.value(.int(3))])
        #expect(cache.hits == 0 && cache.misses == 1)
        let second = try engine.compile(
            "age > $0",
            className: "Person",
            store: Self.store,
            arguments: [.value(.int(3))]
        )
        #expect(cache.hits == 1)
        #expect(second.bound == first.bound && second.physical == first.physical)
        let other = try engine.compile(
            "age > $0",
            className: "Person",
            store: Self.store,
            arguments: [.value(.int(90))]
        )
        #expect(cache.misses == 2)
        #expect(other.bound != first.bound)
        // Other options are another entry: a plan compiled without passes is not reused with them.
        let unoptimized = try QueryEngine(options: EngineOptions(optimizes: false), cache: cache)
        _ = try unoptimized.compile("age > $0", className: "Person", store: Self.store, arguments: [.value(.int(3))])
        #expect(cache.misses == 3)
        #expect(cache.count == 3)
    }

    @Test("a store with an equal schema shares compiled queries; another schema does not")
    func schemaIdentity() throws {
        let cache = CompiledQueryCache()
        let engine = try QueryEngine(options: EngineOptions(), cache: cache)
        let twin = try SeededGenerator.people(count: 20, seed: 99)  // same schema, other objects
        #expect(cache.schemaID(of: twin.schema) == cache.schemaID(of: Self.store.schema))
        _ = try engine.compile("age > 3", className: "Person", store: Self.store)
        let shared = try engine.compile("age > 3", className: "Person", store: twin)
        #expect(cache.hits == 1)
        // The plan stays right on the other store: the same keys as the reference there.
        #expect(engine.run(shared, on: twin) == ReferenceEvaluator(store: twin).run(shared.bound))
        let other = try DatasetLoader.load(
            json: #"{"schema": {"Person": {"properties": {"age": "int"}}}, "objects": {"Person": [{"age": 5}]}}"#
        )
        #expect(cache.schemaID(of: other.schema) != cache.schemaID(of: Self.store.schema))
        let compiled = try engine.compile("age > 3", className: "Person", store: other)
        #expect(cache.hits == 1)
        #expect(engine.run(compiled, on: other).count == 1)
    }

    @Test("binding alone reuses the parsed syntax tree and gives the query a fresh parse gives")
    func bindThroughCache() throws {
        let cache = CompiledQueryCache()
        let engine = try QueryEngine(options: EngineOptions(), cache: cache)
        let text = "age > $0 AND city == 'Oslo'"
        let first = try engine.bind(text, className: "Person", schema: Self.store.schema, arguments: [.value(.int(1))])
        #expect(cache.syntax(CompiledQueryCache.SyntaxKey(text: text, dialect: .rql)) != nil)
        let second = try engine.bind(text, className: "Person", schema: Self.store.schema, arguments: [.value(.int(2))])
        #expect(first != second)
        #expect(
            second
                == (try QueryEngine(cache: CompiledQueryCache()).bind(
                    text,
                    className: "Person",
                    schema: Self.store.schema,
                    arguments: [.value(.int(2))]
                ))
        )
        #expect(throws: QueryError.self) { try engine.bind("age >", className: "Person", schema: Self.store.schema) }
    }

    @Test("the cache forgets its oldest entries beyond its capacity")
    func capacity() throws {
        let cache = CompiledQueryCache(capacity: 2)
        let engine = try QueryEngine(options: EngineOptions(), cache: cache)
        for bound in 0..<5 { _ = try engine.compile("age > \(bound)", className: "Person", store: Self.store) }
        #expect(cache.count == 2)
        _ = try engine.compile("age > 4", className: "Person", store: Self.store)
        #expect(cache.hits == 1)
        _ = try engine.compile("age > 0", className: "Person", store: Self.store)
        #expect(cache.hits == 1)
    }

    @Test("a compiled query keeps every stage", arguments: [true, false])
    func stages(optimizes: Bool) throws {
        let engine = try engine(EngineOptions(optimizes: optimizes, recordsTrace: true))
        let compiled = try engine.compile("id == 4 AND age > 10", className: "Person", store: Self.store)
        #expect(compiled.syntax != nil)
        #expect(compiled.source?.text == "id == 4 AND age > 10")
        #expect(IRPrinter.print(compiled.bound) == "(query Person (and (== Person.id 4) (> Person.age 10)))")
        #expect(compiled.trace.steps.map(\.name) == Optimizer.passNames)
        #expect(compiled.optimizerFailure == nil)
        if optimizes {
            #expect(compiled.physical.access == .primaryKey(property: 0, name: "id", value: .int(4)))
            #expect(compiled.trace.steps.contains { $0.fired && !$0.planAfter.isEmpty })
        } else {
            #expect(compiled.physical == PhysicalPlan.unoptimized(compiled.bound))
            #expect(compiled.trace.steps.allSatisfy { $0.disabled })
        }
    }

    @Test("syntax and binding errors are typed, with the same categories as before")
    func errors() throws {
        let engine = try engine()
        #expect(throws: QueryError.self) { try engine.compile("age >", className: "Person", store: Self.store) }
        do {
            _ = try engine.compile("agee > 2", className: "Person", store: Self.store)
            Issue.record("a misspelt property compiled")
        } catch {
            #expect(error.category == "unknown_property")
        }
    }

    @Test(
        "every backend gives the reference's keys and counts",
        arguments: [
            "age > 50", "id == 7", "id IN {1, 4, 7, 1000}", "city == 'Oslo'", "age BETWEEN {10, 20}",
            "score > 0.4 SORT(score DESC) LIMIT(4)", "age > 10 LIMIT(3)", "age > 10 LIMIT(0)",
            "city IN {'Oslo', 'Lima'} SORT(name ASC) DISTINCT(name)", "FALSEPREDICATE", "age == 5 AND age > 6",
            "TRUEPREDICATE LIMIT(2) SORT(id DESC)",
        ]
    )
    func backends(query: String) throws {
        let bound = try engine().bind(query, className: "Person", schema: Self.store.schema)
        let expected = ReferenceEvaluator(store: Self.store).run(bound)
        for options in [
            EngineOptions(), EngineOptions(optimizes: false), EngineOptions(backend: .reference),
            EngineOptions(disabledPasses: ["access-path-selection"]), EngineOptions(disabledPasses: ["top-n"]),
        ] {
            let engine = try engine(options)
            let compiled = try engine.compile(query, className: "Person", store: Self.store)
            #expect(engine.run(compiled, on: Self.store) == expected, "\(options)")
            #expect(engine.count(compiled, on: Self.store) == expected.count, "\(options)")
        }
    }

    @Test("a query over a collection's elements keeps their order and repeats")
    func positions() throws {
        let engine = try engine()
        let compiled = try engine.compile("age > 0 OR age == null", className: "Person", store: Self.store)
        let positions = [5, 2, 5, 9, 500, -1]
        let bound = compiled.bound
        #expect(
            engine.run(compiled, on: Self.store, positions: positions)
                == ReferenceEvaluator(store: Self.store).run(bound, positions: positions)
        )
        #expect(engine.run(compiled, on: Self.store, positions: positions).count >= 2)
    }

    @Test("a chained plan compiles to one physical plan")
    func chain() throws {
        let engine = try engine()
        let schema = Self.store.schema
        let first = try engine.bind("age > 20", className: "Person", schema: schema)
        let second = try engine.bind("city == 'Oslo' SORT(id DESC)", className: "Person", schema: schema)
        let plan = LogicalPlan(first).appending(.filter(second.predicate)).appending(.clause(second.clauses[0]))
        let compiled = try engine.compile(plan, store: Self.store)
        #expect(compiled.syntax == nil && compiled.source == nil)
        #expect(engine.run(compiled, on: Self.store) == ReferenceEvaluator(store: Self.store).run(plan.query))
        #expect(try engine.compile(plan, store: Self.store).physical == compiled.physical)
        #expect(engine.cache.hits == 1)
    }

    @Test("a plan codegen refuses is a thrown EngineError naming the query; no other executor runs it")
    func codegenRefusal() throws {
        let engine = try engine()
        // No class of the schema: the optimizer refuses it too, and codegen gets the unoptimized plan.
        let query = BoundQuery(className: "Nope", predicate: .constant(true), clauses: [])
        do {
            _ = try engine.compile(query, store: Self.store)
            Issue.record("compiled a query over a class the schema lacks")
        } catch {
            #expect(error.reason == .codegen(.unknownClass("Nope")))
            #expect(error.query == IRPrinter.print(query) && error.className == "Nope")
            #expect(error.description.hasPrefix("internal error: codegen failed on the query '(query Nope"))
        }
        #expect(engine.cache.count == 0)
        // The reference backend has no codegen to refuse it.
        let reference = try self.engine(EngineOptions(backend: .reference))
        #expect(reference.run(try reference.compile(query, store: Self.store), on: Self.store).isEmpty)
    }

    @Test("a program the VM refuses is a thrown EngineError from runChecked, never a shortened answer")
    func vmRefusal() throws {
        let engine = try engine()
        let good = try engine.compile("age > 50", className: "Person", store: Self.store)
        guard case .program(var program, let physical, let bound, let schema) = good.executable else {
            Issue.record("the VM backend compiled no program")
            return
        }
        // The loop's first filter moved before its NextBatch: it runs outside the batch loop.
        let loop = try #require(program.instructions.firstIndex { $0.opcode == .nextBatch })
        #expect(program.instructions[loop + 1].opcode == .filterInt)
        program.instructions.swapAt(loop, loop + 1)
        let broken = CompiledQuery(
            source: good.source,
            syntax: good.syntax,
            bound: good.bound,
            logical: good.logical,
            physical: good.physical,
            trace: good.trace,
            optimizerFailure: nil,
            options: good.options,
            executable: .program(program, physical, bound, schema)
        )
        do {
            _ = try engine.runChecked(broken, on: Self.store)
            Issue.record("the VM ran a filter outside the batch loop")
        } catch let error as EngineError {
            #expect(error.query == "age > 50" && error.className == "Person")
            guard case .execution(let refusal) = error.reason else {
                Issue.record("not the VM's refusal: \(error)")
                return
            }
            #expect(refusal.problems.map(\.address) == [loop] && refusal.problems.first?.opcode == .filterInt)
        }
        #expect(throws: EngineError.self) { try engine.countChecked(broken, on: Self.store) }
    }
}
