import RQLIR

/// Merges a chain of filters and clauses (`Results.filter(…).sorted(…).filter(…)`) into one
/// filter followed by the clauses, so that the passes after it see every condition at once.
///
///     [filter(age > 2), sort(name ASC), filter(color == 'tan')]
///     → [filter(age > 2 AND color == 'tan'), sort(name ASC)]
///
/// Exact: a filter after a sort keeps the sorted order, and, as in realm-core, a filter chained
/// after DISTINCT or LIMIT still applies before them (`LogicalPlan.query` is that meaning).
public struct ChainMerging: Pass {
    public let name = "chain-merging"
    public let reason = "chained filters are one filter before the clauses"

    public init() {}

    public func mayApply(to plan: OptimizerPlan) -> Bool {
        guard case .logical(let logical) = plan else { return false }
        return !Self.isMerged(logical)
    }

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        guard case .logical(let logical) = plan, !Self.isMerged(logical) else { return false }
        plan = .logical(LogicalPlan(logical.query))
        return true
    }

    /// One filter, then only clauses.
    static func isMerged(_ plan: LogicalPlan) -> Bool {
        guard case .filter? = plan.operators.first else { return false }
        return plan.operators.dropFirst().allSatisfy {
            if case .clause = $0 { true } else { false }
        }
    }
}
