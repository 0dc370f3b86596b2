/// A summary of one column for the optimizer's cost model: how many rows, nulls and distinct
/// values, and the smallest and largest value in `ValueOrdering`. For collection columns the
/// counts are over elements (`valueCount` is the total number of elements).
///
/// ```swift
/// let stats = table.statistics(property: ageColumn)
/// let selectivity = 1.0 / Double(max(stats.distinctCount, 1))  // estimate for `age == k`
/// ```
public struct ColumnStatistics: Hashable, Sendable {
    /// Rows in the table.
    public let rowCount: Int
    /// Values summarised: `rowCount` for single values, the total number of elements for collections.
    public let valueCount: Int
    /// Null values among them.
    public let nullCount: Int
    /// Distinct values among them under Realm equality (nulls count as one value).
    public let distinctCount: Int
    /// The smallest non-null value, if any.
    public let minimum: Value?
    /// The largest non-null value, if any.
    public let maximum: Value?

    public init(rowCount: Int, valueCount: Int, nullCount: Int, distinctCount: Int, minimum: Value?, maximum: Value?) {
        self.rowCount = rowCount
        self.valueCount = valueCount
        self.nullCount = nullCount
        self.distinctCount = distinctCount
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Summarises `values`, one per row (collections as `.list`/`.map` when `flatten` is set).
    public init(rowValues values: some Sequence<Value>, flatten: Bool) {
        var rowCount = 0
        var valueCount = 0
        var nullCount = 0
        var distinct = Set<EqualityKey>()
        var minimum: Value?
        var maximum: Value?
        func add(_ value: Value) {
            valueCount += 1
            distinct.insert(EqualityKey(value))
            if value.isNull {
                nullCount += 1
                return
            }
            if minimum.map({ ValueOrdering.compare(value, $0) < 0 }) ?? true { minimum = value }
            if maximum.map({ ValueOrdering.compare(value, $0) > 0 }) ?? true { maximum = value }
        }
        for value in values {
            rowCount += 1
            switch (flatten, value) {
            case (true, .list(let items)): items.forEach(add)
            case (true, .map(let map)): map.values.forEach(add)
            default: add(value)
            }
        }
        self.init(
            rowCount: rowCount,
            valueCount: valueCount,
            nullCount: nullCount,
            distinctCount: distinct.count,
            minimum: minimum,
            maximum: maximum
        )
    }
}
