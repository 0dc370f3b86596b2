import RQLCore
import RQLIR

/// Orders the residual conditions so that the cheap, selective ones run first and the later
/// ones see fewer rows:
///
///     name CONTAINS[c] 'an' AND age > 90   → age > 90, then name CONTAINS[c] 'an'
///
/// Each condition carries its estimated cost per row `c` and selectivity `s`; conditions run in
/// ascending `c / (1 − s)`, ties in their written order. For independent filters this order
/// minimizes the expected work `c₁ + s₁·c₂ + s₁·s₂·c₃ + …` (swapping two neighbours helps
/// exactly when their ranks are out of order), which ordering by `c · s` does not: a cheap
/// condition that keeps half the rows (`c = 1, s = 0.5`, cost·s 0.5) belongs before a dear one
/// that keeps an eighth (`c = 3, s = 0.125`, cost·s 0.375): 1 + 0.5·3 = 2.5 against
/// 3 + 0.125·1 = 3.125 per row.
///
/// Reordering conjuncts is exact: evaluation has no side effects and cannot fail, and a
/// residual condition that is itself an AND is split into its conjuncts first.
public struct ResidualOrdering: Pass {
    public let name = "residual-ordering"
    public let reason = "cheap, selective conditions first so that later ones test fewer rows"

    public init() {}

    public func mayApply(to plan: OptimizerPlan) -> Bool {
        // `run`'s first test: at most one condition, estimated and not an AND, stays as it is.
        guard case .physical(let ready) = plan, ready.residual.count <= 1 else { return true }
        return !ready.residual.allSatisfy {
            $0.cost != nil && $0.selectivity != nil && !Self.isConjunction($0.predicate)
        }
    }

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        // The common case after access-path selection: nothing to split or estimate, only to order.
        if case .physical(var ready) = plan,
            ready.residual.allSatisfy({ $0.cost != nil && $0.selectivity != nil && !Self.isConjunction($0.predicate) })
        {
            if ready.residual.count <= 1 { return false }
            if ready.estimatedMatches != nil || ready.access != .fullScan {
                let order = Self.order(ready.residual)
                if order.elementsEqual(ready.residual.indices) { return false }
                let reordered = order.map { ready.residual[$0] }
                let fired = zip(reordered, ready.residual).contains { $0.predicate != $1.predicate }
                ready.residual = reordered
                plan = .physical(ready)
                return fired
            }
        }
        var physical = plan.physicalPlan
        let estimator = SelectivityEstimator(context: context)
        var split: [ResidualCondition] = []
        for condition in physical.residual {
            let parts = Logic.conjuncts(of: condition.predicate)
            if parts.count == 1 && parts[0] == condition.predicate {
                split.append(condition)
                continue
            }
            split += parts.map { ResidualCondition(predicate: $0) }
        }
        let estimated = split.map { condition in
            var condition = condition
            if condition.cost == nil { condition.cost = context.costModel.cost(of: condition.predicate) }
            if condition.selectivity == nil { condition.selectivity = estimator.selectivity(of: condition.predicate) }
            return condition
        }
        let ordered = Self.ordered(estimated)
        let fired = ordered.map(\.predicate) != physical.residual.map(\.predicate)
        physical.residual = ordered
        if physical.estimatedMatches == nil, physical.access == .fullScan {
            physical.estimatedCandidates = Double(context.rowCount)
            physical.estimatedMatches = ordered.reduce(Double(context.rowCount)) { $0 * ($1.selectivity ?? 1) }
        }
        plan = .physical(physical)
        return fired
    }

    private static func isConjunction(_ predicate: BoundPredicate) -> Bool {
        if case .and = predicate { return true }
        return false
    }

    /// The conditions in ascending rank, stable.
    static func ordered(_ conditions: [ResidualCondition]) -> [ResidualCondition] {
        guard conditions.count > 1 else { return conditions }
        return order(conditions).map { conditions[$0] }
    }

    /// The positions of `conditions` in ascending rank, stable.
    static func order(_ conditions: [ResidualCondition]) -> [Int] {
        let ranks = conditions.map(rank)
        return conditions.indices.sorted { a, b in
            let (x, y) = (ranks[a], ranks[b])
            if x.removesNothing != y.removesNothing { return y.removesNothing }
            return x.value != y.value ? x.value < y.value : a < b
        }
    }

    /// `cost / (1 − selectivity)`: the cost of removing a row's worth of candidates. Conditions
    /// that remove nothing come last, ordered among themselves by cost.
    static func rank(_ condition: ResidualCondition) -> (removesNothing: Bool, value: Double) {
        let cost = condition.cost ?? 1
        let selectivity = Swift.min(Swift.max(condition.selectivity ?? 1, 0), 1)
        if selectivity >= 1 { return (true, cost) }
        return (false, cost / (1 - selectivity))
    }
}
