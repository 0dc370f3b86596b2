import Foundation
import RQLCore

/// The typed filter loops: one call narrows a selection by one comparison over a block's
/// contiguous column buffer. They follow `ValueComparison`'s rules for a non-null constant of
/// the column's own type: a null row satisfies only `!=`; NaN (IEEE) equals nothing and is
/// unordered, which Swift's floating-point operators already do.
///
/// The shape is the one `swift-kernels.md` measured to vectorise: no closures, no existentials,
/// the operator switched outside the loop, the row index stored unconditionally and the output
/// cursor advanced by the predicate bit. The loop is written once, generic over the column's
/// element (`KernelScalar`), the comparison (`OrderedTest`) and what it does with a row
/// (`RowSink`: select or count); the VM calls it with concrete types, so the optimizer emits
/// one specialized loop per type, operator and sink.
enum Kernels {
    @inline(__always)
    static func bit(_ b: Bool) -> Int { Int(unsafeBitCast(b, to: UInt8.self)) }

    /// Feeds `sink` each of `rows[0 ..< count]` (dense: the identity) with whether its value
    /// satisfies `op k`: the one operator switch of the filters and the counts. False, feeding
    /// nothing, when `op` is not one of the six orderings.
    @inline(__always)
    static func scanOrdered<T: Comparable, Sink: RowSink>(
        _ values: UnsafePointer<T>,
        _ op: ComparisonOperator,
        _ k: T,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool,
        into sink: inout Sink
    ) -> Bool {
        switch op {
        case .equal: scan(IsEqual.self, values, k, rows, count, dense: dense, into: &sink)
        case .notEqual: scan(IsNotEqual.self, values, k, rows, count, dense: dense, into: &sink)
        case .less: scan(IsLess.self, values, k, rows, count, dense: dense, into: &sink)
        case .lessOrEqual: scan(IsLessOrEqual.self, values, k, rows, count, dense: dense, into: &sink)
        case .greater: scan(IsGreater.self, values, k, rows, count, dense: dense, into: &sink)
        case .greaterOrEqual: scan(IsGreaterOrEqual.self, values, k, rows, count, dense: dense, into: &sink)
        case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: return false
        }
        return true
    }

    /// The loop of `scanOrdered` for one comparison.
    @inline(__always)
    static func scan<T: Comparable, Test: OrderedTest, Sink: RowSink>(
        _ test: Test.Type,
        _ values: UnsafePointer<T>,
        _ k: T,
        _ rows: UnsafePointer<Int32>,
        _ count: Int,
        dense: Bool,
        into sink: inout Sink
    ) {
        if dense {
            for i in 0..<count { sink.take(Int32(truncatingIfNeeded: i), Test.holds(values[i], k)) }
        } else {
            for j in 0..<count {
                let r = rows[j]
                sink.take(r, Test.holds(values[Int(r)], k))
            }
        }
    }

    /// Narrows `rows[0 ..< count]` (dense: the identity) to the rows whose value in a column of
    /// `T` satisfies `op k`; returns the new count. With nulls (or for a type whose compare is
    /// not one instruction) the scalar `nullAware` path.
    @inline(never)
    @_specialize(where T == Int64)
    @_specialize(where T == Double)
    @_specialize(where T == Float)
    @_specialize(where T == Timestamp)
    static func filter<T: KernelScalar>(
        _ view: FixedWidthColumnView<T>,
        _ op: ComparisonOperator,
        _ k: T,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        guard let base = view.values.baseAddress else { return 0 }
        if view.nulls.hasNulls || !T.hasBranchFreeCompare {
            return nullAware(view.nulls, op, rows, count, dense: dense) { compare(base[$0], op, k) }
        }
        var selected = Selecting(rows)
        _ = scanOrdered(base, op, k, rows, count, dense: dense, into: &selected)
        return selected.count
    }

    @inline(never)
    static func filterBool(
        _ view: FixedWidthColumnView<Bool>,
        _ op: ComparisonOperator,
        _ k: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        guard let base = view.values.baseAddress else { return 0 }
        if view.nulls.hasNulls || (op != .equal && op != .notEqual) {
            return nullAware(view.nulls, op, rows, count, dense: dense) { row in
                ValueComparison.evaluate(.bool(base[row]), op, .bool(k))
            }
        }
        // Equality with a constant bool: compare the bytes.
        let wanted: UInt8 = (op == .equal) == k ? 1 : 0
        var selected = Selecting(rows)
        base.withMemoryRebound(to: UInt8.self, capacity: view.values.count) { bytes in
            scan(IsEqual.self, bytes, wanted, rows, count, dense: dense, into: &selected)
        }
        return selected.count
    }
    /// The scalar path for columns with nulls (and types whose compare is not one instruction):
    /// a null row satisfies only `!=`.
    @inline(__always)
    static func nullAware(
        _ nulls: NullMask,
        _ op: ComparisonOperator,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool,
        _ decide: (Int) -> Bool
    ) -> Int {
        var m = 0
        let nullResult = op == .notEqual
        for j in 0..<count {
            let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
            rows[m] = r
            let keep = nulls.isNull(Int(r)) ? nullResult : decide(Int(r))
            m &+= bit(keep)
        }
        return m
    }

    @inline(__always)
    static func compare<T: Comparable>(_ x: T, _ op: ComparisonOperator, _ k: T) -> Bool {
        switch op {
        case .equal: x == k
        case .notEqual: x != k
        case .less: x < k
        case .lessOrEqual: x <= k
        case .greater: x > k
        case .greaterOrEqual: x >= k
        case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: false
        }
    }

    /// Rows whose column is null (`wantNull`) or not null.
    @inline(never)
    static func filterNull(
        _ nulls: NullMask,
        wantNull: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        guard nulls.hasNulls else {
            if wantNull { return 0 }
            if dense { for i in 0..<count { rows[i] = Int32(truncatingIfNeeded: i) } }
            return count
        }
        if dense { return denseNullRows(nulls.words, wantNull: wantNull, rows, count) }
        var m = 0
        for j in 0..<count {
            let r = rows[j]
            rows[m] = r
            m &+= bit(nulls.isNull(Int(r)) == wantNull)
        }
        return m
    }

    /// The dense case of `filterNull`: the mask is read a word (64 rows) at a time, a word
    /// with no wanted row costs one test, and each wanted row one trailing-zero count.
    @inline(__always)
    static func denseNullRows(
        _ words: UnsafeBufferPointer<UInt64>,
        wantNull: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int
    ) -> Int {
        var m = 0
        var base = 0
        var w = 0
        while base < count {
            // A word the mask does not hold is all not-null rows.
            let word = w < words.count ? words[w] : 0
            var wanted = wantNull ? word : ~word
            let left = count &- base
            if left < 64 { wanted &= (UInt64(1) &<< UInt64(left)) &- 1 }
            while wanted != 0 {
                rows[m] = Int32(truncatingIfNeeded: base &+ wanted.trailingZeroBitCount)
                m &+= 1
                wanted &= wanted &- 1
            }
            base &+= 64
            w &+= 1
        }
        return m
    }

    /// Rows whose int value is in `set` (null rows when `nullMatches`).
    @inline(never)
    static func filterIntIn(
        _ view: FixedWidthColumnView<Int64>,
        _ set: Set<Int64>,
        nullMatches: Bool,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        dense: Bool
    ) -> Int {
        guard let base = view.values.baseAddress else { return 0 }
        var m = 0
        let hasNulls = view.nulls.hasNulls
        for j in 0..<count {
            let r = dense ? Int32(truncatingIfNeeded: j) : rows[j]
            rows[m] = r
            let keep = hasNulls && view.nulls.isNull(Int(r)) ? nullMatches : set.contains(base[Int(r)])
            m &+= bit(keep)
        }
        return m
    }
}

/// A column element the typed filters and counts scan: compared with a constant of its own type.
protocol KernelScalar: Comparable {
    /// Whether `<` and `==` are one machine compare, so a column without nulls takes the
    /// branch-free loops; a `Timestamp` (seconds, then nanoseconds) takes the scalar path.
    static var hasBranchFreeCompare: Bool { get }
    /// A count of the dense rows `values[0 ..< count]` satisfying `op k` faster than
    /// the generic count (`scanOrdered` into `Counting`), or nil where there is none.
    static func countDense(_ values: UnsafePointer<Self>, _ op: ComparisonOperator, _ k: Self, _ count: Int) -> Int?
}

extension KernelScalar {
    static var hasBranchFreeCompare: Bool { true }
    @inline(__always)
    static func countDense(_ values: UnsafePointer<Self>, _ op: ComparisonOperator, _ k: Self, _ count: Int) -> Int? {
        nil
    }
}

extension Double: KernelScalar {}
extension Float: KernelScalar {}
extension Timestamp: KernelScalar {
    static var hasBranchFreeCompare: Bool { false }
}

/// What a scan does with each row and its verdict: `Selecting` keeps the passing rows' offsets,
/// `Counting` only counts them. Generic over it, one loop serves the filters and the counts, and
/// each specialization keeps the shape of a hand-written loop.
protocol RowSink {
    mutating func take(_ row: Int32, _ keep: Bool)
}

/// Writes each passing row to `rows[count]`, in place over the rows being scanned (the write
/// cursor never passes the read one): the row is stored unconditionally and the cursor advanced
/// by the verdict's bit.
struct Selecting: RowSink {
    let rows: UnsafeMutablePointer<Int32>
    var count = 0

    @inline(__always)
    init(_ rows: UnsafeMutablePointer<Int32>) {
        self.rows = rows
    }

    @inline(__always)
    mutating func take(_ row: Int32, _ keep: Bool) {
        rows[count] = row
        count &+= Kernels.bit(keep)
    }
}

/// Adds up the verdicts' bits and writes nothing, which lets a dense count vectorise.
struct Counting: RowSink {
    var count = 0

    @inline(__always)
    mutating func take(_ row: Int32, _ keep: Bool) {
        count &+= Kernels.bit(keep)
    }
}

/// One of the six orderings, as a type, so that a loop generic over it is specialized into one
/// loop per operator with the compare inlined.
protocol OrderedTest {
    static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool
}

enum IsEqual: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x == k }
}

enum IsNotEqual: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x != k }
}

enum IsLess: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x < k }
}

enum IsLessOrEqual: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x <= k }
}

enum IsGreater: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x > k }
}

enum IsGreaterOrEqual: OrderedTest {
    @inline(__always) static func holds<T: Comparable>(_ x: T, _ k: T) -> Bool { x >= k }
}
