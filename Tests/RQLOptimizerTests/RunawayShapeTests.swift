import Foundation
import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLOptimizer

/// Shapes that are slow when handled naively (realm-swift users wait 25 s for a 40,000-value IN):
/// the optimizer must stay linear in the size of the query. Generous bounds, for runaway
/// behaviour only; speed itself is measured in the benchmarks.
@Suite("Large IN lists and long OR chains")
struct RunawayShapeTests {
    static func harness() throws -> OptimizerHarness {
        let count = 5_000
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"Row": {"indexed": ["n"], "properties": {"n": "int", "m": "int"}}}}"#
        )
        let store = try BlockSnapshot(
            schema: schema,
            columns: ["Row": ["n": .int((0..<count).map { Int64($0 * 7) }), "m": .int((0..<count).map { Int64($0) })]]
        )
        return OptimizerHarness(store: store, className: "Row")
    }

    /// Optimizes with verification and plan recording on (the slowest configuration) and
    /// returns the plan and the processor seconds taken (`ThreadCPUTime`: wall time would count
    /// the parallel tests and builds sharing the machine).
    static func timed(_ harness: OptimizerHarness, _ query: String) throws -> (PhysicalPlan, Double) {
        let logical = LogicalPlan(try harness.bind(query))
        let ((plan, _), elapsed) = try ThreadCPUTime.measure {
            try Optimizer.optimize(logical, store: harness.store, options: harness.options)
        }
        return (plan, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    @Test("a 40,000-value IN optimizes well under a second, into one hashed membership test")
    func largeIn() throws {
        let harness = try Self.harness()
        let values = (0..<40_000).map { String($0 % 39_000) }.joined(separator: ", ")
        for column in ["n", "m"] {
            let (plan, seconds) = try Self.timed(harness, "\(column) IN {\(values)}")
            #expect(seconds < 1, "\(column): took \(seconds) s")
            // 39,000 index probes cost more than scanning 5,000 rows, indexed or not.
            #expect(plan.access == .fullScan)
            guard plan.residual.count == 1, case .comparison(let comparison) = plan.residual[0].predicate,
                case .constantList(let list) = comparison.rhs.expression
            else {
                Issue.record("expected one comparison with a list, got \(plan.residual.map(\.predicate))")
                continue
            }
            #expect(list.count == 39_000, "repeats are dropped")
            #expect(comparison.rhs.quantifier == .any)
        }
        // A short list on the indexed column is a handful of lookups.
        let (short, _) = try Self.timed(harness, "n IN {7, 14, 7, 70000}")
        #expect(short.access == .indexIn(property: 0, name: "n", values: [.int(7), .int(14), .int(70_000)]))
    }

    @Test("an OR of 10,000 equalities optimizes well under a second, into one set-membership test")
    func longOr() throws {
        let harness = try Self.harness()
        let disjuncts = (0..<10_000).map { "m == \($0 * 3)" }.joined(separator: " OR ")
        let (plan, seconds) = try Self.timed(harness, disjuncts + " OR n > 100 AND n < 50")
        #expect(seconds < 1, "took \(seconds) s")
        #expect(plan.residual.count == 1)
        guard case .comparison(let comparison)? = plan.residual.first?.predicate,
            case .constantList(let list) = comparison.rhs.expression
        else {
            Issue.record("expected one comparison with a list, got \(plan.residual.map(\.predicate))")
            return
        }
        #expect(list == (0..<10_000).map { .int(Int64($0 * 3)) })
        #expect(comparison.rhs.quantifier == .any)
    }
}
