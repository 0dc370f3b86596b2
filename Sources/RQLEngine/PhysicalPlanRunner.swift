import RQLCore
import RQLIR

/// Runs a physical plan as the VM will, with the reference evaluator deciding each condition:
/// candidate positions from the access path, the residual conditions AND-ed in the plan's order
/// (so a cheap, selective condition spares the later ones), then the result steps. A LIMIT
/// with no SORT or DISTINCT before it stops testing candidates once it has its rows.
///
///     PhysicalPlanRunner(store: store, plan: plan, fallback: bound).run()   // [RowKey]
///
/// If the store has no index the access path names (a plan compiled for another store of the
/// schema), the whole bound query runs instead: the plan is an optimization, never a meaning.
struct PhysicalPlanRunner<Store: StoreReader> {
    let store: Store
    let plan: PhysicalPlan
    /// The query the plan implements, run when the access path cannot be used.
    let fallback: BoundQuery

    func run() -> [RowKey] {
        guard let table = store.table(named: plan.className) else { return [] }
        let evaluator = ReferenceEvaluator(store: store)
        var steps = plan.result
        let limitFirst: Int? = if case .limit(let count)? = steps.first { max(0, count) } else { nil }
        // A whole-table scan needs no list of candidate positions.
        if case .fullScan = plan.access, limitFirst == nil { return evaluator.run(query(residualPredicate, steps)) }
        guard let candidates = candidates(in: table) else { return evaluator.run(fallback) }
        if let limitFirst {
            // Table order is the order of the matches: stop at `limitFirst` of them.
            steps.removeFirst()
            let keys = matches(among: candidates, stoppingAfter: limitFirst, evaluator)
            guard !steps.isEmpty else { return keys }
            let positions = keys.compactMap { table.position(of: $0) }
            return evaluator.run(query(.constant(true), steps), positions: positions)
        }
        return evaluator.run(query(residualPredicate, steps), positions: candidates)
    }

    /// The number of results; no key list when the steps cannot change the count.
    func count() -> Int {
        guard plan.result.allSatisfy({ if case .sort = $0 { true } else { false } }) else { return run().count }
        guard let table = store.table(named: plan.className) else { return 0 }
        let evaluator = ReferenceEvaluator(store: store)
        if case .fullScan = plan.access { return evaluator.count(query(residualPredicate, [])) }
        guard let candidates = candidates(in: table) else { return evaluator.count(fallback) }
        if plan.residual.isEmpty { return candidates.count }
        return evaluator.run(query(residualPredicate, []), positions: candidates).count
    }

    /// The residual conditions as one predicate, in evaluation order.
    var residualPredicate: BoundPredicate {
        switch plan.residual.count {
        case 0: .constant(true)
        case 1: plan.residual[0].predicate
        default: .and(plan.residual.map(\.predicate))
        }
    }

    private func query(_ predicate: BoundPredicate, _ steps: [ResultStep]) -> BoundQuery {
        BoundQuery(className: plan.className, predicate: predicate, clauses: steps.flatMap(Self.clauses))
    }

    /// A result step as the clauses that mean it: top-N is its sort, then its limit.
    static func clauses(_ step: ResultStep) -> [BoundClause] {
        switch step {
        case .sort(let keys): [.sort(keys)]
        case .distinct(let paths): [.distinct(paths)]
        case .limit(let count): [.limit(count)]
        case .topN(let keys, let count): [.sort(keys), .limit(count)]
        }
    }

    /// The keys of the first `limit` candidates that pass the residual conditions, testing the
    /// candidates a chunk at a time (doubling) so that a small LIMIT reads few rows.
    private func matches(
        among candidates: [Int],
        stoppingAfter limit: Int,
        _ evaluator: ReferenceEvaluator<Store>
    )
        -> [RowKey]
    {
        var keys: [RowKey] = []
        var start = 0
        var chunk = max(64, limit)
        let residual = query(residualPredicate, [])
        while keys.count < limit && start < candidates.count {
            let end = min(candidates.count, start + chunk)
            keys += evaluator.run(residual, positions: Array(candidates[start..<end]))
            start = end
            chunk *= 2
        }
        return Array(keys.prefix(limit))
    }

    /// The positions the access path yields, ascending; nil when the store lacks the index.
    func candidates(in table: Store.Table) -> [Int]? {
        switch plan.access {
        case .fullScan:
            return Array(0..<table.rowCount)
        case .empty:
            return []
        case .primaryKey(_, _, let value):
            return table.position(ofPrimaryKey: value).map { [$0] } ?? []
        case .primaryKeyIn(_, _, let values):
            return Array(Set(values.compactMap { table.position(ofPrimaryKey: $0) })).sorted()
        case .indexEquality(let property, _, let value):
            return table.indexLookup(property: property, equalTo: value)
        case .indexIn(let property, _, let values):
            var union = Set<Int>()
            for value in values {
                guard let found = table.indexLookup(property: property, equalTo: value) else { return nil }
                union.formUnion(found)
            }
            return union.sorted()
        case .indexRange(let property, _, let lower, let upper):
            return table.indexRange(
                property: property,
                lower: lower?.value,
                lowerInclusive: lower?.isInclusive ?? true,
                upper: upper?.value,
                upperInclusive: upper?.isInclusive ?? true
            )
        }
    }
}
