import RQLCore
import RQLIR

/// Chooses where candidate rows come from, and lowers the logical plan to a physical one: the
/// merged predicate's top-level conjuncts are the candidates' raw material, and the conjuncts
/// an index answers leave the residual (SQLite's `TERM_CODED`).
///
///     id == 123456                        → primary-key Person.id 123456, no residual
///     city == 'City42' AND age > 30       → index-eq Person.city 'City42', residual age > 30
///     age >= 30 AND age <= 40 AND active  → index-range Person.age [30, 40], residual active
///     age > 50                            → scan (half the table: the scan is cheaper)
///     FALSEPREDICATE                      → empty
///
/// Candidates, each costed with `CostModel` against a full scan: the primary key (`==` or an
/// IN list), a hash index (`==` or IN) and a sorted index (the tightest lower and upper bound
/// on one column). An index answers a conjunct only where its lookup means exactly the
/// comparison (`isLookupEligible`, `isRangeEligible`): a case-sensitive comparison of the
/// column of the object itself with constants of a type whose index keys compare as Realm
/// compares them. The cheapest candidate wins; ties keep the scan.
public struct AccessPathSelection: Pass {
    public let name = "access-path-selection"
    public let reason =
        "an index lookup instead of a scan where that is cheaper; consumed conditions leave the residual"

    public init() {}

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        guard case .logical(let logical) = plan else { return false }
        let query = logical.query
        let physical = Self.plan(for: query, in: context)
        plan = .physical(physical)
        // Unfired: the scan of the whole predicate that lowering alone gives.
        if physical.access != .fullScan { return true }
        if case .constant(true) = query.predicate { return !physical.residual.isEmpty }
        // A predicate that is not an AND is one conjunct: a scan keeps it whole as its residual.
        guard case .and = query.predicate else { return physical.residual.count != 1 }
        return physical.residual.count != 1 || physical.residual[0].predicate != query.predicate
    }

    /// The physical plan for `query`.
    static func plan(for query: BoundQuery, in context: PassContext) -> PhysicalPlan {
        let result = query.clauses.isEmpty ? [] : query.clauses.map(ResultStep.init)
        var conjuncts = Logic.conjuncts(of: query.predicate)
        conjuncts.removeAll { if case .constant(true) = $0 { true } else { false } }
        if conjuncts.contains(where: { if case .constant(false) = $0 { true } else { false } }) {
            return PhysicalPlan(
                className: query.className,
                access: .empty,
                residual: [],
                result: result,
                estimatedCandidates: 0,
                estimatedMatches: 0
            )
        }
        let estimator = SelectivityEstimator(context: context)
        let model = context.costModel
        // Each conjunct's column term, found once for the estimates and the candidates.
        let terms = conjuncts.map { conjunct -> ColumnTerm? in
            guard case .comparison(let comparison) = conjunct else { return nil }
            return ColumnTerm(comparison, schema: context.schema, home: context.objectSchema)
        }
        let conditions = conjuncts.indices.map { index in
            ResidualCondition(
                predicate: conjuncts[index],
                cost: model.cost(of: conjuncts[index]),
                selectivity: estimator.selectivity(of: conjuncts[index], term: terms[index])
            )
        }
        let rows = Double(context.rowCount)
        let matches = conditions.reduce(rows) { $0 * ($1.selectivity ?? 1) }
        // Most conjuncts compare a column with no index: then the scan is the only path, and
        // neither candidates nor costs need building.
        guard Self.mayUseIndex(terms, objectSchema: context.objectSchema) else {
            return PhysicalPlan(
                className: query.className,
                access: .fullScan,
                residual: conditions,
                result: result,
                estimatedCandidates: rows,
                estimatedMatches: Swift.min(matches, rows)
            )
        }
        var best = Candidate(
            access: .fullScan,
            consumed: [],
            rows: rows,
            cost: rows * model.scanRow + Self.evaluationCost(conditions, rows: rows, factor: 1)
        )
        for candidate in Self.candidates(terms, conditions: conditions, context: context, estimator: estimator) {
            let remaining = conditions.indices.filter { !candidate.consumed.contains($0) }.map { conditions[$0] }
            var contender = candidate
            contender.cost += Self.evaluationCost(remaining, rows: candidate.rows, factor: model.candidateTestFactor)
            if contender.cost < best.cost { best = contender }
        }
        let residual = conditions.indices.filter { !best.consumed.contains($0) }.map { conditions[$0] }
        return PhysicalPlan(
            className: query.className,
            access: best.access,
            residual: residual,
            result: result,
            estimatedCandidates: best.rows,
            estimatedMatches: Swift.min(matches, best.rows)
        )
    }

    /// Whether some term compares a column of the object that has an index (the primary key,
    /// a hash or a sorted index): the only terms `candidates` can turn into an access path.
    static func mayUseIndex(_ terms: [ColumnTerm?], objectSchema: ObjectSchema) -> Bool {
        // Most classes have no primary key; its index is a lookup by name, so skip it then.
        let primaryKey = objectSchema.primaryKey == nil ? nil : objectSchema.primaryKeyIndex
        // Read in place: binding each term (`case let term?`) copied the whole term.
        for index in terms.indices where terms[index]?.options.isEmpty == true && terms[index]!.column.isDirect {
            if terms[index]!.column.property.isIndexed || terms[index]!.column.property.hasSortedIndex
                || terms[index]!.column.propertyIndex == primaryKey
            {
                return true
            }
        }
        return false
    }

    /// One way to produce candidates: the access path, the conjuncts it answers, the rows it
    /// yields and what producing them costs.
    struct Candidate {
        var access: AccessPath
        var consumed: Set<Int>
        var rows: Double
        var cost: Double
    }

    /// The cost of testing `conditions` on `rows` rows, each on the rows the previous ones
    /// passed, in the order that makes the total smallest (`ResidualOrdering.rank`).
    static func evaluationCost(_ conditions: [ResidualCondition], rows: Double, factor: Double) -> Double {
        var alive = rows
        var total: Double = 0
        for condition in ResidualOrdering.ordered(conditions) {
            total += alive * (condition.cost ?? 1) * factor
            alive *= condition.selectivity ?? 1
        }
        return total
    }
}
