import RQLCore
import RQLIR
import RQLTestSupport
import Testing

@testable import RQLOptimizer

@Suite("Cost model and condition order")
struct CostModelTests {
    @Test("per-row costs rank what the VM does: plain columns, strings, options, links, collections")
    func relativeCosts() throws {
        let harness = try Fixtures.people()
        let model = CostModel()
        func cost(_ query: String) throws -> Double { model.cost(of: try harness.bind(query).predicate) }
        #expect(try cost("age > 3") == 1)
        #expect(try cost("age > 3") < cost("name == 'x'"))
        #expect(try cost("name == 'x'") < cost("name CONTAINS 'x'"))
        #expect(try cost("name CONTAINS 'x'") < cost("name CONTAINS[c] 'x'"))
        #expect(try cost("name CONTAINS[c] 'x'") < cost("name CONTAINS[cd] 'x'"))
        #expect(try cost("name LIKE '*x?'") > cost("name BEGINSWITH 'x'"))
        #expect(try cost("age > 3") < cost("dog.age > 3"))
        #expect(try cost("dog.age > 3") < cost("ANY pets.age > 3"))
        #expect(try cost("ANY pets.age > 3") < cost("SUBQUERY(pets, $p, $p.age > 3).@count > 0"))
        #expect(try cost("age > 3 AND name == 'x'") == cost("age > 3") + cost("name == 'x'"))
    }

    /// The expected work of testing conditions in order: each one runs on the rows the earlier
    /// ones kept.
    static func expectedCost(_ conditions: [ResidualCondition]) -> Double {
        var alive = 1.0
        var total = 0.0
        for condition in conditions {
            total += alive * (condition.cost ?? 1)
            alive *= condition.selectivity ?? 1
        }
        return total
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard let first = items.first else { return [[]] }
        return permutations(Array(items.dropFirst())).flatMap { rest in
            (0...rest.count).map { i in
                var p = rest
                p.insert(first, at: i)
                return p
            }
        }
    }

    @Test("ordering by cost / (1 - selectivity) minimizes the expected work", arguments: UInt64(1)...UInt64(40))
    func orderIsOptimal(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let conditions = (0..<(2 + rng.int(below: 4))).map { i in
            ResidualCondition(
                predicate: .constant(i % 2 == 0),
                cost: Double(1 + rng.int(below: 12)),
                selectivity: [0.01, 0.1, 0.3, 0.5, 0.9, 1][rng.int(below: 6)]
            )
        }
        let best = Self.permutations(conditions).map(Self.expectedCost).min() ?? 0
        let chosen = Self.expectedCost(ResidualOrdering.ordered(conditions))
        #expect(abs(chosen - best) < 1e-9, "chose \(chosen), best \(best)")
    }

    @Test("ties keep the written order")
    func stable() {
        let conditions = (0..<5).map {
            ResidualCondition(predicate: .constant($0 % 2 == 0), cost: 2, selectivity: 0.5)
        }
        #expect(ResidualOrdering.ordered(conditions) == conditions)
        // Conditions that remove nothing go last, cheapest first, ties in order.
        let keepers = [
            ResidualCondition(predicate: .constant(true), cost: 5, selectivity: 1),
            ResidualCondition(predicate: .constant(false), cost: 9, selectivity: 0.9),
            ResidualCondition(predicate: .constant(true), cost: 1, selectivity: 1),
        ]
        #expect(ResidualOrdering.ordered(keepers) == [keepers[1], keepers[2], keepers[0]])
    }

    @Test("an index range pays off on a narrow range and not on a wide one")
    func rangeVersusScan() throws {
        let harness = try Fixtures.people()
        for (query, indexed) in [
            ("age > 95", true), ("age BETWEEN {30, 40}", true), ("age > 50", false), ("age < 80", false),
            ("score < 0.05", true), ("score > 0.3", false),
        ] {
            let (plan, _) = try harness.optimize(query)
            if case .indexRange = plan.access { #expect(indexed, "\(query)") } else { #expect(!indexed, "\(query)") }
        }
    }

    @Test("the cheapest of several index candidates wins")
    func cheapestCandidate() throws {
        let harness = try Fixtures.people()
        let (byKey, _) = try harness.optimize("age > 10 AND city == 'City4' AND id == 4")
        #expect(byKey.access == .primaryKey(property: 0, name: "id", value: .int(4)))
        #expect(byKey.residual.count == 2)
        let (byCity, _) = try harness.optimize("age BETWEEN {10, 60} AND city == 'City4'")
        guard case .indexEquality(_, "city", .string("City4")) = byCity.access else {
            Issue.record("expected the city index, got \(byCity.access)")
            return
        }
        let (byAge, _) = try harness.optimize("age BETWEEN {10, 11} AND city IN {'City4', 'City5', 'City6', 'City7'}")
        guard case .indexRange(_, "age", _, _) = byAge.access else {
            Issue.record("expected the age range, got \(byAge.access)")
            return
        }
    }
}
