import RQLCore
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import Testing

@testable import RQLOptimizer

/// The optimizer's one promise, checked on generated data and queries: the optimized plan,
/// run as `PlanInterpreter` reads it, selects exactly the rows the reference evaluator
/// selects for the original query, and its result steps give the same keys as the query's
/// clauses. Seeds are fixed; a failure names the seed, the query and the disabled passes.
@Suite("Optimized plans select what the query selects")
struct EquivalenceTests {
    static let passNames = Optimizer.passNames

    /// Optimizes `logical` with `disabled` passes off and compares with the reference.
    static func check(
        _ logical: LogicalPlan,
        store: BlockSnapshot,
        cache: StatisticsCache,
        disabled: Set<String>,
        label: String
    ) throws {
        let options = OptimizerOptions(disabledPasses: disabled, verifiesEachPass: true, statisticsCache: cache)
        let (plan, _) = try Optimizer.optimize(logical, store: store, options: options)
        if let difference = PlanInterpreter(store: store).difference(between: plan, and: logical.query) {
            Issue.record(
                "\(label) (disabled: \(disabled.sorted())): \(difference)\nplan: \(PlanPrinter.print(plan, estimates: false))"
            )
        }
    }

    @Test(
        "generated queries: all passes, each pass off, random passes off, no optimizer",
        arguments: [(UInt64(1), false), (2, true), (3, false), (4, true)]
    )
    func generatedQueries(seed: UInt64, deleting: Bool) throws {
        let store = try Generated.store(count: 120, seed: seed, deleting: deleting)
        let binder = Binder(schema: store.schema)
        let cache = StatisticsCache()
        var rng = SeededRandom(seed: seed &* 7919)
        var checked = 0
        for attempt in 0..<300 {
            let text = Generated.predicate(&rng) + Generated.clauses(&rng)
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: "Item") else {
                continue
            }
            checked += 1
            let label = "seed \(seed) query \(attempt): \(text)"
            let logical = LogicalPlan(bound)
            try Self.check(logical, store: store, cache: cache, disabled: [], label: label)
            // One pass off at a time, in turn, and a random half of them.
            try Self.check(
                logical,
                store: store,
                cache: cache,
                disabled: [Self.passNames[attempt % Self.passNames.count]],
                label: label
            )
            let half = Set(Self.passNames.filter { _ in rng.chance(50) })
            try Self.check(logical, store: store, cache: cache, disabled: half, label: label)
            let (unoptimized, _) = try Optimizer.optimize(
                logical,
                store: store,
                options: OptimizerOptions(isEnabled: false, statisticsCache: cache)
            )
            #expect(PlanInterpreter(store: store).difference(between: unoptimized, and: bound) == nil, "\(label)")
        }
        // The generator must keep producing mostly valid queries, or this test checks little.
        #expect(checked >= 250, "only \(checked) of 300 generated queries bound")
    }

    @Test("chained filters and clauses merge into one plan with the chain's meaning", arguments: [UInt64(5), 6])
    func chains(seed: UInt64) throws {
        let store = try Generated.store(count: 100, seed: seed, deleting: seed == 6)
        let binder = Binder(schema: store.schema)
        let cache = StatisticsCache()
        var rng = SeededRandom(seed: seed)
        var checked = 0
        for attempt in 0..<100 {
            var plan: LogicalPlan?
            for _ in 0..<(2 + rng.int(below: 3)) {
                let text = Generated.predicate(&rng, depth: 2) + Generated.clauses(&rng)
                guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: "Item")
                else {
                    continue
                }
                let next = LogicalPlan(bound)
                if let current = plan {
                    // A chained Results: the new filter, then its clauses, after everything so far.
                    plan = next.operators.reduce(current) { $0.appending($1) }
                } else {
                    plan = next
                }
            }
            guard let plan else { continue }
            checked += 1
            let label = "seed \(seed) chain \(attempt): \(PlanPrinter.print(plan))"
            try Self.check(plan, store: store, cache: cache, disabled: [], label: label)
            try Self.check(plan, store: store, cache: cache, disabled: ["chain-merging"], label: label)
        }
        #expect(checked >= 70)
    }

    @Test("queries on a string primary key and an indexed optional int of the linked class")
    func ownerQueries() throws {
        let store = try Generated.store(count: 50, seed: 7)
        let binder = Binder(schema: store.schema)
        let cache = StatisticsCache()
        let queries = [
            "name == 'o3'", "name IN {'o1', 'o9', 'o1', 'x'}", "name == 'O3'", "name ==[c] 'O3'",
            "name == 'o3' OR name == 'o4'",
            "age == 21", "age == nil", "age != nil", "age > 21", "age BETWEEN {20, 22}", "age > 21.5",
            "age >= 22 AND age < 22",
            "age IN {20, null}", "NOT age > 21", "name BEGINSWITH 'o' AND age < 23",
            "age == 21 OR age == 22 OR age == nil",
        ]
        for text in queries {
            let bound = try binder.bind(try Parser.parse(text), className: "Owner")
            try Self.check(LogicalPlan(bound), store: store, cache: cache, disabled: [], label: text)
        }
    }

    @Test(
        "bounds of different numeric types on a mixed column are not combined: decimals meet doubles through their text"
    )
    func crossTypeBoundsStayApart() throws {
        // A decimal compares with a double through the double's shortest text (9223372036854774784.0
        // reads as 9223372036854775000), but with an int exactly; so `m > double` can fail where
        // the numerically larger `m > int` holds, and keeping only the "tighter" bound would be wrong.
        let harness = try OptimizerHarness(
            json: #"""
                {"schema": {"Row": {"properties": {"m": "mixed"}}},
                 "objects": {"Row": [{"m": {"$decimal": "9223372036854774950"}}, {"m": 1}]}}
                """#,
            className: "Row"
        )
        let query = "m > 9223372036854774784.0 AND m > 9223372036854774900"
        let bound = try harness.bind(query)
        let (plan, trace) = try harness.optimize(query)
        #expect(trace.steps.first { $0.name == "filter-combining" }?.fired == false)
        #expect(PlanInterpreter(store: harness.store).difference(between: plan, and: bound) == nil)
        #expect(PlanInterpreter(store: harness.store).referencePositions(of: bound) == [])
    }

    @Test("a mixed hash index answers a double beyond 2^53 or a decimal only by scanning: its keys would merge them")
    func mixedIndexLookupsStayExact() throws {
        // 2^60 as an int and as a decimal share one index key, but only the int equals the double
        // 2^60 (the decimal meets it through its text, 1152921504606847000).
        // Enough other rows that a lookup beats a scan.
        let others = (0..<300).map { #"{"m": "other\#($0)"}"# }.joined(separator: ", ")
        let harness = try OptimizerHarness(
            json: #"""
                {"schema": {"Row": {"indexed": ["m"], "properties": {"m": "mixed"}}},
                 "objects": {"Row": [{"m": 1152921504606846976}, {"m": {"$decimal": "1152921504606846976"}},
                                     {"m": 2}, {"m": {"$decimal": "2"}}, {"m": "2"}, \#(others)]}}
                """#,
            className: "Row"
        )
        for (query, indexed) in [
            ("m == 1152921504606846976.0", false), ("m == 2", true), ("m == 2.0", true), ("m == '2'", true),
        ] {
            let bound = try harness.bind(query)
            let (plan, _) = try harness.optimize(query)
            if case .indexEquality = plan.access { #expect(indexed, "\(query)") } else { #expect(!indexed, "\(query)") }
            #expect(PlanInterpreter(store: harness.store).difference(between: plan, and: bound) == nil, "\(query)")
        }
        let decimal = try harness.bind("m == $0", arguments: [.value(.decimal(try Decimal128("1152921504606846976")))])
        let (plan, _) = try Optimizer.optimize(LogicalPlan(decimal), store: harness.store, options: harness.options)
        #expect(plan.access == .fullScan)
        #expect(PlanInterpreter(store: harness.store).difference(between: plan, and: decimal) == nil)
    }

    /// The optimizer skips a pass whose `mayApply` says no, so that answer must never hide a
    /// rewrite: on generated plans, at every point of the pipeline (some passes left out, so
    /// that later ones also meet logical plans and unsorted results), every pass that declines
    /// leaves the plan as it is and reports that it did not fire.
    @Test("a pass that declines (mayApply) would have left the plan unchanged", arguments: [UInt64(11), 12])
    func decliningPassesChangeNothing(seed: UInt64) throws {
        let store = try Generated.store(count: 80, seed: seed, deleting: seed == 12)
        let binder = Binder(schema: store.schema)
        let context = try PassContext(store: store, className: "Item", cache: StatisticsCache())
        var rng = SeededRandom(seed: seed)
        var declined = 0
        for attempt in 0..<200 {
            let text = Generated.predicate(&rng) + Generated.clauses(&rng)
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: "Item") else {
                continue
            }
            var plan = OptimizerPlan.logical(LogicalPlan(bound))
            for pass in Optimizer.passes {
                for candidate in Optimizer.passes where !candidate.mayApply(to: plan) {
                    var copy = plan
                    let fired = candidate.run(&copy, in: context)
                    #expect(!fired && copy == plan, "\(candidate.name) declined but rewrites query \(attempt): \(text)")
                    declined += 1
                }
                if rng.chance(80) { _ = pass.run(&plan, in: context) }
            }
        }
        // Enough declines to mean something: most passes do not apply to most plans.
        #expect(declined >= 400, "only \(declined) declines checked")
    }
}
