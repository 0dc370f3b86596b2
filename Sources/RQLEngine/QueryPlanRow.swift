import Foundation
import RQLBytecode
import RQLCodegen
import RQLCore
import RQLIR

/// One row of a `QUERY PLAN` tree, in SQLite's EXPLAIN QUERY PLAN shape: an id, the id of its
/// parent (0 for the top level) and a detail line.
///
///     QueryPlanRow.rows(for: plan).map(\.detail)
///     // ["SEARCH Person USING INDEX city (city=?) (~10 rows)",
///     //  "FILTER (> Person.age 30) (cost=1 selectivity=0.69)",
///     //  "USE TOP-N SORT FOR SORT(score DESC) LIMIT(10)"]
///
/// When the VM runs the query the rows are its program's Explain instructions (see
/// `Executable.queryPlanRows`), so plan and code cannot disagree; the reference backend shows the
/// same lines derived from the physical plan.
public struct QueryPlanRow: Hashable, Sendable {
    public var id: Int
    public var parent: Int
    public var detail: String

    public init(id: Int, parent: Int, detail: String) {
        self.id = id
        self.parent = parent
        self.detail = detail
    }

    /// The rows of `plan`: the access path, each residual condition in evaluation order with its
    /// estimated cost and selectivity, then each result step (`PlanRowText`, the lines codegen
    /// emits as Explain instructions).
    public static func rows(for plan: PhysicalPlan) -> [QueryPlanRow] {
        rows(details: PlanRowText.details(for: plan))
    }

    /// The rows a program's `Explain` instructions spell, in program order.
    public static func rows(for program: Program) -> [QueryPlanRow] {
        rows(details: ExplainFormatter.planRows(program))
    }

    private static func rows(details: [String]) -> [QueryPlanRow] {
        details.enumerated().map { QueryPlanRow(id: $0.offset + 1, parent: 0, detail: $0.element) }
    }

    /// The rows drawn as SQLite draws them: `QUERY PLAN`, then `|--` for each row but the last
    /// of its level, a backquote and `--` for the last, children indented under their parent.
    public static func tree(_ rows: [QueryPlanRow], heading: String = "QUERY PLAN") -> String {
        var lines = [heading]
        func draw(parent: Int, indent: String) {
            let children = rows.filter { $0.parent == parent }
            for (index, row) in children.enumerated() {
                let last = index == children.count - 1
                lines.append(indent + (last ? "`--" : "|--") + row.detail)
                draw(parent: row.id, indent: indent + (last ? "   " : "|  "))
            }
        }
        draw(parent: 0, indent: "")
        return lines.joined(separator: "\n")
    }

    /// Three significant digits, no exponent below a million: `0.0898`, `12`, `1e+06`.
    static func number(_ value: Double) -> String {
        PlanRowText.number(value)
    }
}
