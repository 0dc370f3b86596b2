import RQLCore

/// How a query runs: where candidate rows come from (the access path), the conditions left to
/// test on each candidate in the order they run, and what shapes the result. The optimizer
/// produces it from a `LogicalPlan`; codegen turns it into a program; `rqlc explain` prints it as
/// a `QUERY PLAN` tree (`explainRows`), and the program's Explain instructions carry exactly those
/// rows, so plan and code cannot disagree.
///
/// Invariant: for every row of the class, "the access path yields it and every residual
/// condition holds" is equivalent to the query's predicate; the result steps then apply in
/// order. `PhysicalPlan.unoptimized(_:)` (a full scan testing the whole predicate) is always
/// valid, and is what `--no-optimize` runs.
///
///     // Person: city == 'City42' AND age > 30 SORT(score DESC) LIMIT(10), city indexed
///     PhysicalPlan(className: "Person",
///                  access: .indexEquality(property: cityIndex, name: "city", value: .string("City42")),
///                  residual: [ResidualCondition(predicate: age > 30, cost: 1, selectivity: 0.69)],
///                  result: [.topN(keys: [score DESC], count: 10)])
public struct PhysicalPlan: Hashable, Sendable {
    /// The class whose objects the plan selects.
    public var className: String
    /// Where the candidate rows come from.
    public var access: AccessPath
    /// The conditions every candidate must still pass, AND-ed, in evaluation order (cheapest and
    /// most selective first). Empty means every candidate matches.
    public var residual: [ResidualCondition]
    /// SORT, DISTINCT, LIMIT and fused top-N steps, applied in order to the matching rows.
    public var result: [ResultStep]
    /// Estimated rows produced by the access path (for EXPLAIN; `nil` when not estimated).
    public var estimatedCandidates: Double?
    /// Estimated rows that match the predicate, before the result steps (`nil` when not estimated).
    public var estimatedMatches: Double?

    public init(
        className: String,
        access: AccessPath,
        residual: [ResidualCondition],
        result: [ResultStep],
        estimatedCandidates: Double? = nil,
        estimatedMatches: Double? = nil
    ) {
        self.className = className
        self.access = access
        self.residual = residual
        self.result = result
        self.estimatedCandidates = estimatedCandidates
        self.estimatedMatches = estimatedMatches
    }

    /// A full scan testing the whole predicate, then the clauses as written: no decision made.
    public static func unoptimized(_ query: BoundQuery) -> PhysicalPlan {
        let residual: [ResidualCondition] =
            if case .constant(true) = query.predicate { [] } else { [ResidualCondition(predicate: query.predicate)] }
        return PhysicalPlan(
            className: query.className,
            access: .fullScan,
            residual: residual,
            result: query.clauses.map(ResultStep.init)
        )
    }
}

/// Where a plan's candidate rows come from. Every index-backed path yields positions in
/// ascending order (table order), so the result is the same as a scan's before any SORT.
public enum AccessPath: Hashable, Sendable {
    /// Every row of the table, block by block.
    case fullScan
    /// No row: the predicate is statically false (FALSEPREDICATE, `x == 5 AND x > 6`).
    case empty
    /// The one row whose primary key equals the value (Realm equality), if any.
    case primaryKey(property: Int, name: String, value: Value)
    /// The rows whose primary key equals one of the values.
    case primaryKeyIn(property: Int, name: String, values: [Value])
    /// The rows whose hash-indexed property equals the value (`TableReader.indexLookup`).
    case indexEquality(property: Int, name: String, value: Value)
    /// The rows whose hash-indexed property equals one of the values.
    case indexIn(property: Int, name: String, values: [Value])
    /// The rows whose sorted-indexed property lies between the bounds (`nil`: unbounded).
    case indexRange(property: Int, name: String, lower: RangeBound?, upper: RangeBound?)
}

/// One end of an index range.
public struct RangeBound: Hashable, Sendable {
    public var value: Value
    /// Whether rows equal to `value` are inside the range.
    public var isInclusive: Bool

    public init(_ value: Value, inclusive: Bool) {
        self.value = value
        self.isInclusive = inclusive
    }
}

/// One AND-ed condition left after the access path, with the optimizer's estimates.
public struct ResidualCondition: Hashable, Sendable {
    public var predicate: BoundPredicate
    /// Estimated relative cost of testing one row (a plain int compare is 1; `nil`: not estimated).
    public var cost: Double?
    /// Estimated fraction of tested rows that pass, in `0 ... 1` (`nil`: not estimated).
    public var selectivity: Double?

    public init(predicate: BoundPredicate, cost: Double? = nil, selectivity: Double? = nil) {
        self.predicate = predicate
        self.cost = cost
        self.selectivity = selectivity
    }
}

/// One step that shapes the matching rows.
public enum ResultStep: Hashable, Sendable {
    /// A stable sort on the keys.
    case sort([BoundSortKey])
    /// Keeps the first row of each distinct tuple of values (see `BoundClause.distinct`).
    case distinct([BoundPath])
    /// Keeps the first `n` rows. Without an earlier SORT or DISTINCT the scan stops after `n` matches.
    case limit(Int)
    /// SORT then LIMIT fused: the first `count` rows of the stable sort, found without sorting
    /// everything (a bounded heap).
    case topN(keys: [BoundSortKey], count: Int)

    /// The step that performs a bound clause as written.
    public init(_ clause: BoundClause) {
        switch clause {
        case .sort(let keys): self = .sort(keys)
        case .distinct(let paths): self = .distinct(paths)
        case .limit(let count): self = .limit(count)
        }
    }
}
