import RQLCore

/// What an operand is. Literals, arguments, key paths and lists are stored inline (a parse of
/// `age > 90` allocates no box for them); the recursive cases are boxed.
public enum ExpressionKind: Hashable, Sendable {
    /// A constant written in the query.
    case literal(Literal)
    /// A value supplied with the query: `$0`, `%@`, `$name`.
    case argument(Argument)
    /// A key path, possibly ending in a size, type or aggregate.
    case keyPath(KeyPath)
    /// `{1, 2, $0}`: constants and arguments.
    case list([Expression])
    /// `ANY dogs.age`, `ALL {1, 2}`, `NONE $0`.
    indirect case quantified(Quantifier, Expression)
    /// `SUBQUERY(collection, $x, predicate).@count`; the variable is named without its '$'. Inside the
    /// predicate, RQL refers to it as a property named `$x`, NSPredicate as `.variable("x")`.
    indirect case subqueryCount(collection: KeyPath, variable: String, predicate: Predicate)
    /// `first op operand op operand …` at one precedence level, left-associative: `a + b - c` is
    /// one node; `a + b * c` nests the product as an operand.
    indirect case arithmetic(first: Expression, rest: [ArithmeticStep])
}

/// One `op operand` step of an arithmetic chain.
public struct ArithmeticStep: Hashable, Sendable {
    public var op: ArithmeticOperator
    public var operand: Expression

    public init(_ op: ArithmeticOperator, _ operand: Expression) {
        self.op = op
        self.operand = operand
    }
}

extension ArithmeticOperator {
    /// `*` and `/` bind tighter than `+` and `-`.
    var isMultiplicative: Bool { self == .multiply || self == .divide }
}

/// A value supplied alongside the query text.
public enum Argument: Hashable, Sendable {
    /// `$n` (RQL): the n-th argument.
    case positional(Int)
    /// `%@`, `%d`, … (NSPredicate): the n-th argument, counted in order of appearance; the
    /// specifier is the text after `%`.
    case placeholder(Int, specifier: String)
    /// `$name` (NSPredicate): a named variable.
    case variable(String)
}
