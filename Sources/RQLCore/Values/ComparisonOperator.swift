/// A comparison operator of RQL: the one type the syntax tree, the DSL, the bound IR, the value
/// rules and the bytecode share. The raw value is the canonical spelling (`Lexer` also accepts
/// `=`, `<>`, `=>`, `=<`).
///
/// The binder lowers `IN` (to `==` against a multi-valued side), `TEXT` (to a full-text search)
/// and `MATCHES` (to a regular-expression match), so a bound comparison and an instruction hold
/// only the other ten (`isLowered`); `IRVerifier` and `ProgramVerifier` report one that does not.
///
/// ```swift
/// ValueComparison.evaluate(.int(3), .greater, .double(2.5))  // true
/// ```
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    /// `==` / `=`: Realm equality (null equals only null; numbers by value).
    case equal = "=="
    /// `!=` / `<>`: the negation of `equal`.
    case notEqual = "!="
    /// `<`: ordered, false when either side is null or the types are not comparable.
    case less = "<"
    /// `<=`: ordered; also true when both sides are null.
    case lessOrEqual = "<="
    /// `>`: ordered, false when either side is null or the types are not comparable.
    case greater = ">"
    /// `>=`: ordered; also true when both sides are null.
    case greaterOrEqual = ">="
    /// `BEGINSWITH`: the left string/binary starts with the right one.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the left string/binary ends with the right one.
    case endsWith = "ENDSWITH"
    /// `CONTAINS`: the right string/binary occurs in the left one.
    case contains = "CONTAINS"
    /// `LIKE`: the left string matches the right wildcard pattern as a whole (`*`, `?`).
    case like = "LIKE"
    /// `IN`: the right side must be multi-valued (a list constant or a collection); lowered to `==`.
    case `in` = "IN"
    /// `TEXT`: full-text search (RQL); lowered to `BoundPredicate.fullText`.
    case text = "TEXT"
    /// `MATCHES`: the whole string matches a regular expression (NSPredicate); lowered to
    /// `BoundPredicate.matches`.
    case matches = "MATCHES"

    /// Whether the binder rewrites the operator into another form, so that no bound comparison
    /// or instruction holds it.
    public var isLowered: Bool {
        switch self {
        case .in, .text, .matches: true
        default: false
        }
    }

    /// Whether `[c]` / `[d]` may follow the operator.
    public var acceptsOptions: Bool {
        switch self {
        case .equal, .notEqual, .in, .beginsWith, .endsWith, .contains, .like: true
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .text, .matches: false
        }
    }

    /// The operator with its operands exchanged (`5 < age` is `age > 5`); nil for the string
    /// operators, which are not symmetric, and for the lowered ones.
    public var flipped: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .greater: .less
        case .lessOrEqual: .greaterOrEqual
        case .greaterOrEqual: .lessOrEqual
        case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: nil
        }
    }

    /// Whether the operator is one of the string/binary operators.
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like: true
        default: false
        }
    }

    /// Whether the operator is `<`, `<=`, `>` or `>=`.
    public var isOrdered: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }
}

/// The `[c]`, `[d]` and `[cd]` modifiers of string comparisons.
///
/// ```swift
/// ValueComparison.evaluate(.string("Ёлка"), .equal, .string("ёлка"), options: .caseInsensitive)  // true
/// ```
public struct StringOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `[c]`: fold case in every script (realm-core folds only ASCII and Latin-1; we go further).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: ignore diacritics (`é` matches `e`); realm-core has no such modifier.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}
