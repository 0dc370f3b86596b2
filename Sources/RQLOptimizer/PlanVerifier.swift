import RQLCore
import RQLIR

/// Checks a plan between passes: the IR verifier on every predicate and clause, and for a
/// physical plan that the access path names an index the schema promises, on a single column
/// of the class, and that the estimates are in range. Problems are reported, not trapped.
///
///     PlanVerifier(schema: schema).verify(.physical(plan))
///     // ["index-range on Person.name, which has no sorted index"]
struct PlanVerifier {
    let schema: Schema

    func verify(_ plan: OptimizerPlan) -> [String] {
        switch plan {
        case .logical(let logical): IRVerifier(schema: schema).verify(logical.query)
        case .physical(let physical): verify(physical)
        }
    }

    func verify(_ plan: PhysicalPlan) -> [String] {
        var clauses: [BoundClause] = []
        for step in plan.result {
            switch step {
            case .sort(let keys): clauses.append(.sort(keys))
            case .distinct(let paths): clauses.append(.distinct(paths))
            case .limit(let count): clauses.append(.limit(count))
            case .topN(let keys, let count):
                clauses += [.sort(keys), .limit(count)]
            }
        }
        let predicate: BoundPredicate =
            plan.residual.isEmpty ? .constant(true) : .and(plan.residual.map(\.predicate))
        var problems = IRVerifier(schema: schema).verify(
            BoundQuery(className: plan.className, predicate: predicate, clauses: clauses)
        )
        guard let objectSchema = schema.lookUpClass(plan.className) else { return problems }
        problems += verify(plan.access, in: objectSchema)
        for condition in plan.residual {
            let text = IRPrinter.print(condition.predicate)
            if let cost = condition.cost, !(cost >= 0) { problems.append("cost \(cost) of \(text) is not ≥ 0") }
            if let selectivity = condition.selectivity, !(0...1).contains(selectivity) {
                problems.append("selectivity \(selectivity) of \(text) is not in 0 ... 1")
            }
        }
        return problems
    }

    private func verify(_ access: AccessPath, in objectSchema: ObjectSchema) -> [String] {
        let description = PlanPrinter.print(access, className: objectSchema.name)
        let column: Int
        let name: String
        switch access {
        case .fullScan, .empty:
            return []
        case .primaryKey(let property, let n, _), .primaryKeyIn(let property, let n, _):
            column = property
            name = n
            if property != objectSchema.primaryKeyIndex { return ["\(description) is not on the primary key"] }
        case .indexEquality(let property, let n, _), .indexIn(let property, let n, _):
            column = property
            name = n
        case .indexRange(let property, let n, _, _):
            column = property
            name = n
        }
        guard column >= 0, column < objectSchema.properties.count else {
            return ["\(description): property \(column) out of range"]
        }
        let property = objectSchema.properties[column]
        var problems: [String] = []
        if property.name != name {
            problems.append("\(description): property \(column) of '\(objectSchema.name)' is '\(property.name)'")
        }
        if property.isToMany || property.isBacklink || property.isLink {
            problems.append("\(description) is not on a single scalar column")
        }
        switch access {
        case .indexEquality, .indexIn:
            if !property.isIndexed && column != objectSchema.primaryKeyIndex {
                problems.append("\(description) on a property without a hash index")
            }
        case .indexRange:
            if !property.hasSortedIndex { problems.append("\(description) on a property without a sorted index") }
        case .fullScan, .empty, .primaryKey, .primaryKeyIn:
            break
        }
        return problems
    }
}
