import RQLCore

/// Counting twins of the typed filters, for a count whose last filter feeds `emit` directly
/// (`vm.count` of `age > 90`): the number of rows that satisfy the comparison, with no
/// selection written. Writing a row offset per row and advancing a cursor is a dependency
/// chain the loop cannot vectorise; adding predicate bits is (`swift-kernels.md`: 0.2–0.5 ns a
/// row against ~1.4). They answer only the shapes where that holds, and return nil otherwise
/// so the caller runs the filter.
extension Kernels {
    /// How many of `rows[0 ..< count]` (dense: the identity) satisfy `op k`, for a column
    /// without nulls.
    @inline(__always)
    static func countOrdered<T: Comparable>(
        _ values: UnsafePointer<T>,
        _ op: ComparisonOperator,
        _ k: T,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int? {
        var c = 0
        if dense {
            switch op {
            case .equal: for i in 0..<count { c &+= bit(values[i] == k) }
            case .notEqual: for i in 0..<count { c &+= bit(values[i] != k) }
            case .less: for i in 0..<count { c &+= bit(values[i] < k) }
            case .lessOrEqual: for i in 0..<count { c &+= bit(values[i] <= k) }
            case .greater: for i in 0..<count { c &+= bit(values[i] > k) }
            case .greaterOrEqual: for i in 0..<count { c &+= bit(values[i] >= k) }
            case .beginsWith, .endsWith, .contains, .like: return nil
            }
        } else {
            switch op {
            case .equal: for j in 0..<count { c &+= bit(values[Int(rows[j])] == k) }
            case .notEqual: for j in 0..<count { c &+= bit(values[Int(rows[j])] != k) }
            case .less: for j in 0..<count { c &+= bit(values[Int(rows[j])] < k) }
            case .lessOrEqual: for j in 0..<count { c &+= bit(values[Int(rows[j])] <= k) }
            case .greater: for j in 0..<count { c &+= bit(values[Int(rows[j])] > k) }
            case .greaterOrEqual: for j in 0..<count { c &+= bit(values[Int(rows[j])] >= k) }
            case .beginsWith, .endsWith, .contains, .like: return nil
            }
        }
        return c
    }

    /// `countOrdered` over an int column; nil when the column has nulls.
    @inline(never)
    static func countInt(
        _ view: FixedWidthColumnView<Int64>,
        _ op: ComparisonOperator,
        _ k: Int64,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int? {
        guard !view.nulls.hasNulls else { return nil }
        guard let base = view.values.baseAddress else { return count == 0 ? 0 : nil }
        if dense {
            // The orderings by the sign of a subtraction: the build targets SSE2, which has no
            // 64-bit compare, so `x > k` vectorised as an emulated compare (~26 instructions per
            // four rows); a subtraction, a mask and a shift are plain SSE2 (~12).
            switch op {
            case .greater: return countLess(k, base, count, flipped: false)
            case .lessOrEqual: return count &- countLess(k, base, count, flipped: false)
            case .less: return countLess(k, base, count, flipped: true)
            case .greaterOrEqual: return count &- countLess(k, base, count, flipped: true)
            case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like: break
            }
        }
        return countOrdered(base, op, k, rows, count, dense: dense)
    }

    /// How many of `values[0 ..< count]` are greater than `k` (`k < x`), or with `flipped`
    /// less than `k` (`x < k`), for any `Int64`s, as the sign bit of a subtraction that cannot
    /// overflow: it is taken only where `x` has `k`'s sign, and `x`'s own sign decides the rest.
    /// `k < x` is `x >= 0 && k - x < 0` for `k >= 0` and `x >= 0 || k - x < 0` for `k < 0`;
    /// `x < k` is `x < 0 || x - k < 0` for `k >= 0` and `x < 0 && x - k < 0` for `k < 0`.
    @inline(__always)
    static func countLess(_ k: Int64, _ values: UnsafePointer<Int64>, _ count: Int, flipped: Bool) -> Int {
        var c: UInt64 = 0
        switch (flipped, k >= 0) {
        case (false, true):
            for i in 0..<count {
                let x = values[i]
                c &+= UInt64(bitPattern: ~x & (k &- x)) &>> 63
            }
        case (false, false):
            for i in 0..<count {
                let x = values[i]
                c &+= UInt64(bitPattern: ~x | (k &- x)) &>> 63
            }
        case (true, true):
            for i in 0..<count {
                let x = values[i]
                c &+= UInt64(bitPattern: x | (x &- k)) &>> 63
            }
        case (true, false):
            for i in 0..<count {
                let x = values[i]
                c &+= UInt64(bitPattern: x & (x &- k)) &>> 63
            }
        }
        return Int(truncatingIfNeeded: c)
    }

    /// `countOrdered` over a double column (NaN satisfies only `!=`, as Swift's operators
    /// say); nil when the column has nulls.
    @inline(never)
    static func countDouble(
        _ view: FixedWidthColumnView<Double>,
        _ op: ComparisonOperator,
        _ k: Double,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int? {
        guard !view.nulls.hasNulls else { return nil }
        guard let base = view.values.baseAddress else { return count == 0 ? 0 : nil }
        return countOrdered(base, op, k, rows, count, dense: dense)
    }

    /// `countOrdered` over a float column; nil when the column has nulls.
    @inline(never)
    static func countFloat(
        _ view: FixedWidthColumnView<Float>,
        _ op: ComparisonOperator,
        _ k: Float,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int? {
        guard !view.nulls.hasNulls else { return nil }
        guard let base = view.values.baseAddress else { return count == 0 ? 0 : nil }
        return countOrdered(base, op, k, rows, count, dense: dense)
    }

    /// How many of the dense rows `0 ..< count` are null (`wantNull`) or not: a population
    /// count of the mask's words.
    @inline(never)
    static func countNull(_ nulls: NullMask, wantNull: Bool, _ count: Int) -> Int {
        let words = nulls.words
        var nullCount = 0
        var base = 0
        var w = 0
        while base < count && w < words.count {
            var word = words[w]
            let left = count &- base
            if left < 64 { word &= (UInt64(1) &<< UInt64(left)) &- 1 }
            nullCount &+= word.nonzeroBitCount
            base &+= 64
            w &+= 1
        }
        return wantNull ? nullCount : count &- nullCount
    }
}
