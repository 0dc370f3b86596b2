import Foundation
import RQLCore

/// A sorted index over one column: the column's values in ascending `ValueOrdering`, each with
/// the position of its row, so that a range (`age BETWEEN {30, 40}`, `score > 0.99`) is two
/// binary searches instead of a scan. The hash index stays for equality; this one answers
/// `TableReader.indexRange`.
///
/// Nulls and NaNs are left out: no ordered comparison matches them, so they are never inside a
/// range. Numbers compare by value across types (an `int` column answers `> 2.5`, a `double`
/// column `>= 3`), with exactly the comparison `ValueComparison` applies, so the rows in a range
/// are the rows for which the corresponding comparisons hold.
///
/// The index knows nothing of the store that owns it: build it from a column view, or from
/// values and their positions (a block store gathering its blocks), and keep it with the table
/// version it was built from.
///
/// ```swift
/// let index = table.withColumn(age) { SortedIndex(column: $0, rowCount: table.rowCount) }!
/// index.positions(lower: .int(30), lowerInclusive: true, upper: .int(40), upperInclusive: true)
/// // [2, 17, 40, …]: ascending positions whose age is in 30 ... 40
/// ```
public struct SortedIndex: Sendable {
    /// The indexed values in ascending order (ties in ascending position order).
    let keys: Keys
    /// `positions[i]` is the row holding `keys[i]`.
    let positions: [Int32]
    /// The number of rows of the table the index was built from (nulls and NaNs included):
    /// every position is below it.
    public let rowCount: Int

    /// The sorted values, typed so that building and searching compare machine values.
    enum Keys: Sendable {
        /// `int` values.
        case int([Int64])
        /// `float` and `double` values, as doubles (a float converts exactly).
        case double([Double])
        /// `decimal128` values.
        case decimal([Decimal128])
        /// `date` values.
        case date([Timestamp])
        /// `objectId` values.
        case objectId([ObjectId])
        /// `uuid` values.
        case uuid([UUID])
        /// `bool` values.
        case bool([Bool])
        /// `string` values, in UTF-8 byte order.
        case string([String])
        /// Values of several types (a mixed column), in `ValueOrdering`.
        case values([Value])
    }

    init(keys: Keys, positions: [Int32], rowCount: Int) {
        self.keys = keys
        self.positions = positions
        self.rowCount = rowCount
    }

    /// The number of indexed rows (rows whose value is neither null nor NaN).
    public var count: Int { positions.count }

    /// The ascending positions of the rows whose value lies between `lower` and `upper`
    /// (`nil`: unbounded on that side). A null or NaN bound makes the range empty, as no
    /// ordered comparison with null or NaN holds.
    ///
    /// Narrow ranges copy and sort their positions; wide ones (more than one row in 64) go
    /// through a bitmap of the table's rows, so the cost stays linear in the answer plus
    /// `rowCount / 64`.
    public func positions(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool) -> [Int] {
        guard
            let range = entries(
                lower: lower,
                lowerInclusive: lowerInclusive,
                upper: upper,
                upperInclusive: upperInclusive
            ),
            !range.isEmpty
        else { return [] }
        return positions.withUnsafeBufferPointer { all in
            let slice = UnsafeBufferPointer(rebasing: all[range])
            if slice.count &* 64 < rowCount {
                var result = slice.map { Int($0) }
                result.sort()
                return result
            }
            return Self.ascending(slice, rowCount: rowCount)
        }
    }

    /// The number of rows in the range, without listing them: two binary searches.
    public func count(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool) -> Int {
        entries(lower: lower, lowerInclusive: lowerInclusive, upper: upper, upperInclusive: upperInclusive)?.count ?? 0
    }

    /// The indexes into `keys` of the range, or `nil` when a bound is null or NaN.
    func entries(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool) -> Range<Int>? {
        for bound in [lower, upper] {
            if let bound, bound.isNull || NumericComparison.isNaN(bound) { return nil }
        }
        var low = 0
        if let lower {
            // The first entry inside: at or above an inclusive bound, above an exclusive one.
            low = firstEntry { compare(entry: $0, with: lower) >= (lowerInclusive ? 0 : 1) }
        }
        var high = count
        if let upper {
            // The first entry past the end: above an inclusive bound, at or above an exclusive one.
            high = firstEntry { compare(entry: $0, with: upper) >= (upperInclusive ? 1 : 0) }
        }
        return low..<Swift.max(low, high)
    }

    /// The first entry for which `isPast` holds, given that it holds for every later entry.
    private func firstEntry(where isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) >> 1
            if isPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Negative, zero or positive as entry `i` sorts before, with or after `bound`
    /// (`ValueOrdering`, which for two numbers is `ValueComparison`'s exact comparison).
    func compare(entry i: Int, with bound: Value) -> Int {
        switch (keys, bound) {
        case (.int(let keys), .int(let b)): return keys[i] == b ? 0 : (keys[i] < b ? -1 : 1)
        case (.int(let keys), _): return ValueOrdering.compare(.int(keys[i]), bound)
        case (.double(let keys), .double(let b)) where !b.isNaN: return keys[i] == b ? 0 : (keys[i] < b ? -1 : 1)
        case (.double(let keys), _): return ValueOrdering.compare(.double(keys[i]), bound)
        case (.decimal(let keys), _): return ValueOrdering.compare(.decimal(keys[i]), bound)
        case (.date(let keys), _): return ValueOrdering.compare(.date(keys[i]), bound)
        case (.objectId(let keys), _): return ValueOrdering.compare(.objectId(keys[i]), bound)
        case (.uuid(let keys), _): return ValueOrdering.compare(.uuid(keys[i]), bound)
        case (.bool(let keys), _): return ValueOrdering.compare(.bool(keys[i]), bound)
        case (.string(let keys), _): return ValueOrdering.compare(.string(keys[i]), bound)
        case (.values(let keys), _): return ValueOrdering.compare(keys[i], bound)
        }
    }

    /// The value of entry `i`.
    func key(at i: Int) -> Value {
        switch keys {
        case .int(let keys): .int(keys[i])
        case .double(let keys): .double(keys[i])
        case .decimal(let keys): .decimal(keys[i])
        case .date(let keys): .date(keys[i])
        case .objectId(let keys): .objectId(keys[i])
        case .uuid(let keys): .uuid(keys[i])
        case .bool(let keys): .bool(keys[i])
        case .string(let keys): .string(keys[i])
        case .values(let keys): keys[i]
        }
    }

    /// Positions in ascending order through a bitmap of `rowCount` bits.
    private static func ascending(_ positions: UnsafeBufferPointer<Int32>, rowCount: Int) -> [Int] {
        var words = [UInt64](repeating: 0, count: (rowCount + 63) >> 6)
        words.withUnsafeMutableBufferPointer { words in
            for position in positions {
                let p = Int(position)
                words[p &>> 6] |= 1 &<< UInt64(p & 63)
            }
        }
        var result: [Int] = []
        result.reserveCapacity(positions.count)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            let base = index &<< 6
            while bits != 0 {
                result.append(base &+ bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
        return result
    }
}
