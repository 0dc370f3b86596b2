import Foundation
import RQLBytecode
import RQLCore
import RQLIR

/// The QUERY PLAN rows, as `Explain` instructions (P1 the row id, P2 its parent, P4 the detail
/// line of `PlanRowText`), so that the plan EXPLAIN shows is the one the program runs.
extension Generator {
    mutating func explainRows() {
        for (index, detail) in PlanRowText.details(for: plan).enumerated() {
            builder.emit(.explain, p1: Int32(index + 1), p4: builder.constant(.text(detail)))
        }
    }
}
