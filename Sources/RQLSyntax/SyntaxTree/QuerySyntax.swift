import RQLCore

/// A parsed query: a predicate and the result clauses that follow it.
///
///     let query = try Parser.parse("age > 2 SORT(name ASC) LIMIT(5)")
///     query.predicate            // age > 2
///     query.clauses.count        // 2
public struct QuerySyntax: Hashable, Sendable {
    public var predicate: Predicate
    /// SORT, DISTINCT and LIMIT clauses in the order written; each applies to the previous result.
    public var clauses: [PostQueryClause]
    /// The dialect the query was written in; the printer writes it back in the same one.
    public var dialect: Dialect

    public init(predicate: Predicate, clauses: [PostQueryClause] = [], dialect: Dialect = .rql) {
        self.predicate = predicate
        self.clauses = clauses
        self.dialect = dialect
    }
}

/// What a predicate is. Only the cases that hold other nodes directly are boxed, so that AND, OR
/// and constants cost no allocation of their own.
public enum PredicateKind: Hashable, Sendable {
    /// Every operand holds (two or more operands; `a AND b AND c` is one node).
    case and([Predicate])
    /// At least one operand holds (two or more operands).
    case or([Predicate])
    /// The operand does not hold.
    indirect case not(Predicate)
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `lhs op[modifier] rhs`.
    indirect case comparison(Comparison)
    /// `value BETWEEN bounds`, where bounds is a two-element list literal or an argument.
    indirect case between(value: Expression, bounds: Expression)
    /// `location GEOWITHIN shape`.
    indirect case geoWithin(location: Expression, shape: GeoShape)
}

/// A binary comparison: `name BEGINSWITH[c] 'r'`.
public struct Comparison: Hashable, Sendable {
    public var lhs: Expression
    public var op: ComparisonOperator
    public var options: StringOptions
    public var rhs: Expression

    public init(_ lhs: Expression, _ op: ComparisonOperator, _ rhs: Expression, options: StringOptions = []) {
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
    }
}
