/// The total order of values used by SORT, DISTINCT, set order and `@min`/`@max` over mixed
/// values (realm-core's `Mixed::compare` with `sorting_rank`).
///
/// Across types: `null < bool < numbers < string < binary < date < objectId < uuid < link <
/// list < map`. Numbers of every type compare by value with each other (`1 == 1.0 ==
/// decimal 1` ties, so a stable sort keeps their previous order); NaN sorts before every other
/// number. Strings and binaries are byte-wise; links by class name, then row key; lists and
/// maps lexicographically by their elements (keys first for maps).
///
/// ```swift
/// let sorted = [Value.string("a"), .null, .int(2), .bool(true), .double(1.5)]
///     .sorted { ValueOrdering.compare($0, $1) < 0 }
/// // [.null, .bool(true), .double(1.5), .int(2), .string("a")]
/// ```
public enum ValueOrdering {
    /// The position of a value's type in the cross-type order; numbers share one rank.
    public static func rank(_ kind: ValueKind) -> Int {
        switch kind {
        case .null: 0
        case .bool: 1
        case .int, .float, .double, .decimal: 2
        case .string: 3
        case .data: 4
        case .date: 5
        case .objectId: 6
        case .uuid: 7
        case .link: 8
        case .list: 9
        case .map: 10
        }
    }

    /// Negative, zero or positive as `lhs` sorts before, with, or after `rhs` (ascending).
    public static func compare(_ lhs: Value, _ rhs: Value) -> Int {
        let lhsRank = rank(lhs.kind)
        let rhsRank = rank(rhs.kind)
        if lhsRank != rhsRank { return lhsRank < rhsRank ? -1 : 1 }
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.link(let a), .link(let b)):
            let byClass = compareUTF8(a.className, b.className)
            if byClass != 0 { return byClass }
            return a.key == b.key ? 0 : (a.key < b.key ? -1 : 1)
        case (.list(let a), .list(let b)):
            for (x, y) in zip(a, b) {
                let order = compare(x, y)
                if order != 0 { return order }
            }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        case (.map(let a), .map(let b)):
            for (x, y) in zip(a.entries, b.entries) {
                let byKey = compareUTF8(x.key, y.key)
                if byKey != 0 { return byKey }
                let byValue = compare(x.value, y.value)
                if byValue != 0 { return byValue }
            }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        default:
            if lhsRank == 2 {
                // NaN first; two NaNs tie.
                let lhsNaN = NumericComparison.isNaN(lhs)
                let rhsNaN = NumericComparison.isNaN(rhs)
                if lhsNaN || rhsNaN { return lhsNaN == rhsNaN ? 0 : (lhsNaN ? -1 : 1) }
            }
            // Same rank and not NaN: the ordered comparison is defined.
            return ValueComparison.orderedCompare(lhs, rhs) ?? 0
        }
    }

    /// Whether two values are the same for DISTINCT: equal under the sort order (so `1` and `1.0`
    /// are one key, and nulls are equal to each other).
    public static func isSameForDistinct(_ lhs: Value, _ rhs: Value) -> Bool {
        compare(lhs, rhs) == 0
    }
}
