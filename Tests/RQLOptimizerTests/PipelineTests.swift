import Foundation
import RQLCore
import RQLIR
import Testing

@testable import RQLOptimizer

@Suite("The pass pipeline")
struct PipelineTests {
    static let query = "age > 5 AND age > 7 AND 3 < age SORT(score DESC) LIMIT(10)"

    @Test("passes run in the listed order, each named once, with a reason, and the trace follows them")
    func orderAndTrace() throws {
        #expect(
            Optimizer.passNames == [
                "chain-merging", "constant-folding", "normalization", "filter-combining", "access-path-selection",
                "residual-ordering", "result-simplification", "top-n",
            ]
        )
        #expect(Set(Optimizer.passNames).count == Optimizer.passes.count)
        for pass in Optimizer.passes { #expect(!pass.reason.isEmpty && !pass.reason.contains("\n"), "\(pass.name)") }
        let (plan, trace) = try Fixtures.people().optimize(Self.query)
        #expect(trace.steps.map(\.name) == Optimizer.passNames)
        #expect(trace.steps.map(\.reason) == Optimizer.passes.map(\.reason))
        #expect(trace.steps.filter(\.fired).map(\.name) == ["normalization", "filter-combining", "top-n"])
        #expect(trace.steps.allSatisfy { !$0.disabled })
        #expect(trace.steps.last?.planAfter == PlanPrinter.print(plan))
        #expect(
            PlanPrinter.print(plan, estimates: false)
                == "(plan Person (scan) (filter (> Person.age 7)) (top-n 10 Person.score DESC))"
        )
    }

    @Test(
        "each pass can be disabled by name: it is marked disabled, never fires, and its rewrite is missing",
        arguments: Optimizer.passNames
    )
    func disablingOnePass(name: String) throws {
        let harness = try Fixtures.people()
        let (plan, trace) = try harness.optimize(Self.query, disabling: [name])
        let step = try #require(trace.steps.first { $0.name == name })
        #expect(step.disabled && !step.fired)
        #expect(trace.steps.filter(\.disabled).map(\.name) == [name])
        // What each pass contributes to this query, and what the plan looks like without it.
        let expected: String
        switch name {
        case "normalization":
            // `3 < age` stays flipped, so it is not merged with the other bounds.
            expected = "(plan Person (scan) (filter (> Person.age 7)) (top-n 10 Person.score DESC))"
        case "filter-combining":
            // Residual ordering puts the most selective bound first.
            expected =
                "(plan Person (scan) (filter (> Person.age 7)) (filter (> Person.age 5)) (filter (> Person.age 3)) (top-n 10 Person.score DESC))"
        case "top-n":
            expected = "(plan Person (scan) (filter (> Person.age 7)) (sort Person.score DESC) (limit 10))"
        default:
            expected = "(plan Person (scan) (filter (> Person.age 7)) (top-n 10 Person.score DESC))"
        }
        #expect(PlanPrinter.print(plan, estimates: false) == expected, "without \(name)")
    }

    @Test("a pass whose work another pass can do is still visible when disabled: the trace shows the unfired plan")
    func disabledPassesKeepTheirPlan() throws {
        let harness = try Fixtures.people()
        let (_, trace) = try harness.optimize("age IN {1, 2} AND id == 4", disabling: ["access-path-selection"])
        let disabled = try #require(trace.steps.first { $0.name == "access-path-selection" })
        let before = try #require(trace.steps.first { $0.name == "filter-combining" })
        #expect(disabled.planAfter == before.planAfter)
        // Without access-path selection the plan is the scan of the (combined) predicate.
        let (plan, _) = try harness.optimize("id == 4", disabling: ["access-path-selection"])
        #expect(plan.access == .fullScan)
    }

    @Test("an unknown pass name is an error listing the known ones, even with the optimizer off")
    func unknownPass() throws {
        let harness = try Fixtures.people()
        let logical = LogicalPlan(try harness.bind("age > 2"))
        for enabled in [true, false] {
            let options = OptimizerOptions(isEnabled: enabled, disabledPasses: ["filter-combinng"])
            #expect(throws: OptimizerError.unknownPass("filter-combinng", known: Optimizer.passNames)) {
                try Optimizer.optimize(logical, store: harness.store, options: options)
            }
        }
        let error = OptimizerError.unknownPass("x", known: ["a", "b"])
        #expect(error.description == "unknown optimizer pass 'x'; the passes are: a, b")
    }

    @Test("with the optimizer off: the unoptimized plan, every pass disabled")
    func optimizerOff() throws {
        let harness = try Fixtures.people()
        let bound = try harness.bind(Self.query)
        let (plan, trace) = try Optimizer.optimize(
            LogicalPlan(bound),
            store: harness.store,
            options: OptimizerOptions(isEnabled: false)
        )
        #expect(plan == PhysicalPlan.unoptimized(bound))
        #expect(trace.steps.count == Optimizer.passes.count)
        #expect(trace.steps.allSatisfy { $0.disabled && !$0.fired && $0.planAfter == IRPrinter.print(bound) })
    }

    @Test("plans are recorded only when asked; estimates come with the physical plan")
    func recording() throws {
        let harness = try Fixtures.people()
        var options = harness.options
        options.recordsPlans = false
        let (plan, trace) = try Optimizer.optimize(
            LogicalPlan(try harness.bind("id == 3")),
            store: harness.store,
            options: options
        )
        #expect(trace.steps.allSatisfy { $0.planAfter.isEmpty })
        #expect(plan.access == .primaryKey(property: 0, name: "id", value: .int(3)))
        #expect(plan.estimatedCandidates == 1)
    }

    @Test("an unknown class is an error")
    func unknownClass() throws {
        let harness = try Fixtures.people()
        let plan = LogicalPlan(className: "Cat", operators: [.filter(.constant(true))])
        #expect(throws: OptimizerError.unknownClass("Cat")) {
            try Optimizer.optimize(plan, store: harness.store)
        }
    }

    @Test("invalid IR given to the optimizer is reported, not optimized")
    func invalidInput() throws {
        let harness = try Fixtures.people()
        var bound = try harness.bind("age > 2")
        guard case .comparison(var comparison) = bound.predicate, case .path(var path) = comparison.lhs.expression
        else {
            Issue.record("expected a comparison")
            return
        }
        path.steps = [.property(className: "Person", index: 1, name: "agee")]
        comparison.lhs.expression = .path(path)
        bound.predicate = .comparison(comparison)
        #expect(throws: OptimizerError.self) {
            try Optimizer.optimize(LogicalPlan(bound), store: harness.store, options: harness.options)
        }
    }

    @Test("the verifier catches a physical plan that names an index the schema does not promise")
    func verifierCatchesBadAccessPaths() throws {
        let harness = try Fixtures.people()
        let bound = try harness.bind("name == 'x'")
        let verifier = PlanVerifier(schema: harness.store.schema)
        var plan = PhysicalPlan.unoptimized(bound)
        #expect(verifier.verify(plan).isEmpty)
        let name = try #require(harness.store.schema["Person"]?.propertyIndex(named: "name"))
        plan.access = .indexEquality(property: name, name: "name", value: .string("x"))
        #expect(verifier.verify(plan) == ["(index-eq Person.name 'x') on a property without a hash index"])
        let city = try #require(harness.store.schema["Person"]?.propertyIndex(named: "city"))
        plan.access = .indexRange(
            property: city,
            name: "city",
            lower: RangeBound(.string("a"), inclusive: true),
            upper: nil
        )
        #expect(verifier.verify(plan) == ["(index-range Person.city (>= 'a')) on a property without a sorted index"])
        plan.access = .primaryKey(property: city, name: "city", value: .string("x"))
        #expect(verifier.verify(plan) == ["(primary-key Person.city 'x') is not on the primary key"])
        plan.access = .fullScan
        plan.residual = [ResidualCondition(predicate: bound.predicate, cost: 1, selectivity: 1.5)]
        #expect(verifier.verify(plan) == ["selectivity 1.5 of (== Person.name 'x') is not in 0 ... 1"])
    }

    @Test("a LIMIT before any SORT or DISTINCT lets the scan stop early")
    func scanLimit() throws {
        let harness = try Fixtures.people()
        for (query, limit) in [
            ("age > 2 LIMIT(10)", 10), ("age > 2 LIMIT(10) LIMIT(3)", 3), ("age > 2 LIMIT(4) SORT(name ASC)", 4),
            ("age > 2 SORT(name ASC) LIMIT(4)", nil), ("age > 2 DISTINCT(name) LIMIT(4)", nil), ("age > 2", nil),
        ] as [(String, Int?)] {
            let (plan, _) = try harness.optimize(query)
            #expect(plan.scanLimit == limit, "\(query)")
        }
    }

    @Test("no pass adds a result step: count needs none", arguments: ["age > 2", "id == 3", "age > 2 SORT(age ASC)"])
    func noStepsAdded(query: String) throws {
        let harness = try Fixtures.people()
        let (plan, _) = try harness.optimize(query)
        #expect(plan.result.count <= (try harness.bind(query)).clauses.count)
    }
}
