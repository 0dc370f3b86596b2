import Foundation
import RQLCore
import RQLIR

/// A stable one-line text form of plans, in the prefix style of `IRPrinter`, for the optimizer
/// trace and golden tests. (`rqlc explain` prints the physical plan as a `QUERY PLAN` tree from
/// the program's Explain instructions; this is the optimizer's own view.)
///
///     PlanPrinter.print(physical)
///     // (plan Person (index-range Person.age (>= 30) (<= 40)) (filter (== Person.active true))
///     //  (top-n 10 Person.score DESC))
///
/// - access paths: `(scan)`, `(empty)`, `(primary-key Person.id 5)`, `(primary-key-in Person.id
///   {1, 2})`, `(index-eq Person.city 'City42')`, `(index-in Person.city {'a', 'b'})`,
///   `(index-range Person.age (> 90))`;
/// - residual conditions `(filter PREDICATE)`, with `cost=… sel=…` when estimates are shown;
/// - result steps `(sort …)`, `(distinct …)`, `(limit n)`, `(top-n n keys…)`;
/// - a logical plan is its query (`IRPrinter`), or `(chain Class (filter …) (sort …) …)` while
///   its filters are not merged.
public enum PlanPrinter {
    public static func print(_ plan: OptimizerPlan, estimates: Bool = true) -> String {
        switch plan {
        case .logical(let logical): print(logical)
        case .physical(let physical): print(physical, estimates: estimates)
        }
    }

    public static func print(_ plan: LogicalPlan) -> String {
        if ChainMerging.isMerged(plan) { return IRPrinter.print(plan.query) }
        let steps = plan.operators.map { op in
            switch op {
            case .filter(let predicate): "(filter \(IRPrinter.print(predicate)))"
            case .clause(let clause): IRPrinter.print(clause)
            }
        }
        return "(chain \(plan.className)" + steps.map { " " + $0 }.joined() + ")"
    }

    public static func print(_ plan: PhysicalPlan, estimates: Bool = true) -> String {
        var parts = ["plan", plan.className]
        if estimates, let candidates = plan.estimatedCandidates, let matches = plan.estimatedMatches {
            parts.append("(estimate candidates=\(number(candidates)) matches=\(number(matches)))")
        }
        parts.append(print(plan.access, className: plan.className))
        for condition in plan.residual {
            var text = "(filter " + IRPrinter.print(condition.predicate)
            if estimates, let cost = condition.cost { text += " cost=\(number(cost))" }
            if estimates, let selectivity = condition.selectivity { text += " sel=\(number(selectivity))" }
            parts.append(text + ")")
        }
        parts += plan.result.map(print)
        return "(" + parts.joined(separator: " ") + ")"
    }

    public static func print(_ access: AccessPath, className: String) -> String {
        switch access {
        case .fullScan:
            return "(scan)"
        case .empty:
            return "(empty)"
        case .primaryKey(_, let name, let value):
            return "(primary-key \(className).\(name) \(value))"
        case .primaryKeyIn(_, let name, let values):
            return "(primary-key-in \(className).\(name) \(Value.list(values)))"
        case .indexEquality(_, let name, let value):
            return "(index-eq \(className).\(name) \(value))"
        case .indexIn(_, let name, let values):
            return "(index-in \(className).\(name) \(Value.list(values)))"
        case .indexRange(_, let name, let lower, let upper):
            var text = "(index-range \(className).\(name)"
            if let lower { text += " (\(lower.isInclusive ? ">=" : ">") \(lower.value))" }
            if let upper { text += " (\(upper.isInclusive ? "<=" : "<") \(upper.value))" }
            return text + ")"
        }
    }

    public static func print(_ step: ResultStep) -> String {
        switch step {
        case .sort(let keys): IRPrinter.print(BoundClause.sort(keys))
        case .distinct(let paths): IRPrinter.print(BoundClause.distinct(paths))
        case .limit(let count): "(limit \(count))"
        case .topN(let keys, let count):
            "(top-n \(count)" + keys.map { " " + IRPrinter.print($0.path) + ($0.ascending ? " ASC" : " DESC") }.joined()
                + ")"
        }
    }

    /// Three significant digits, no exponent below a million: `0.0898`, `12`, `1e+06`.
    static func number(_ value: Double) -> String {
        String(format: "%.3g", value)
    }
}
