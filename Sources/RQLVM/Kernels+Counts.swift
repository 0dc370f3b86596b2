import RQLCore

/// Counting twins of the typed filters, for a count whose last filter feeds `emit` directly
/// (`vm.count` of `age > 90`): the number of rows that satisfy the comparison, with no
/// selection written. Writing a row offset per row and advancing a cursor is a dependency
/// chain the loop cannot vectorise; adding predicate bits is (`swift-kernels.md`: 0.2–0.5 ns a
/// row against ~1.4). They answer only the shapes where that holds, and return nil otherwise
/// so the caller runs the filter.
extension Kernels {
    /// How many of `rows[0 ..< count]` (dense: the identity) satisfy `op k` in a column of `T`
    /// (for doubles, NaN satisfies only `!=`, as Swift's operators say); nil when the column has
    /// nulls or `T` takes the scalar path.
    @inline(never)
    @_specialize(where T == Int64)
    @_specialize(where T == Double)
    @_specialize(where T == Float)
    static func countMatches<T: KernelScalar>(
        _ view: FixedWidthColumnView<T>,
        _ op: ComparisonOperator,
        _ k: T,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int? {
        guard !view.nulls.hasNulls, T.hasBranchFreeCompare else { return nil }
        guard let base = view.values.baseAddress else { return count == 0 ? 0 : nil }
        if dense, let counted = T.countDense(base, op, k, count) { return counted }
        var counted = Counting()
        return scanOrdered(base, op, k, rows, count, dense: dense, into: &counted) ? counted.count : nil
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

extension Int64: KernelScalar {
    /// The orderings by the sign of a subtraction (`Kernels.countLess`): the build targets SSE2,
    /// which has no 64-bit compare, so `x > k` vectorised as an emulated compare (~26
    /// instructions per four rows); a subtraction, a mask and a shift are plain SSE2 (~12).
    @inline(__always)
    static func countDense(_ values: UnsafePointer<Int64>, _ op: ComparisonOperator, _ k: Int64, _ count: Int) -> Int? {
        switch op {
        case .greater: Kernels.countLess(k, values, count, flipped: false)
        case .lessOrEqual: count &- Kernels.countLess(k, values, count, flipped: false)
        case .less: Kernels.countLess(k, values, count, flipped: true)
        case .greaterOrEqual: count &- Kernels.countLess(k, values, count, flipped: true)
        case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: nil
        }
    }
}
