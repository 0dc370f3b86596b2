import Foundation
import RQLCore
import RQLIR

/// The detail line of each `QUERY PLAN` row of a physical plan, SQLite-style: the access path,
/// each residual condition in evaluation order with its estimates, then each result step.
/// Codegen emits one `Explain` instruction per line, so the plan `rqlc explain` shows is the
/// one the program runs.
///
///     PlanRowText.details(for: plan)
///     // ["SEARCH Person USING INDEX city (city=?) (~10 rows)",
///     //  "FILTER (> Person.age 30) (cost=1 selectivity=0.69)",
///     //  "USE TOP-N SORT FOR SORT(score DESC) LIMIT(10)"]
public enum PlanRowText {
    public static func details(for plan: PhysicalPlan) -> [String] {
        var details = [access(plan)]
        for condition in plan.residual {
            var detail = "FILTER " + IRPrinter.print(condition.predicate)
            var estimates: [String] = []
            if let cost = condition.cost { estimates.append("cost=\(number(cost))") }
            if let selectivity = condition.selectivity { estimates.append("selectivity=\(number(selectivity))") }
            if !estimates.isEmpty { detail += " (" + estimates.joined(separator: " ") + ")" }
            details.append(detail)
        }
        for (index, step) in plan.result.enumerated() {
            details.append(Self.step(step, className: plan.className, first: index == 0))
        }
        return details
    }

    /// Three significant digits, no exponent below a million: `0.0898`, `12`, `1e+06`.
    public static func number(_ value: Double) -> String {
        String(format: "%.3g", value)
    }

    private static func access(_ plan: PhysicalPlan) -> String {
        let name = plan.className
        let rows = plan.estimatedCandidates.map { " (~\(number($0)) \($0 == 1 ? "row" : "rows"))" } ?? ""
        switch plan.access {
        case .fullScan:
            return "SCAN \(name)" + rows
        case .empty:
            return "NO ROWS FROM \(name) (the predicate is always false)"
        case .primaryKey(_, let property, _):
            return "SEARCH \(name) USING PRIMARY KEY (\(property)=?)" + rows
        case .primaryKeyIn(_, let property, let values):
            return "SEARCH \(name) USING PRIMARY KEY (\(property) IN \(values.count) values)" + rows
        case .indexEquality(_, let property, _):
            return "SEARCH \(name) USING INDEX \(property) (\(property)=?)" + rows
        case .indexIn(_, let property, let values):
            return "SEARCH \(name) USING INDEX \(property) (\(property) IN \(values.count) values)" + rows
        case .indexRange(_, let property, let lower, let upper):
            var bounds: [String] = []
            if let lower { bounds.append(property + (lower.isInclusive ? ">=?" : ">?")) }
            if let upper { bounds.append(property + (upper.isInclusive ? "<=?" : "<?")) }
            return "SEARCH \(name) USING SORTED INDEX \(property) (\(bounds.joined(separator: " AND ")))" + rows
        }
    }

    private static func step(_ step: ResultStep, className: String, first: Bool) -> String {
        switch step {
        case .sort(let keys):
            return "USE SORT FOR " + sort(keys, className)
        case .distinct(let paths):
            return "USE DISTINCT FOR DISTINCT(" + paths.map { path($0, className) }.joined(separator: ", ") + ")"
        case .limit(let count):
            return "LIMIT(\(count))" + (first ? " (stops the scan early)" : "")
        case .topN(let keys, let count):
            return "USE TOP-N SORT FOR " + sort(keys, className) + " LIMIT(\(count))"
        }
    }

    private static func sort(_ keys: [BoundSortKey], _ className: String) -> String {
        "SORT("
            + keys.map {
                path($0.path, className) + ($0.ascending ? " ASC" : " DESC") + ($0.caseInsensitive ? "[c]" : "")
            }
            .joined(separator: ", ") + ")"
    }

    /// A path as written in the query: without its root class.
    private static func path(_ path: BoundPath, _ className: String) -> String {
        let printed = IRPrinter.print(path)
        return printed.hasPrefix(className + ".") ? String(printed.dropFirst(className.count + 1)) : printed
    }
}
