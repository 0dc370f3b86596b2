import RQLCore

/// A query bound to a schema: every name resolved, every constant typed, every argument
/// substituted. Executors (the reference evaluator, later the VM) run it without looking at the
/// query text again; spans remain only so that run-time problems can point at the source.
///
///     // Dog: age > 2 SORT(name ASC)
///     BoundQuery(className: "Dog",
///                predicate: .comparison(BoundComparison(.path(age), .greater, .constant(.int(2)))),
///                clauses: [.sort([BoundSortKey(path: name, ascending: true)])])
public struct BoundQuery: Hashable, Sendable {
    /// The class whose objects the query selects.
    public var className: String
    public var predicate: BoundPredicate
    /// SORT, DISTINCT and LIMIT in the order written; each applies to the previous result.
    public var clauses: [BoundClause]

    public init(className: String, predicate: BoundPredicate, clauses: [BoundClause] = []) {
        self.className = className
        self.predicate = predicate
        self.clauses = clauses
    }
}

/// A result clause.
public enum BoundClause: Hashable, Sendable {
    /// Stable sort by each key in turn. Consecutive SORT clauses are already merged, the later
    /// clause's keys first, as realm-core does.
    case sort([BoundSortKey])
    /// Keeps the first object of each distinct tuple of values; objects whose path crosses a null
    /// link are dropped.
    case distinct([BoundPath])
    /// Keeps the first n objects.
    case limit(Int)
}
