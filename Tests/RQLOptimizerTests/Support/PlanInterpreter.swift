import RQLCore
import RQLIR
import RQLStorage
import Testing

/// The meaning of a physical plan, without a VM: candidates from the access path through the
/// `TableReader` index methods, then every residual condition through
/// `ReferenceEvaluator.matches`, then the result steps. Test code only: it states what a
/// plan means so that property tests can compare it with the reference evaluator.
struct PlanInterpreter {
    let store: BlockSnapshot

    /// The positions the access path yields, as the VM would ask the table for them; records an
    /// issue when an index the plan names is missing or a path yields positions out of order.
    func candidates(of plan: PhysicalPlan) -> [Int] {
        guard let table = store.table(named: plan.className) else { return [] }
        var positions: [Int]
        switch plan.access {
        case .fullScan:
            positions = Array(0..<table.rowCount)
        case .empty:
            positions = []
        case .primaryKey(_, _, let value):
            positions = table.position(ofPrimaryKey: value).map { [$0] } ?? []
        case .primaryKeyIn(_, _, let values):
            positions = Array(Set(values.compactMap { table.position(ofPrimaryKey: $0) })).sorted()
        case .indexEquality(let property, _, let value):
            guard let found = table.indexLookup(property: property, equalTo: value) else {
                Issue.record("no hash index on property \(property) of \(plan.className)")
                return []
            }
            positions = found
        case .indexIn(let property, _, let values):
            var union = Set<Int>()
            for value in values {
                guard let found = table.indexLookup(property: property, equalTo: value) else {
                    Issue.record("no hash index on property \(property) of \(plan.className)")
                    return []
                }
                union.formUnion(found)
            }
            positions = union.sorted()
        case .indexRange(let property, _, let lower, let upper):
            guard
                let found = table.indexRange(
                    property: property,
                    lower: lower?.value,
                    lowerInclusive: lower?.isInclusive ?? true,
                    upper: upper?.value,
                    upperInclusive: upper?.isInclusive ?? true
                )
            else {
                Issue.record("no sorted index on property \(property) of \(plan.className)")
                return []
            }
            positions = found
        }
        if positions != positions.sorted() || Set(positions).count != positions.count {
            Issue.record("access path \(plan.access) yields positions out of order or repeated")
        }
        return positions
    }

    /// The positions of the rows that pass the access path and every residual condition.
    func matchingPositions(of plan: PhysicalPlan) -> [Int] {
        let evaluator = ReferenceEvaluator(store: store)
        let conditions = plan.residual.map { BoundQuery(className: plan.className, predicate: $0.predicate) }
        return candidates(of: plan).filter { position in
            conditions.allSatisfy { evaluator.matches($0, position: position) }
        }
    }

    /// The positions of the rows of `query`'s class that its predicate matches, per the oracle.
    func referencePositions(of query: BoundQuery) -> [Int] {
        guard let table = store.table(named: query.className) else { return [] }
        let evaluator = ReferenceEvaluator(store: store)
        return (0..<table.rowCount).filter { evaluator.matches(query, position: $0) }
    }

    /// The result steps as clauses: a top-N is its sort then its limit.
    static func clauses(of steps: [ResultStep]) -> [BoundClause] {
        steps.flatMap { step -> [BoundClause] in
            switch step {
            case .sort(let keys): [.sort(keys)]
            case .distinct(let paths): [.distinct(paths)]
            case .limit(let count): [.limit(count)]
            case .topN(let keys, let count): [.sort(keys), .limit(count)]
            }
        }
    }

    /// Whether `plan` means `query`: the same matching rows (so the same rows in table order,
    /// which is where the result steps start), and the plan's result steps give the same keys as
    /// the query's clauses. Returns a description of the first difference, or `nil`.
    func difference(between plan: PhysicalPlan, and query: BoundQuery) -> String? {
        let planned = matchingPositions(of: plan)
        let expected = referencePositions(of: query)
        if planned != expected {
            return "matches \(planned) but the reference matches \(expected)"
        }
        let evaluator = ReferenceEvaluator(store: store)
        let stepped = evaluator.run(
            BoundQuery(className: query.className, predicate: query.predicate, clauses: Self.clauses(of: plan.result))
        )
        let reference = evaluator.run(query)
        if stepped != reference {
            return "result steps give \(stepped) but the clauses give \(reference)"
        }
        return nil
    }
}
