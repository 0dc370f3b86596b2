import RQLBytecode
import RQLCore

/// A key of an int or double column as the top-N list compares it: `ValueOrdering` puts null
/// before NaN before every number, and numbers by value.
protocol FusedTopKey: Comparable {
    var isNaNKey: Bool { get }
}

extension Int64: FusedTopKey {
    var isNaNKey: Bool { false }
}

extension Double: FusedTopKey {
    var isNaNKey: Bool { isNaN }
}

/// The best `capacity` matches so far of `SORT(column) LIMIT(n)`, in sort order, fed batch by
/// batch from `emit` instead of emitting every match and sorting after the scan. A match
/// enters only if it sorts strictly before the current last: it comes after every entry in
/// emit order, so among equal keys the earlier match stays ahead, as in the stable sort.
struct FusedTopList<T: FusedTopKey> {
    let capacity: Int
    let descending: Bool
    /// Per entry: 0 null, 1 NaN, 2 a number (then `values` holds it).
    var ranks: [UInt8] = []
    var values: [T] = []
    var positions: [Int] = []
    var rowKeys: [RowKey] = []

    /// Whether the key `(rank, value)` sorts strictly before entry `i`.
    @inline(__always)
    func precedes(_ rank: UInt8, _ value: T, _ i: Int) -> Bool {
        let other = ranks[i]
        if rank != other { return descending ? rank > other : rank < other }
        if rank < 2 { return false }
        return descending ? value > values[i] : value < values[i]
    }

    /// Offers a batch's selected rows (in-block offsets `rows[0 ..< count]`) of `block`, whose
    /// row keys are read only when a row enters the list and the block does not know them
    /// consecutive (a store file reads them on demand).
    mutating func offer(
        _ base: UnsafePointer<T>,
        _ nulls: NullMask,
        _ rows: UnsafeMutablePointer<Int32>,
        _ count: Int,
        start: Int,
        block: TableBlock
    ) {
        let hasNulls = nulls.hasNulls
        for j in 0..<count {
            let r = Int(rows[j])
            let value = base[r]
            let rank: UInt8 = hasNulls && nulls.isNull(r) ? 0 : (value.isNaNKey ? 1 : 2)
            let n = ranks.count
            if n == capacity && !precedes(rank, value, n &- 1) { continue }
            var low = 0
            var high = n
            while low < high {
                let mid = (low &+ high) >> 1
                if precedes(rank, value, mid) { high = mid } else { low = mid &+ 1 }
            }
            ranks.insert(rank, at: low)
            values.insert(value, at: low)
            positions.insert(start &+ r, at: low)
            let key = block.consecutiveKeysStart.map { RowKey($0 &+ Int64(r)) } ?? block.rowKeys[r]
            rowKeys.insert(key, at: low)
            if ranks.count > capacity {
                ranks.removeLast()
                values.removeLast()
                positions.removeLast()
                rowKeys.removeLast()
            }
        }
    }
}

/// The top-N list of an int or a double key column.
enum FusedTop {
    case int(column: Int, FusedTopList<Int64>)
    case double(column: Int, FusedTopList<Double>)
}

extension Execution {
    /// Top-N lists longer than this keep the emit-then-select path (each insertion moves the list).
    static var fusedTopLimit: Int { 1024 }

    /// Decides, at the first `emit`, whether the matches go to a top-N list: rows mode, every
    /// `emit` unlimited, and the first result step a `TopN` of 1 … `fusedTopLimit` rows on one
    /// int or double column of the scanned class.
    func decideFusedTop() {
        fusedTopDecided = true
        guard mode == .rows, let table else { return }
        var step: Op?
        for op in ops {
            switch op.opcode {
            case .emit where op.p5 == 1: return
            case .sort, .topN, .distinct, .limit:
                if step == nil { step = op }
            default: break
            }
        }
        guard let step, step.opcode == .topN, step.p1 >= 1, Int(step.p1) <= Self.fusedTopLimit,
            case .sortKeys(let keys)? = constant(step.p4), keys.count == 1,
            let column = directColumn(keys[0].path, table: table)
        else { return }
        let capacity = Int(step.p1)
        let descending = !keys[0].ascending
        switch table.objectSchema.properties[column].type {
        case .int: fusedTop = .int(column: column, FusedTopList(capacity: capacity, descending: descending))
        case .double: fusedTop = .double(column: column, FusedTopList(capacity: capacity, descending: descending))
        default: return
        }
    }

    /// Offers a batch's selected rows to the top-N list; false when the key column's view is
    /// not the type the list was made for (then the emit appends as usual).
    func offerToFusedTop(_ rows: UnsafeMutablePointer<Int32>, _ count: Int, block: TableBlock) -> Bool {
        guard let fused = fusedTop else { return false }
        let start = block.positions.lowerBound
        switch fused {
        case .int(let column, _), .double(let column, _):
            assert(openColumns.contains(column), "column \(column) read but not opened (ColumnsRead)")
        }
        switch fused {
        case .int(let column, var list):
            guard column < block.columns.count, case .int(let view) = block.columns[column],
                let base = view.values.baseAddress
            else { return count == 0 }
            fusedTop = nil  // the list is mutated uniquely, then put back
            list.offer(base, view.nulls, rows, count, start: start, block: block)
            fusedTop = .int(column: column, list)
        case .double(let column, var list):
            guard column < block.columns.count, case .double(let view) = block.columns[column],
                let base = view.values.baseAddress
            else { return count == 0 }
            fusedTop = nil
            list.offer(base, view.nulls, rows, count, start: start, block: block)
            fusedTop = .double(column: column, list)
        }
        return true
    }

    /// At `TopN`: the list becomes the result. False when no list was kept.
    func takeFusedTop() -> Bool {
        guard let fused = fusedTop else { return false }
        fusedTop = nil
        switch fused {
        case .int(_, let list):
            result = list.positions
            keys = list.rowKeys
        case .double(_, let list):
            result = list.positions
            keys = list.rowKeys
        }
        return true
    }
}
