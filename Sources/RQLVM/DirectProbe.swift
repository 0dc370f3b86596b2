import RQLBytecode
import RQLCore

/// A program whose rows are exactly its access path's candidates, run without the batch loop:
/// `OpenTable`, one index probe (`SeekPrimaryKey`, `SeekIndexEqual`, `SeekIndexRange`,
/// `ScanNothing`), a batch loop whose body is only the `Emit` of its register (with or without
/// a LIMIT), then at most `Limit` steps before `Halt`. `id == 123456` and, with an index on
/// `city`, `city == 'Hanoi'` compile to this shape.
///
///     0 OpenTable            'Person'
///     1 SeekPrimaryKey  0    [123456]
///     2 NextBatch       0  5
///     3 Emit            0
///     4 Goto               2
///     5 Halt
///
/// Such a run's result is the candidates' row keys, in candidate order, positions outside the
/// table skipped, cut at the LIMIT (a count ignores the LIMIT, as `Emit` does in a count), which
/// is what the batch loop would emit. Without it, a primary-key lookup paid for an `Execution`
/// (a class allocated per run, its fields' exclusivity checks, registers taken and given back)
/// and the dispatch of four instructions (~4.5k instructions of a ~1 µs lookup), and an index
/// equality paid per block for the block's `withBlock`, the loop body's dispatch and the
/// register's offsets. Decided once per program (`RunPlan`); a run over a caller's positions
/// still goes through `Execution`. A class: a run reads it from the plan, and copying a struct
/// of a string and a constant out of it cost a primary-key run ~400 of its ~1,800 instructions.
final class DirectProbe: Sendable {
    /// The class `OpenTable` names.
    let className: String
    /// The access path instruction.
    let access: Op
    /// Its P4 constant.
    let constant: Constant?
    /// The most rows a `rows` run returns (the `Emit`'s LIMIT and any `Limit` step), or `Int.max`.
    let limit: Int

    /// The direct form of `ops`, or nil when the program does more than emit its candidates.
    init?(_ ops: [Op], _ program: Program) {
        var start = 0
        while start < ops.count && ops[start].opcode == .explain { start += 1 }
        guard ops.count >= start + 6 else { return nil }
        let open = ops[start]
        let access = ops[start + 1]
        let loop = ops[start + 2]
        let emit = ops[start + 3]
        let back = ops[start + 4]
        let exit = start + 5
        guard open.opcode == .openTable, program.constants.contains(open.p4),
            case .text(let name) = program.constants[open.p4]
        else { return nil }
        switch access.opcode {
        case .seekPrimaryKey, .seekIndexEqual, .seekIndexRange, .scanNothing: break
        default: return nil
        }
        guard loop.opcode == .nextBatch, Int(loop.p2) == exit,
            emit.opcode == .emit, emit.p1 == loop.p1,
            back.opcode == .goto, Int(back.p2) == start + 2
        else { return nil }
        var limit = Int.max
        if emit.p5 == 1 {
            guard Int(emit.p2) == exit else { return nil }
            limit = max(0, Int(emit.p3))
        } else if emit.p5 != 0 {
            return nil
        }
        var pc = exit
        while pc < ops.count && ops[pc].opcode == .limit {
            limit = min(limit, max(0, Int(ops[pc].p1)))
            pc += 1
        }
        guard pc < ops.count, ops[pc].opcode == .halt else { return nil }
        className = name
        self.access = access
        constant = program.constants.contains(access.p4) ? program.constants[access.p4] : nil
        self.limit = limit
    }

    /// The matching rows' keys (`VirtualMachine.run`).
    func rowKeys<Store: StoreReader>(on store: Store) -> [RowKey] {
        guard limit > 0, let table = store.table(named: className) else { return [] }
        if let position = singlePrimaryKey(table) {
            guard let position, position >= 0 && position < table.rowCount else { return [] }
            return [table.rowKey(at: position)]
        }
        guard case .positions(let positions) = Candidates.of(access, constant, table: table) else { return [] }
        return Self.rowKeys(of: positions, table: table, limit: limit)
    }

    /// The number of matching rows (`VirtualMachine.count`): LIMIT is ignored.
    func count<Store: StoreReader>(on store: Store) -> Int {
        guard let table = store.table(named: className) else { return 0 }
        let rowCount = table.rowCount
        if let position = singlePrimaryKey(table) {
            guard let position else { return 0 }
            return position >= 0 && position < rowCount ? 1 : 0
        }
        guard case .positions(let positions) = Candidates.of(access, constant, table: table) else { return 0 }
        var count = 0
        for position in positions where position >= 0 && position < rowCount { count += 1 }
        return count
    }

    /// A probe of one primary key: its position (nil: no such row), without a candidate array;
    /// nil for any other access path.
    private func singlePrimaryKey<Table: TableReader>(_ table: Table) -> Int?? {
        guard access.opcode == .seekPrimaryKey, case .values(let values)? = constant, values.count == 1 else {
            return nil
        }
        return .some(table.position(ofPrimaryKey: values[0]))
    }

    /// The row keys of `positions` in order, those outside the table skipped, at most `limit`:
    /// each run of positions in one block is copied from that block's keys in one `withBlock`
    /// call (no column opened). The block holding a position is guessed from full blocks and
    /// checked; only a wrong guess costs a search (`BlockLocator`).
    static func rowKeys<Table: TableReader>(of positions: [Int], table: Table, limit: Int) -> [RowKey] {
        let rowCount = table.rowCount
        let blockCount = table.blockCount
        let bound = Swift.min(positions.count, limit)
        guard bound > 0, blockCount > 0 else { return [] }
        return positions.withUnsafeBufferPointer { candidates in
            [RowKey](unsafeUninitializedCapacity: bound) { out, written in
                var locator = BlockLocator(table: table)
                var index = 0
                var n = 0
                var known: (block: Int, range: Range<Int>)?
                var searched = -1  // the candidate whose block was searched for: never twice
                while index < candidates.count && n < bound {
                    let position = candidates[index]
                    guard position >= 0 && position < rowCount else {
                        index += 1
                        continue
                    }
                    let blockIndex = BlockLocator<Table>.guess(for: position, known: known, blockCount: blockCount)
                    let found: Range<Int>? = table.withBlock(blockIndex, columns: .none) { block in
                        let lower = block.positions.lowerBound
                        let upper = block.positions.upperBound
                        guard position >= lower && position < upper else { return nil }
                        let (next, written) = copyKeys(
                            candidates,
                            from: index,
                            rowCount: rowCount,
                            block: lower..<upper,
                            keys: block.rowKeys,
                            into: out.baseAddress! + n,
                            room: bound &- n
                        )
                        index = next
                        n &+= written
                        return block.positions
                    }
                    if let found {
                        known = (blockIndex, found)
                        continue
                    }
                    // Blocks are not all full: search, then copy from that block on the next turn.
                    guard searched != index, let (block, _) = locator.block(containing: position) else {
                        index += 1
                        continue
                    }
                    searched = index
                    known = (block, table.withBlock(block, columns: .none) { $0.positions })
                }
                written = n
            }
        }
    }

    /// Copies the keys of `candidates[from...]` while they fall in `block` (positions outside
    /// the table skipped), at most `room` of them, to `out`; returns the index of the first
    /// candidate not taken and the number of keys written. A function of its own, everything
    /// in registers: inside `withBlock`'s closure the loop read its captured bounds from memory
    /// (~23 instructions a key). The run of candidates inside the block is found first, then
    /// copied in a loop without branches; when the block's keys are consecutive (keys ascend
    /// and are distinct, so a last key equal to the first plus the row count less one means a
    /// store without deletions), each key is computed from its position instead of read.
    @inline(never)
    static func copyKeys(
        _ candidates: UnsafeBufferPointer<Int>,
        from start: Int,
        rowCount: Int,
        block: Range<Int>,
        keys: UnsafeBufferPointer<RowKey>,
        into out: UnsafeMutablePointer<RowKey>,
        room: Int
    ) -> (next: Int, written: Int) {
        guard let c = candidates.baseAddress, let k = keys.baseAddress, !keys.isEmpty else { return (start, 0) }
        let lower = block.lowerBound
        let width = UInt(bitPattern: block.count)
        let end = candidates.count
        let firstKey = k[0].rawValue
        let consecutive = k[keys.count &- 1].rawValue &- firstKey == Int64(keys.count &- 1)
        var i = start
        var m = 0
        while i < end && m < room {
            // The run of candidates inside the block, at most the room left.
            let stop = Swift.min(end, i &+ (room &- m))
            var j = i
            while j < stop && UInt(bitPattern: c[j] &- lower) < width { j &+= 1 }
            let target = out + m
            if consecutive {
                let shift = firstKey &- Int64(lower)
                for t in i..<j { (target + (t &- i)).initialize(to: RowKey(Int64(c[t]) &+ shift)) }
            } else {
                for t in i..<j { (target + (t &- i)).initialize(to: k[c[t] &- lower]) }
            }
            m &+= j &- i
            i = j
            // Stopped at a candidate outside the block: skip it if it is outside the table too.
            guard i < end && m < room, UInt(bitPattern: c[i]) >= UInt(bitPattern: rowCount) else { break }
            i &+= 1
        }
        return (i, m)
    }
}
