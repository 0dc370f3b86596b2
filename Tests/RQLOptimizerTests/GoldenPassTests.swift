import RQLCore
import RQLIR
import Testing

@testable import RQLOptimizer

/// Each pass alone on queries over `Fixtures.people()`: the plan printed after the pass (the
/// query as written is the plan before it), and whether the pass reports firing. Logical
/// passes print the query (`IRPrinter`); physical passes print the plan (`PlanPrinter`), without
/// estimates except where ordering depends on them.
@Suite("Golden before/after plans per pass")
struct GoldenPassTests {
    typealias Case = (query: String, after: String, fired: Bool)

    static func check(_ pass: any Pass, _ cases: [Case], lowered: Bool = false, estimates: Bool = false) throws {
        let harness = try Fixtures.people()
        for (query, after, fired) in cases {
            let result = try harness.apply(pass, to: query, lowered: lowered, estimates: estimates)
            #expect(result.after == after, "\(pass.name): \(query)")
            #expect(result.fired == fired, "\(pass.name) fired: \(query)")
            // Access-path selection lowers every plan; the logical passes leave an unfired plan as it was.
            if !lowered && !fired && !(pass is AccessPathSelection) {
                #expect(result.before == result.after, "\(pass.name) changed \(query) without firing")
            }
        }
    }

    @Test("chain-merging: one filter before the clauses, a filter after LIMIT still applies first")
    func chainMerging() throws {
        let harness = try Fixtures.people()
        let chain = LogicalPlan(try harness.bind("age > 2 SORT(name ASC)"))
            .appending(.clause(.limit(3)))
            .appending(.filter(try harness.bind("city == 'City1'").predicate))
        let result = try harness.apply(ChainMerging(), to: .logical(chain))
        #expect(
            result.before
                == "(chain Person (filter (> Person.age 2)) (sort Person.name ASC) (limit 3) (filter (== Person.city 'City1')))"
        )
        #expect(
            result.after
                == "(query Person (and (> Person.age 2) (== Person.city 'City1')) (sort Person.name ASC) (limit 3))"
        )
        #expect(result.fired)
        try Self.check(
            ChainMerging(),
            [("age > 2 SORT(name ASC)", "(query Person (> Person.age 2) (sort Person.name ASC))", false)]
        )
    }

    @Test("constant-folding")
    func constantFolding() throws {
        try Self.check(
            ConstantFolding(),
            [
                ("TRUEPREDICATE AND age > 2", "(query Person (> Person.age 2))", true),
                ("age > 2 OR TRUEPREDICATE", "(query Person TRUEPREDICATE)", true),
                ("NOT FALSEPREDICATE", "(query Person TRUEPREDICATE)", true),
                ("age > 2 * 3", "(query Person (> Person.age 6))", true),
                ("score > 1.5 * 2", "(query Person (> Person.score 3.0))", true),
                ("age IN {}", "(query Person FALSEPREDICATE)", true),
                // ALL over an empty list holds, and is left to the executor.
                ("ALL tags IN {}", "(query Person (== (ALL Person.tags) {}))", false),
                // Integer overflow and division by zero are the executor's to decide.
                ("age > 9223372036854775807 + 1", "(query Person (> Person.age (+ 9223372036854775807 1)))", false),
                ("age > 5 / 0", "(query Person (> Person.age (/ 5 0)))", false),
                // Inside a SUBQUERY too.
                (
                    "SUBQUERY(pets, $p, TRUEPREDICATE AND $p.age > 2 * 2).@count > 1",
                    "(query Person (> (subquery Person.pets (> $0:Dog.age 4)) 1))", true
                ),
            ]
        )
    }

    @Test("normalization")
    func normalization() throws {
        try Self.check(
            Normalization(),
            [
                (
                    "NOT (age > 2 AND name == 'Rex')", "(query Person (or (<= Person.age 2) (!= Person.name 'Rex')))",
                    true
                ),
                ("NOT NOT age > 2", "(query Person (> Person.age 2))", true),
                (
                    "(age > 1 AND (age < 9 AND name == 'x')) OR (active == true OR city == 'a')",
                    "(query Person (or (and (> Person.age 1) (< Person.age 9) (== Person.name 'x')) (== Person.active true) (== Person.city 'a')))",
                    true
                ),
                ("5 < age", "(query Person (> Person.age 5))", true),
                ("{1, 2} == age", "(query Person (== Person.age {1, 2}))", true),
                ("NOT age < 5", "(query Person (>= Person.age 5))", true),
                // An optional string has one value, null included: `!=` is the negation of `==`.
                ("NOT nickname == 'x'", "(query Person (!= Person.nickname 'x'))", true),
                // NaN makes both `<` and `>=` false on a double.
                ("NOT score < 0.5", "(query Person (not (< Person.score 0.5)))", false),
                // Per-owner quantifier groups: NOT ANY is not NONE.
                ("NOT ANY tags == 1", "(query Person (not (== (ANY Person.tags) 1)))", false),
                // A missing list element makes `==` and `!=` both false.
                ("NOT tags[1] == 2", "(query Person (not (== Person.tags[1] 2)))", false),
                // A null link makes `>=` and `<` both false.
                ("NOT dog.age >= 3", "(query Person (not (>= Person.dog.age 3)))", false),
                ("'Rex' ==[c] name", "(query Person (==[c] 'Rex' Person.name))", false),
                ("NOT name CONTAINS 'a'", "(query Person (not (CONTAINS Person.name 'a')))", false),
            ]
        )
    }

    @Test("filter-combining")
    func filterCombining() throws {
        try Self.check(
            FilterCombining(),
            [
                ("age > 5 AND age > 7", "(query Person (> Person.age 7))", true),
                ("age >= 3 AND age <= 3", "(query Person (== Person.age 3))", true),
                ("age == 5 AND age > 6", "(query Person FALSEPREDICATE)", true),
                ("age > 5 AND age < 3", "(query Person FALSEPREDICATE)", true),
                ("age == 5 AND age != 6", "(query Person (== Person.age 5))", true),
                ("age IN {1, 2, 3} AND age > 1", "(query Person (== Person.age (ANY {2, 3})))", true),
                (
                    "age > 2 AND age != 1 AND age != 7 AND nickname != nil",
                    "(query Person (and (> Person.age 2) (!= Person.age 7) (!= Person.nickname null)))", true
                ),
                (
                    "nickname != 'a' AND nickname != nil AND nickname > 'b'", "(query Person (> Person.nickname 'b'))",
                    true
                ),
                ("age == 1 OR age == 2 OR age IN {2, 3}", "(query Person (== Person.age (ANY {1, 2, 3})))", true),
                ("age IN {4, 4}", "(query Person (== Person.age 4))", true),
                ("age >= 20 AND age < 30", "(query Person (and (>= Person.age 20) (< Person.age 30)))", false),
                // Different elements may satisfy each side.
                (
                    "ANY tags > 5 AND ANY tags < 3",
                    "(query Person (and (> (ANY Person.tags) 5) (< (ANY Person.tags) 3)))", false
                ),
                // A mixed column against constants of different types: no reasoning between them.
                ("mixed > 1 AND mixed > 'a'", "(query Person (and (> Person.mixed 1) (> Person.mixed 'a')))", false),
                (
                    "name ==[c] 'a' OR name ==[c] 'b'",
                    "(query Person (or (==[c] Person.name 'a') (==[c] Person.name 'b')))", false
                ),
            ]
        )
    }

    @Test("access-path-selection")
    func accessPathSelection() throws {
        try Self.check(
            AccessPathSelection(),
            [
                ("id == 5", "(plan Person (primary-key Person.id 5))", true),
                ("id IN {1, 2, 300}", "(plan Person (primary-key-in Person.id {1, 2, 300}))", true),
                (
                    "city == 'City3' AND age > 30",
                    "(plan Person (index-eq Person.city 'City3') (filter (> Person.age 30)))", true
                ),
                (
                    "age >= 30 AND age <= 40 AND active == true",
                    "(plan Person (index-range Person.age (>= 30) (<= 40)) (filter (== Person.active true)))", true
                ),
                ("score > 0.99", "(plan Person (index-range Person.score (> 0.99)))", true),
                // Nearly every row: the scan is cheaper.
                ("age > 5", "(plan Person (scan) (filter (> Person.age 5)))", false),
                ("FALSEPREDICATE", "(plan Person (empty))", true),
                ("TRUEPREDICATE", "(plan Person (scan))", false),
                // A hash index answers case-sensitive equality only.
                ("city ==[c] 'city3'", "(plan Person (scan) (filter (==[c] Person.city 'city3')))", false),
                ("mixed == 3", "(plan Person (scan) (filter (== Person.mixed 3)))", false),
            ]
        )
    }

    @Test("residual-ordering: by cost / (1 - selectivity), stable")
    func residualOrdering() throws {
        try Self.check(
            ResidualOrdering(),
            [
                (
                    "name CONTAINS[c] 'an' AND age > 90",
                    "(plan Person (estimate candidates=200 matches=9) (scan) (filter (> Person.age 90) cost=1 sel=0.09) (filter (CONTAINS[c] Person.name 'an') cost=8 sel=0.5))",
                    true
                ),
                (
                    "age > 50 AND (age < 10 OR city IN {'City1', 'City2'})",
                    "(plan Person (estimate candidates=200 matches=18.6) (scan) (filter (> Person.age 50) cost=1 sel=0.49) (filter (or (< Person.age 10) (== Person.city {'City1', 'City2'})) cost=4 sel=0.19))",
                    true
                ),
                (
                    "active == true AND active == false",
                    "(plan Person (estimate candidates=200 matches=50) (scan) (filter (== Person.active true) cost=1 sel=0.5) (filter (== Person.active false) cost=1 sel=0.5))",
                    true
                ),
            ],
            lowered: true,
            estimates: true
        )
    }

    @Test("result-simplification")
    func resultSimplification() throws {
        try Self.check(
            ResultSimplification(),
            [
                ("age > 2 LIMIT(10) LIMIT(5)", "(plan Person (scan) (filter (> Person.age 2)) (limit 5))", true),
                (
                    "age > 2 SORT(age ASC) LIMIT(0) SORT(name ASC)",
                    "(plan Person (scan) (filter (> Person.age 2)) (limit 0))", true
                ),
                (
                    "age > 2 DISTINCT(name) DISTINCT(name)",
                    "(plan Person (scan) (filter (> Person.age 2)) (distinct Person.name))", true
                ),
                (
                    "age > 2 SORT(name ASC) DISTINCT(city) SORT(age DESC)",
                    "(plan Person (scan) (filter (> Person.age 2)) (sort Person.name ASC) (distinct Person.city) (sort Person.age DESC))",
                    false
                ),
            ],
            lowered: true
        )
        // Adjacent sorts (a chain: the binder merges them within one query), and a primary-key plan.
        let harness = try Fixtures.people()
        let bound = try harness.bind("age > 2 SORT(name ASC)")
        guard case .sort(let byName) = bound.clauses[0],
            case .sort(let byAge) = try harness.bind("TRUEPREDICATE SORT(age DESC)").clauses[0]
        else {
            Issue.record("expected SORT clauses")
            return
        }
        var plan = PhysicalPlan.unoptimized(bound)
        plan.result = [.sort(byName), .sort(byAge), .limit(4)]
        let merged = try harness.apply(ResultSimplification(), to: .physical(plan))
        #expect(
            merged.after
                == "(plan Person (scan) (filter (> Person.age 2)) (sort Person.age DESC Person.name ASC) (limit 4))"
        )
        plan.access = .primaryKey(property: 0, name: "id", value: .int(3))
        plan.result = [.sort(byName), .limit(4), .distinct([byName[0].path])]
        let single = try harness.apply(ResultSimplification(), to: .physical(plan))
        // DISTINCT stays: it drops a row whose key crosses a null link.
        #expect(
            single.after == "(plan Person (primary-key Person.id 3) (filter (> Person.age 2)) (distinct Person.name))"
        )
    }

    @Test("top-n")
    func topN() throws {
        try Self.check(
            TopNFusion(),
            [
                (
                    "age > 50 SORT(score DESC) LIMIT(10)",
                    "(plan Person (scan) (filter (> Person.age 50)) (top-n 10 Person.score DESC))", true
                ),
                // LIMIT first: the scan stops early, then ten rows are sorted.
                (
                    "age > 50 LIMIT(10) SORT(score DESC)",
                    "(plan Person (scan) (filter (> Person.age 50)) (limit 10) (sort Person.score DESC))", false
                ),
                (
                    "age > 50 SORT(score DESC) DISTINCT(city) LIMIT(10)",
                    "(plan Person (scan) (filter (> Person.age 50)) (sort Person.score DESC) (distinct Person.city) (limit 10))",
                    false
                ),
            ],
            lowered: true
        )
    }
}
