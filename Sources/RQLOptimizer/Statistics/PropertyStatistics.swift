import RQLCore

/// What the cost model knows about one single-valued column: row count, null count, value
/// range and distinct values, estimated from a sample of at most `PropertyStatistics.sampleLimit`
/// rows (256 for strings and other non-numeric columns; exact for tables no larger than that),
/// spread evenly over a few blocks spread evenly over the table (`StatisticsSampler`).
///
/// Sampling keeps statistics cheap at any table size (a few blocks' column read, once per store
/// version and column, against scans that read every block); estimates only choose between
/// equivalent plans, so an unlucky sample costs speed, never correctness.
///
/// ```swift
/// let age = PropertyStatistics(rowCount: 1_000_000, sample: sampledAges)
/// age.distinctCount                                     // ≈ 100
/// age.fraction(where: .greater, .int(90))               // ≈ 0.09
/// ```
///
/// A class, immutable once built, so that handing it from the cache to every estimate is one
/// reference count rather than a copy of the sample.
public final class PropertyStatistics: Hashable, Sendable {
    /// The most rows read to build the statistics of one column of numbers, booleans or dates.
    public static let sampleLimit = 1024
    /// The most rows read for any other column (strings and the like cost more to read, sort
    /// and count, and their estimates need less precision).
    public static let otherSampleLimit = 256

    /// The number of rows to sample from a column of `type`.
    public static func sampleLimit(for type: PropertyType) -> Int {
        switch type {
        case .int, .float, .double, .decimal128, .bool, .date: sampleLimit
        case .string, .data, .objectId, .uuid, .mixed, .object, .linkingObjects: otherSampleLimit
        }
    }

    /// Rows in the table.
    public let rowCount: Int
    /// Rows read.
    public let sampleSize: Int
    /// Null rows, estimated (exact when `isExact`).
    public let nullCount: Int
    /// Distinct non-null values, estimated with Haas and Stokes' Duj1 estimator (as PostgreSQL
    /// does): `n·d / (n − f1 + f1·n/N)` for `d` distinct values among `n` sampled of `N`, `f1` of
    /// them seen once. A sample of all-different values estimates a unique column; one where
    /// every value repeats estimates just the values seen.
    public let distinctCount: Int
    /// The smallest and largest non-null, non-NaN value read (`ValueOrdering`).
    public let minimum: Value?
    public let maximum: Value?
    /// The sample's non-null, non-NaN values in ascending `ValueOrdering`.
    public let sortedSample: [Value]
    /// Nulls among the rows read.
    public let sampleNullCount: Int
    /// The sorted sample as numbers (`orderKey`), when every value has one: binary search on
    /// doubles instead of `Value`s keeps estimates cheap enough to run on every compile.
    let orderKeys: [Double]?
    /// How often each sampled value occurs, for columns without `orderKeys` (strings and the
    /// like): one hash lookup per equality estimate instead of a search comparing strings.
    let valueCounts: [Value: Int]
    /// The family every sampled value belongs to, when `orderKeys` exists.
    let keyFamily: KeyFamily?

    /// Kinds of values whose order keys compare with each other.
    enum KeyFamily: Hashable, Sendable {
        case number, bool, date
    }

    /// Statistics of a table of `rowCount` rows from `sample`, the values of rows spread evenly
    /// over it (all rows when the table is small).
    public init(rowCount: Int, sample: [Value]) {
        var nulls = 0
        var present: [Value] = []
        present.reserveCapacity(sample.count)
        for value in sample {
            if value.isNull {
                nulls += 1
            } else if !NumericComparison.isNaN(value) {
                present.append(value)
            }
        }
        // Values of one family (numbers, booleans, dates) sort by their double keys, which order
        // them as ValueOrdering does: sorting doubles keeps sampling a fraction of a scan.
        // Anything else sorts as values.
        let family = present.first.flatMap { Self.orderKey($0)?.family }
        var keyed: [(key: Double, value: Value)]? = []
        keyed?.reserveCapacity(present.count)
        for value in present {
            guard let (valueFamily, key) = Self.orderKey(value), valueFamily == family else {
                keyed = nil
                break
            }
            keyed?.append((key, value))
        }
        let ordered: [Value]
        if var pairs = keyed {
            pairs.sort { $0.key < $1.key }
            ordered = pairs.map(\.value)
            self.orderKeys = pairs.map(\.key)
            self.keyFamily = family
            self.valueCounts = [:]
        } else if present.allSatisfy({ if case .string = $0 { true } else { false } }) {
            // Strings: their first eight bytes decide most comparisons without a full compare.
            var prefixed = present.map { (prefix: Self.prefix(of: $0), value: $0) }
            prefixed.sort { a, b in
                a.prefix != b.prefix ? a.prefix < b.prefix : ValueOrdering.compare(a.value, b.value) < 0
            }
            ordered = prefixed.map(\.value)
            self.orderKeys = nil
            self.keyFamily = nil
            var counts: [Value: Int] = [:]
            for value in ordered { counts[value, default: 0] += 1 }
            self.valueCounts = counts
        } else {
            ordered = present.sorted { ValueOrdering.compare($0, $1) < 0 }
            self.orderKeys = nil
            self.keyFamily = nil
            var counts: [Value: Int] = [:]
            for value in ordered { counts[value, default: 0] += 1 }
            self.valueCounts = counts
        }
        self.rowCount = rowCount
        self.sampleSize = sample.count
        self.sampleNullCount = nulls
        self.sortedSample = ordered
        self.minimum = ordered.first
        self.maximum = ordered.last
        let scale = sample.isEmpty ? 0 : Double(rowCount) / Double(sample.count)
        let nullCount = sample.count == rowCount ? nulls : Int((Double(nulls) * scale).rounded())
        self.nullCount = nullCount
        // Runs of equal values in the sorted sample: `seen` distinct values, `once` seen once.
        var seen = 0
        var once = 0
        var start = 0
        let keys = orderKeys
        func same(_ a: Int, _ b: Int) -> Bool {
            if let keys { return keys[a] == keys[b] }
            return ValueOrdering.compare(ordered[a], ordered[b]) == 0
        }
        while start < ordered.count {
            var end = start + 1
            while end < ordered.count && same(start, end) { end += 1 }
            seen += 1
            if end - start == 1 { once += 1 }
            start = end
        }
        let populated = rowCount - nullCount
        if sample.count == rowCount || ordered.isEmpty || populated <= ordered.count {
            self.distinctCount = seen
        } else {
            let n = Double(ordered.count)
            let estimate = n * Double(seen) / (n - Double(once) + Double(once) * n / Double(populated))
            self.distinctCount = Swift.max(seen, Swift.min(Int(estimate.rounded()), populated))
        }
    }

    /// The first eight UTF-8 bytes of a string, big-endian and zero-padded: ordered as the
    /// strings' bytes are, ties left to a full comparison.
    private static func prefix(of value: Value) -> UInt64 {
        guard case .string(let text) = value else { return 0 }
        var result: UInt64 = 0
        var count = 0
        for byte in text.utf8 {
            result = result << 8 | UInt64(byte)
            count += 1
            if count == 8 { break }
        }
        return count == 8 ? result : result << (8 * UInt64(8 - count))
    }

    /// Whether every row was read, so that the counts are exact.
    public var isExact: Bool { sampleSize == rowCount }

    /// The fraction of rows that are null.
    public var nullFraction: Double { sampleSize == 0 ? 0 : Double(sampleNullCount) / Double(sampleSize) }

    /// The fraction of rows read whose value is equal (`ValueOrdering`) to `value`, from the
    /// sorted sample; `nil` when the value was not seen.
    public func observedFraction(equalTo value: Value) -> Double? {
        guard sampleSize > 0 else { return nil }
        if orderKeys == nil {
            return valueCounts[value].map { Double($0) / Double(sampleSize) }
        }
        let range = equalRange(of: value)
        return range.isEmpty ? nil : Double(range.count) / Double(sampleSize)
    }

    /// The fraction of rows whose value is below (`less`), at most, above or at least `value`,
    /// as `ValueOrdering` places them in the sorted sample. For a column of one type that is
    /// what the comparison selects, null and NaN rows excluded.
    public func fraction(where op: ComparisonOperator, _ value: Value) -> Double {
        guard sampleSize > 0 else { return 0 }
        let range = equalRange(of: value)
        let count: Int
        switch op {
        case .less: count = range.lowerBound
        case .lessOrEqual: count = range.upperBound
        case .greater: count = sortedSample.count - range.upperBound
        case .greaterOrEqual: count = sortedSample.count - range.lowerBound
        default: count = range.count
        }
        return Double(count) / Double(sampleSize)
    }

    public static func == (lhs: PropertyStatistics, rhs: PropertyStatistics) -> Bool {
        lhs === rhs
            || (lhs.rowCount == rhs.rowCount && lhs.sampleSize == rhs.sampleSize && lhs.nullCount == rhs.nullCount
                && lhs.distinctCount == rhs.distinctCount && lhs.sampleNullCount == rhs.sampleNullCount
                && lhs.sortedSample == rhs.sortedSample)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rowCount)
        hasher.combine(sampleSize)
        hasher.combine(distinctCount)
        hasher.combine(sortedSample.count)
    }

    /// The indexes of the sorted sample equal to `value`: two binary searches.
    func equalRange(of value: Value) -> Range<Int> {
        if let keys = orderKeys, let (family, key) = Self.orderKey(value), family == keyFamily {
            let low = Self.firstIndex(keys.count) { keys[$0] >= key }
            let high = Self.firstIndex(keys.count) { keys[$0] > key }
            return low..<Swift.max(low, high)
        }
        let low = Self.firstIndex(sortedSample.count) { ValueOrdering.compare(sortedSample[$0], value) >= 0 }
        let high = Self.firstIndex(sortedSample.count) { ValueOrdering.compare(sortedSample[$0], value) > 0 }
        return low..<Swift.max(low, high)
    }

    private static func firstIndex(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) >> 1
            if isPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// A number that orders like the value among values of its kind: numbers by value (so an
    /// `int` column and a `double` constant meet), booleans as 0 and 1, dates as seconds. Only
    /// estimates use it, so rounding past 2^53 does not matter.
    static func orderKey(_ value: Value) -> (family: KeyFamily, key: Double)? {
        switch value {
        case .int(let v): (.number, Double(v))
        case .float(let v): v.isNaN ? nil : (.number, Double(v))
        case .double(let v): v.isNaN ? nil : (.number, v)
        case .decimal(let v): v.isNaN ? nil : (.number, v.doubleValue)
        case .bool(let v): (.bool, v ? 1 : 0)
        case .date(let v): (.date, Double(v.seconds) + Double(v.nanoseconds) * 1e-9)
        default: nil
        }
    }
}
