/// `@min`, `@max`, `@sum` and `@avg` over the values of a collection (or of a key path through
/// one), with realm-core's rules:
///
/// * nulls are ignored; an empty collection (or one of nulls only) has `@min`, `@max` and
///   `@avg` null and `@sum` 0;
/// * `@min`/`@max` use the cross-type sort order (`ValueOrdering`), so over mixed values the
///   minimum of `[false, 1, "a"]` is `false`; NaN is skipped;
/// * `@sum`/`@avg` use numbers only (non-numbers and NaN decimals are ignored). Over a property
///   of one numeric type: a sum of ints is an int, of floats or doubles a double, of decimals a
///   decimal; `@avg` of ints and binary floats is a double, of decimals a decimal;
/// * over mixed values (`overMixed`), every number of every type is added in `Decimal128` and
///   the sum and average are decimals, as realm-core's `Sum<Mixed>` does
///   (`Mixed::accumulate_numeric_to`): `[1, 2.5, 1.1f]` sums to exactly 4.6;
/// * a sum of ints that leaves the `Int64` range carries on exactly in `Decimal128` (any sum of
///   64-bit integers is exact there) instead of wrapping around as realm-core does: the sum of
///   `[INT64_MAX, 1]` is the decimal 9223372036854775808, and the average of `[INT64_MIN, -1]`
///   is -4611686018427387904.5 (as a double).
///
/// ```swift
/// ValueAggregation.sum([.int(1), .int(2), .null])                     // .int(3)
/// ValueAggregation.average([.int(1), .int(2)])                        // .double(1.5)
/// ValueAggregation.sum([.int(1), .double(2.5), .string("x")], overMixed: true)  // .decimal(3.5)
/// ValueAggregation.minimum([.string("a"), .int(5)])                   // .int(5)
/// ValueAggregation.maximum([])                                        // .null
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

    /// The sum of the numbers, or `.int(0)` when there are none (`.decimal(0)` over mixed values).
    public static func sum(_ values: some Sequence<Value>, overMixed: Bool = false) -> Value {
        var accumulator = Accumulator(overMixed: overMixed)
        for value in values { accumulator.add(value) }
        return accumulator.sum
    }

    /// The mean of the numbers, or null when there are none.
    public static func average(_ values: some Sequence<Value>, overMixed: Bool = false) -> Value {
        var accumulator = Accumulator(overMixed: overMixed)
        for value in values { accumulator.add(value) }
        return accumulator.average
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

    /// Running sums kept per representation, combined only at the end, so that summing ints or
    /// doubles of a typed property never touches decimal arithmetic unless an int sum overflows.
    private struct Accumulator {
        let overMixed: Bool
        var count = 0
        /// The sum of the ints while it fits in 64 bits.
        var intSum: Int64 = 0
        /// Set once the int sum has left the `Int64` range; from then on ints go to `exactInts`.
        var intOverflowed = false
        /// The exact sum of the ints after an overflow.
        var exactInts = Decimal128.zero
        var binarySum = 0.0
        /// The decimals, and over mixed values every other number too, each converted on its
        /// own (a float by its 7-digit value, as realm-core does).
        var decimalSum = Decimal128.zero
        var hasBinary = false
        var hasDecimal = false

        init(overMixed: Bool) { self.overMixed = overMixed }

        mutating func add(_ value: Value) {
            switch value {
            case .int(let i):
                if overMixed {
                    decimalSum = decimalSum + Decimal128(i)
                } else {
                    addInt(i)
                }
            case .float(let f):
                if overMixed {
                    decimalSum = decimalSum + Decimal128(f)
                } else {
                    hasBinary = true
                    binarySum += Double(f)
                }
            case .double(let d):
                if overMixed {
                    decimalSum = decimalSum + Decimal128(d)
                } else {
                    hasBinary = true
                    binarySum += d
                }
            case .decimal(let d):
                guard !d.isNaN else { return }
                hasDecimal = true
                decimalSum = decimalSum + d
            default:
                return
            }
            count += 1
        }

        private mutating func addInt(_ i: Int64) {
            if intOverflowed {
                exactInts = exactInts + Decimal128(i)
                return
            }
            let (sum, overflow) = intSum.addingReportingOverflow(i)
            if overflow {
                intOverflowed = true
                exactInts = Decimal128(intSum) + Decimal128(i)
            } else {
                intSum = sum
            }
        }

        /// The ints' exact sum as a decimal.
        var intsAsDecimal: Decimal128 { intOverflowed ? exactInts : Decimal128(intSum) }

        var sum: Value {
            if overMixed { return .decimal(decimalSum) }
            if hasDecimal { return .decimal(decimalSum + intsAsDecimal + (hasBinary ? Decimal128(binarySum) : .zero)) }
            if hasBinary { return .double(ints + binarySum) }
            return intOverflowed ? .decimal(exactInts) : .int(intSum)
        }

        var average: Value {
            guard count > 0 else { return .null }
            if overMixed || hasDecimal {
                guard case .decimal(let total) = sum else { return .null }
                return .decimal(total / Decimal128(Int64(count)))
            }
            if intOverflowed && !hasBinary {
                return .double((exactInts / Decimal128(Int64(count))).doubleValue)
            }
            return .double((ints + binarySum) / Double(count))
        }

        /// The ints' sum as a double.
        private var ints: Double { intOverflowed ? exactInts.doubleValue : Double(intSum) }
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

    /// `@size` of a value a path reaches: `size(of:)`, and 0 for null (realm-core:
    /// `values.length == 0` matches `[null]`, and a null string has size 0).
    ///
    /// ```swift
    /// ValueAggregation.reachedSize(of: .null)     // 0
    /// ValueAggregation.reachedSize(of: .int(3))   // nil: no size
    /// ```
    public static func reachedSize(of value: Value) -> Int? {
        value.isNull ? 0 : size(of: value)
    }
}
