import RQLCore

/// A constant written in a query, as written: the binder decides what type it becomes.
public enum Literal: Hashable, Sendable {
    case integer(Int64)
    /// A number with a fraction or exponent, `inf` or `nan`.
    case double(Double)
    /// A number written with more significant digits (or a wider exponent) than a `Double`
    /// holds, such as `3.141592653589793238`: the nearest double, used as any other double, and
    /// the exact decimal the text writes, used against a decimal128 property (realm-core reads
    /// the text itself as a Decimal128 there).
    case preciseDouble(Double, decimal: Decimal128)
    /// A number with a trailing `f` (RQL).
    case float(Float)
    /// The decoded text of a quoted string.
    case string(String)
    /// `B64"…"`: the decoded bytes, a string or binary constant depending on what it is compared with.
    case base64([UInt8])
    /// `bin('…')` / `binary(B64"…")`: a binary constant.
    case binary([UInt8])
    /// `T<seconds>:<nanoseconds>` or a readable UTC date; both parts have the same sign.
    case timestamp(seconds: Int64, nanoseconds: Int32)
    /// `oid(…)`: 24 hex digits, lower case.
    case objectId(String)
    /// `uuid(…)`: the canonical 36-character form, lower case.
    case uuid(String)
    case bool(Bool)
    case null
    /// `obj('Class', primaryKey)`: the primary key is a literal or an argument.
    indirect case object(className: String, primaryKey: Expression)

    /// Doubles compare by bit pattern so that a tree holding `nan` equals itself.
    public static func == (lhs: Literal, rhs: Literal) -> Bool {
        switch (lhs, rhs) {
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.preciseDouble(let a, let x), .preciseDouble(let b, let y)): a.bitPattern == b.bitPattern && x == y
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
        case (.integer(let a), .integer(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.base64(let a), .base64(let b)): a == b
        case (.binary(let a), .binary(let b)): a == b
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)): s1 == s2 && n1 == n2
        case (.objectId(let a), .objectId(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.object(let c1, let k1), .object(let c2, let k2)): c1 == c2 && k1 == k2
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .double(let value): hasher.combine(value.bitPattern)
        case .preciseDouble(let value, let decimal):
            hasher.combine(value.bitPattern)
            hasher.combine(decimal)
        case .float(let value): hasher.combine(value.bitPattern)
        case .integer(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .base64(let bytes), .binary(let bytes): hasher.combine(bytes)
        case .timestamp(let seconds, let nanoseconds):
            hasher.combine(seconds)
            hasher.combine(nanoseconds)
        case .objectId(let hex), .uuid(let hex): hasher.combine(hex)
        case .bool(let value): hasher.combine(value)
        case .null: hasher.combine(0)
        case .object(let className, let key):
            hasher.combine(className)
            hasher.combine(key)
        }
    }
}
