import RQLBytecode
import RQLCore
import RQLIR

/// The QUERY PLAN rows, as `Explain` instructions: the access path, then one row per result
/// step (`USE TOP-N SORT FOR SORT(score DESC) LIMIT(10)`). The optimizer's estimates go in
/// the comment column.
extension Generator {
    mutating func explainRows() {
        var id: Int32 = 1
        var estimates: [String] = []
        if let candidates = plan.estimatedCandidates { estimates.append("candidates~\(Self.number(candidates))") }
        if let matches = plan.estimatedMatches { estimates.append("matches~\(Self.number(matches))") }
        let conditions = plan.residual.compactMap { condition -> String? in
            guard let cost = condition.cost, let selectivity = condition.selectivity else { return nil }
            return "cost=\(Self.number(cost)) sel=\(Self.number(selectivity))"
        }
        builder.emit(
            .explain,
            p1: id,
            p4: builder.constant(.text(accessText())),
            comment: (estimates + conditions).joined(separator: " ")
        )
        for step in plan.result {
            id += 1
            builder.emit(.explain, p1: id, p4: builder.constant(.text(Self.text(step, first: id == 2))))
        }
    }

    private func accessText() -> String {
        let name = plan.className
        switch plan.access {
        case .fullScan:
            return "SCAN \(name)"
        case .empty:
            return "SCAN \(name) (no rows: the predicate is false)"
        case .primaryKey(_, let property, _):
            return "SEARCH \(name) USING PRIMARY KEY (\(property)=?)"
        case .primaryKeyIn(_, let property, let values):
            return "SEARCH \(name) USING PRIMARY KEY (\(property) IN \(values.count) values)"
        case .indexEquality(_, let property, _):
            return "SEARCH \(name) USING INDEX \(property) (\(property)=?)"
        case .indexIn(_, let property, let values):
            return "SEARCH \(name) USING INDEX \(property) (\(property) IN \(values.count) values)"
        case .indexRange(_, let property, let lower, let upper):
            var bounds: [String] = []
            if let lower { bounds.append("\(property)\(lower.isInclusive ? ">=" : ">")?") }
            if let upper { bounds.append("\(property)\(upper.isInclusive ? "<=" : "<")?") }
            return "SEARCH \(name) USING SORTED INDEX \(property) (\(bounds.joined(separator: " AND ")))"
        }
    }

    static func text(_ step: ResultStep, first: Bool) -> String {
        switch step {
        case .sort(let keys): "USE SORT FOR \(sortText(keys))"
        case .topN(let keys, let count): "USE TOP-N SORT FOR \(sortText(keys)) LIMIT(\(count))"
        case .distinct(let paths):
            "USE HASH FOR DISTINCT(\(paths.map { Lowering.path($0).dottedName }.joined(separator: ", ")))"
        case .limit(let count): first ? "STOP SCAN AFTER LIMIT(\(count))" : "USE LIMIT(\(count))"
        }
    }

    static func sortText(_ keys: [BoundSortKey]) -> String {
        "SORT("
            + keys.map { Lowering.path($0.path).dottedName + ($0.ascending ? " ASC" : " DESC") }
            .joined(separator: ", ") + ")"
    }

    /// An estimate for EXPLAIN: whole numbers as integers, fractions to three decimals
    /// (`String(format:)` would cost more than the rest of codegen).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 1000).rounded() / 1000)
    }
}
