import RQLCore

/// The selection registers of one run: for each register, the in-block offsets of the rows
/// still alive in the current batch, in order (repeats possible when a caller's positions
/// repeat). Allocated once per run, never per batch.
///
/// A register is *dense* when it holds exactly `0 ..< count` in order (a fresh full block):
/// kernels then read values straight through, which vectorises, instead of gathering.
// `@unchecked Sendable`: one run uses a set at a time; between runs it passes through
// `RunPlan`'s lock (`takeRegisters`, `giveBack`), never shared.
final class SelectionRegisters: @unchecked Sendable {
    /// Rows one register can hold: a batch is at most one block.
    static let capacity = TableBlock.capacity

    let storage: UnsafeMutablePointer<Int32>
    // Per register, its count and flags, in plain memory: three arrays cost a probe ~1,800
    // instructions a run to allocate (each a generic metadata look-up) and free.
    let counts: UnsafeMutablePointer<Int>
    let dense: UnsafeMutablePointer<Bool>
    /// A dense register whose identity offsets are not written yet: a batch's first filter
    /// writes its survivors anyway, and counting needs none, so `fill` defers the writing.
    let pending: UnsafeMutablePointer<Bool>
    /// Scratch marks by in-block offset, for OR and NOT; all zero between uses. Allocated (and
    /// zeroed) on first use: a program without OR or NOT, or an index probe that reads a few
    /// rows, should not pay for clearing 4 KiB.
    private var marksStorage: UnsafeMutablePointer<UInt8>?
    /// Scratch offsets for `union`, allocated on first use.
    private var scratchStorage: UnsafeMutablePointer<Int32>?

    var marks: UnsafeMutablePointer<UInt8> {
        if let marksStorage { return marksStorage }
        let allocated = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.capacity)
        allocated.initialize(repeating: 0, count: Self.capacity)
        marksStorage = allocated
        return allocated
    }

    var scratch: UnsafeMutablePointer<Int32> {
        if let scratchStorage { return scratchStorage }
        let allocated = UnsafeMutablePointer<Int32>.allocate(capacity: Self.capacity)
        scratchStorage = allocated
        return allocated
    }

    /// The number of registers.
    let count: Int

    init(count: Int) {
        let registers = max(count, 1)
        self.count = registers
        storage = .allocate(capacity: registers * Self.capacity)
        counts = .allocate(capacity: registers)
        counts.initialize(repeating: 0, count: registers)
        dense = .allocate(capacity: 2 * registers)
        dense.initialize(repeating: false, count: 2 * registers)
        pending = dense + registers
    }

    deinit {
        storage.deallocate()
        counts.deallocate()
        dense.deallocate()
        marksStorage?.deallocate()
        scratchStorage?.deallocate()
    }

    /// Clears every register for another run (`RunPlan` keeps one set between runs). The marks
    /// are already zero: every use clears them.
    func reset() {
        counts.update(repeating: 0, count: count)
        dense.update(repeating: false, count: 2 * count)
    }

    /// The offsets of register `r`.
    @inline(__always)
    func rows(_ r: Int) -> UnsafeMutablePointer<Int32> { storage + r * Self.capacity }

    /// r := 0 ..< n (written when first read, see `pending`).
    func fill(_ r: Int, count n: Int) {
        counts[r] = n
        dense[r] = true
        pending[r] = true
    }

    /// The offsets of register `r`, written out first if they were deferred.
    @inline(__always)
    func ready(_ r: Int) -> UnsafeMutablePointer<Int32> {
        let out = rows(r)
        if pending[r] {
            for i in 0..<counts[r] { out[i] = Int32(truncatingIfNeeded: i) }
            pending[r] = false
        }
        return out
    }

    /// Keeps, in order, the offsets of register `r` for which `test` holds; a register that drops
    /// one is no longer dense. The one compaction loop of the row-by-row value filters
    /// (`FilterValue`, `CompareValues`, `FilterMatches`, …); the typed kernels have their own.
    func keep(_ r: Int, where test: (Int32) -> Bool) {
        let rows = ready(r)
        let count = counts[r]
        var m = 0
        for j in 0..<count {
            let row = rows[j]
            rows[m] = row
            m &+= test(row) ? 1 : 0
        }
        if m != count { dense[r] = false }
        counts[r] = m
    }

    func copy(_ source: Int, to target: Int) {
        guard source != target else { return }
        rows(target).update(from: ready(source), count: counts[source])
        pending[target] = false
        counts[target] = counts[source]
        dense[target] = dense[source]
    }

    func clear(_ r: Int) {
        counts[r] = 0
        dense[r] = false
        pending[r] = false
    }

    /// target := rows of base that are in a or already in target, in base's order.
    func union(_ a: Int, base: Int, into target: Int) {
        mark(a, 1)
        mark(target, 1)
        // The marks of target's rows are cleared from a copy: keep() overwrites target.
        scratch.update(from: ready(target), count: counts[target])
        let marked = counts[target]
        keep(base, into: target, where: 1)
        unmark(a)
        let marks = self.marks
        for i in 0..<marked { marks[Int(scratch[i])] = 0 }
    }

    /// target := rows of base that are not in a, in base's order.
    func except(_ a: Int, base: Int, into target: Int) {
        mark(a, 1)
        keep(base, into: target, where: 0)
        unmark(a)
    }

    private func mark(_ r: Int, _ value: UInt8) {
        let source = ready(r)
        let marks = self.marks
        for i in 0..<counts[r] { marks[Int(source[i])] = value }
    }

    private func unmark(_ r: Int) {
        let source = rows(r)
        let marks = self.marks
        for i in 0..<counts[r] { marks[Int(source[i])] = 0 }
    }

    /// target := rows of base whose mark is `value` (target may be base: it never runs ahead).
    private func keep(_ base: Int, into target: Int, where value: UInt8) {
        let source = ready(base)
        let out = rows(target)
        let marks = self.marks
        let n = counts[base]
        var m = 0
        var isDense = dense[base]
        for i in 0..<n {
            let row = source[i]
            out[m] = row
            m &+= Int(unsafeBitCast(marks[Int(row)] == value, to: UInt8.self))
        }
        if m != n { isDense = false }
        counts[target] = m
        dense[target] = isDense
        pending[target] = false
    }
}
