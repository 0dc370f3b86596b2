/// The binary comparison operators of RQL, as the comparison rules see them (the syntax tree has
/// its own spelling; the binder maps one to the other).
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
