/// `@min`, `@max`, `@sum` and `@avg` over the values of a collection (or of a key path through
/// one), with realm-core's rules:
///
/// * nulls are ignored; an empty collection (or one of nulls only) has `@min`, `@max` and
///   `@avg` null and `@sum` 0;
/// * `@min`/`@max` use the cross-type sort order (`ValueOrdering`), so over mixed values the
///   minimum of `[false, 1, "a"]` is `false`; NaN is skipped;
/// * `@sum`/`@avg` use numbers only (non-numbers and NaN decimals are ignored); a sum of ints
///   stays an int, a sum involving a decimal is a decimal, otherwise a double; `@avg` of ints and
///   binary floats is a double.
///
/// ```swift
/// ValueAggregation.sum([.int(1), .int(2), .null])          // .int(3)
/// ValueAggregation.average([.int(1), .int(2)])             // .double(1.5)
/// ValueAggregation.minimum([.string("a"), .int(5)])        // .int(5)
/// ValueAggregation.maximum([])                             // .null
/// ```
public enum ValueAggregation {
    /// The least non-null value in sort order, or null.
    public static func minimum(_ values: some Sequence<Value>) -> Value {
        extreme(values, wantLess: true)
    }

    /// The greatest non-null value in sort order, or null.
    public static func maximum(_ values: some Sequence<Value>) -> Value {
        extreme(values, wantLess: false)
    }

    /// The sum of the numbers, or `.int(0)` when there are none.
    public static func sum(_ values: some Sequence<Value>) -> Value {
        var accumulator = Accumulator()
        for value in values { accumulator.add(value) }
        return accumulator.sum
    }

    /// The mean of the numbers, or null when there are none.
    public static func average(_ values: some Sequence<Value>) -> Value {
        var accumulator = Accumulator()
        for value in values { accumulator.add(value) }
        guard accumulator.count > 0 else { return .null }
        if accumulator.hasDecimal {
            return .decimal(accumulator.decimalTotal / Decimal128(Int64(accumulator.count)))
        }
        return .double((Double(accumulator.intSum) + accumulator.binarySum) / Double(accumulator.count))
    }

    private static func extreme(_ values: some Sequence<Value>, wantLess: Bool) -> Value {
        var best: Value?
        for value in values where !value.isNull && !NumericComparison.isNaN(value) {
            guard let current = best else {
                best = value
                continue
            }
            let order = ValueOrdering.compare(value, current)
            if wantLess ? order < 0 : order > 0 { best = value }
        }
        return best ?? .null
    }

    /// Running sums kept per representation, combined only at the end so that summing ints
    /// or doubles never touches decimal arithmetic.
    private struct Accumulator {
        var count = 0
        var intSum: Int64 = 0
        var binarySum = 0.0
        /// Every number added as a decimal, each converted on its own (a float by its 7-digit
        /// value, as realm-core does), used when a decimal is among the values.
        var decimalSum = Decimal128.zero
        var onlyInts = true
        var hasDecimal = false

        mutating func add(_ value: Value) {
            switch value {
            case .int(let i):
                intSum = intSum &+ i
                decimalSum = decimalSum + Decimal128(i)
            case .float(let f):
                onlyInts = false
                binarySum += Double(f)
                decimalSum = decimalSum + Decimal128(f)
            case .double(let d):
                onlyInts = false
                binarySum += d
                decimalSum = decimalSum + Decimal128(d)
            case .decimal(let d):
                guard !d.isNaN else { return }
                onlyInts = false
                hasDecimal = true
                decimalSum = decimalSum + d
            default:
                return
            }
            count += 1
        }

        var sum: Value {
            if count == 0 || onlyInts { return .int(intSum) }
            if hasDecimal { return .decimal(decimalTotal) }
            return .double(Double(intSum) + binarySum)
        }

        var decimalTotal: Decimal128 { decimalSum }
    }
}

extension ValueAggregation {
    /// `@size` / `@count` of one value: the byte length of a string or binary, the number of
    /// elements of a list or entries of a map; `nil` for other values (an error in a query).
    ///
    /// ```swift
    /// ValueAggregation.size(of: .string("é"))  // 2: bytes, as realm-core
    /// ```
    public static func size(of value: Value) -> Int? {
        switch value {
        case .string(let s): s.utf8.count
        case .data(let d): d.count
        case .list(let items): items.count
        case .map(let map): map.count
        default: nil
        }
    }
}
