import Foundation

/// Realm's comparison rules on `Value`s: the one implementation the reference evaluator, the
/// VM's generic paths and the binder's constant folding all call.
///
/// * Numbers (`int`, `float`, `double`, `decimal`) compare by value across types; NaN equals
///   nothing and is unordered.
/// * `bool` is not a number: `true != 1` (realm-core's `Mixed` rule).
/// * A string never equals a number or a binary; values of incomparable types are simply
///   unequal and never ordered.
/// * Null equals only null; `<` and `>` are false with a null; `<=` and `>=` are true when both
///   sides are null.
/// * Strings compare byte-wise on UTF-8; `[c]`/`[d]` fold case/diacritics (see `StringFolding`).
///
/// ```swift
/// ValueComparison.evaluate(.int(1), .equal, .decimal(try Decimal128("1.00")))     // true
/// ValueComparison.evaluate(.string("1"), .equal, .int(1))                          // false
/// ValueComparison.evaluate(.null, .greaterOrEqual, .null)                          // true
/// ValueComparison.evaluate(.string("Straße"), .beginsWith, .string("STR"), options: .caseInsensitive) // true
/// ```
public enum ValueComparison {
    /// Applies `op` to `lhs` and `rhs`. `options` affect `==`, `!=` and the string operators.
    /// `op` is one a bound comparison holds (not `isLowered`).
    public static func evaluate(
        _ lhs: Value,
        _ op: ComparisonOperator,
        _ rhs: Value,
        options: StringOptions = []
    ) -> Bool {
        switch op {
        case .equal: return equals(lhs, rhs, options: options)
        case .notEqual: return !equals(lhs, rhs, options: options)
        case .less: return orderedCompare(lhs, rhs).map { $0 < 0 } ?? false
        case .greater: return orderedCompare(lhs, rhs).map { $0 > 0 } ?? false
        case .lessOrEqual:
            if lhs.isNull && rhs.isNull { return true }
            return orderedCompare(lhs, rhs).map { $0 <= 0 } ?? false
        case .greaterOrEqual:
            if lhs.isNull && rhs.isNull { return true }
            return orderedCompare(lhs, rhs).map { $0 >= 0 } ?? false
        case .beginsWith, .endsWith, .contains, .like:
            return stringOperator(lhs, op, rhs, options: options)
        case .in, .text, .matches:
            // The binder lowers these and both verifiers reject a bound comparison or an
            // instruction that holds one, so reaching here is a compiler bug, not bad input.
            fatalError("\(op.rawValue) is lowered by the binder and has no rule over two values")
        }
    }

    /// Realm equality: both null, or comparable types with equal values.
    public static func equals(_ lhs: Value, _ rhs: Value, options: StringOptions = []) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)):
            if options.isEmpty { return a.utf8.elementsEqual(b.utf8) }
            return StringMatcher(.equal, needle: b, options: options).matches(a)
        case (.data(let a), .data(let b)):
            if options.isEmpty { return a == b }
            return StringMatcher(.equal, binaryNeedle: b, options: options).matches(bytes: a)
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.objectId(let a), .objectId(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.link(let a), .link(let b)): return a == b
        case (.list(let a), .list(let b)):
            guard a.count == b.count else { return false }
            for i in a.indices where !equals(a[i], b[i], options: options) { return false }
            return true
        case (.map(let a), .map(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a.entries, b.entries) {
                guard x.key.utf8.elementsEqual(y.key.utf8), equals(x.value, y.value, options: options) else {
                    return false
                }
            }
            return true
        default:
            return NumericComparison.compare(lhs, rhs) == 0
        }
    }

    /// Three-way comparison for `<`, `<=`, `>`, `>=`: `nil` when either side is null, the types
    /// are not comparable (including links and collections, which have no `<`), or a NaN is involved.
    public static func orderedCompare(_ lhs: Value, _ rhs: Value) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return compareUTF8(a, b)
        case (.data(let a), .data(let b)):
            return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in compareBytes(x, y) } }
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.date(let a), .date(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.objectId(let a), .objectId(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.uuid(let a), .uuid(let b)): return compareUUID(a, b)
        default: return NumericComparison.compare(lhs, rhs)
        }
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` with Realm's null rules: a null needle
    /// matches every haystack for the first three (null included) and only a null haystack for
    /// `LIKE`; a null haystack matches no non-null needle; strings never match binaries.
    public static func stringOperator(
        _ haystack: Value,
        _ op: ComparisonOperator,
        _ needle: Value,
        options: StringOptions = []
    ) -> Bool {
        guard let operation = StringMatcher.Operation(op) else {
            return evaluate(haystack, op, needle, options: options)
        }
        switch (haystack, needle) {
        case (_, .null): return op == .like ? haystack.isNull : true
        case (.null, _): return false
        case (.string(let h), .string(let n)):
            return StringMatcher(operation, needle: n, options: options).matches(h)
        case (.data(let h), .data(let n)):
            return StringMatcher(operation, binaryNeedle: n, options: options).matches(bytes: h)
        default: return false
        }
    }

    /// UUIDs order by their 16 bytes.
    public static func compareUUID(_ a: UUID, _ b: UUID) -> Int {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                compareBytes(x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self))
            }
        }
    }
}
