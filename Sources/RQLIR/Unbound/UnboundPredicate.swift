import RQLCore

/// A predicate built by the type-safe DSL (`.where { $0.age > 2 }`) before it meets a schema:
/// key paths are property names, constants are `Value`s, nothing is resolved or type-checked.
/// The one binder (RQLSema) binds it exactly as it binds query text, so a closure and the
/// equivalent string give identical bound IR.
///
/// Each case notes the query text it stands for (NSPredicate format, constants as `%@`).
///
/// ```swift
/// // $0.age > 2 && $0.name.starts(with: "R", options: .caseInsensitive)
/// let predicate = UnboundPredicate.and([
///     .comparison(UnboundComparison(.keyPath(UnboundKeyPath("age")), .greater, .constant(.int(2)))),
///     .comparison(
///         UnboundComparison(
///             .keyPath(UnboundKeyPath("name")), .beginsWith, .constant(.string("R")), options: .caseInsensitive)),
/// ])
/// ```
public indirect enum UnboundPredicate: Hashable, Sendable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `(a) AND (b) AND …`; an empty list is TRUEPREDICATE.
    case and([UnboundPredicate])
    /// `(a) OR (b) OR …`; an empty list is FALSEPREDICATE.
    case or([UnboundPredicate])
    /// `NOT (p)`.
    case not(UnboundPredicate)
    /// `lhs op[options] rhs`.
    case comparison(UnboundComparison)
    /// `value BETWEEN {lower, upper}` (inclusive at both ends).
    case between(UnboundExpression, lower: Value, upper: Value)
    /// `location GEOWITHIN shape`: the embedded GeoJSON point at the key path lies in `region`.
    case geoWithin(UnboundKeyPath, GeoRegion)
}

/// `lhs op[options] rhs` before binding.
public struct UnboundComparison: Hashable, Sendable {
    public var lhs: UnboundExpression
    public var op: ComparisonOperator
    /// `[c]` / `[d]`.
    public var options: StringOptions
    public var rhs: UnboundExpression

    public init(
        _ lhs: UnboundExpression,
        _ op: ComparisonOperator,
        _ rhs: UnboundExpression,
        options: StringOptions = []
    ) {
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
    }
}

/// One complete DSL query: the predicate and the result clauses a `Results` chain adds.
///
/// ```swift
/// UnboundQuery(predicate: .constant(true), clauses: [.sort([.init(UnboundKeyPath("name"), ascending: true)])])
/// ```
public struct UnboundQuery: Hashable, Sendable {
    public var predicate: UnboundPredicate
    /// SORT, DISTINCT and LIMIT in the order applied.
    public var clauses: [UnboundClause]

    public init(predicate: UnboundPredicate, clauses: [UnboundClause] = []) {
        self.predicate = predicate
        self.clauses = clauses
    }
}

/// A result clause before binding.
public enum UnboundClause: Hashable, Sendable {
    /// `SORT(a ASC, b DESC)`.
    case sort([UnboundSortKey])
    /// `DISTINCT(a, b)`.
    case distinct([UnboundKeyPath])
    /// `LIMIT(n)`.
    case limit(Int)
}

/// One key of a SORT.
public struct UnboundSortKey: Hashable, Sendable {
    public var keyPath: UnboundKeyPath
    public var ascending: Bool

    public init(_ keyPath: UnboundKeyPath, ascending: Bool) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
