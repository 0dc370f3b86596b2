import RQLCore

/// What a query asks for, before any decision about how to run it: a source class and the
/// operators applied to its objects in the order written.
///
/// A query string gives one filter and its clauses; `Results` chains give more
/// (`dogs.filter("age > 2").sorted(byKeyPath: "name").filter("color == 'tan'")` is
/// `[filter, sort, filter]`). The optimizer merges the chain into one filter followed by the
/// clauses, which is the shape `PhysicalPlan` starts from. A filter after a sort keeps the
/// order, so merging filters is exact; as in realm-core, a filter chained after LIMIT or
/// DISTINCT still applies before them (the descriptors are re-applied to the new query).
///
///     LogicalPlan(query)             // [filter(age > 2), sort(name ASC)]
///     plan.query                     // back to one BoundQuery once merged
public struct LogicalPlan: Hashable, Sendable {
    /// One step of the chain.
    public enum Operator: Hashable, Sendable {
        /// Keeps the objects for which the predicate holds.
        case filter(BoundPredicate)
        /// SORT, DISTINCT or LIMIT, applied to the result of the steps before it.
        case clause(BoundClause)
    }

    /// The class whose objects the plan selects.
    public var className: String
    /// The operators in the order they were written or chained.
    public var operators: [Operator]

    public init(className: String, operators: [Operator]) {
        self.className = className
        self.operators = operators
    }

    /// The plan of one bound query: its filter, then its clauses.
    public init(_ query: BoundQuery) {
        self.init(className: query.className, operators: [.filter(query.predicate)] + query.clauses.map { .clause($0) })
    }

    /// The plan with `next` applied after it (a chained `filter`, `sorted`, `distinct`).
    public func appending(_ next: Operator) -> LogicalPlan {
        LogicalPlan(className: className, operators: operators + [next])
    }

    /// One query with every filter AND-ed (in chain order) and the clauses in chain order:
    /// realm-core's meaning of a chain. TRUEPREDICATE when there is no filter.
    public var query: BoundQuery {
        // The usual plan, one query's filter alone, without building the two lists.
        if operators.count == 1, case .filter(let predicate) = operators[0] {
            return BoundQuery(className: className, predicate: predicate)
        }
        var predicates: [BoundPredicate] = []
        var clauses: [BoundClause] = []
        for op in operators {
            switch op {
            case .filter(let predicate): predicates.append(predicate)
            case .clause(let clause): clauses.append(clause)
            }
        }
        let predicate: BoundPredicate =
            switch predicates.count {
            case 0: .constant(true)
            case 1: predicates[0]
            default: .and(predicates)
            }
        return BoundQuery(className: className, predicate: predicate, clauses: clauses)
    }
}
