import RQLBytecode
import RQLCore

/// Link gathers and the loads that read through them (`GatherLink`, `LoadColumn`), and
/// `FilterValue`, which compares a value register with a constant.
extension Execution {
    /// Where the instruction's source operand (P5) reads column `column`: the view, and for each
    /// in-block row where to read it (nil: the row itself, in the batch's block; otherwise the
    /// position register's entry, -1 for no row). `body` gets nil when the column does not exist.
    func withSource<R>(
        _ source: Int,
        column: Int,
        block: TableBlock,
        _ body: (ColumnView?, UnsafeMutablePointer<Int>?) -> R
    ) -> R {
        if source == 0 {
            guard column >= 0 && column < block.columns.count else { return body(nil, nil) }
            assert(openColumns.contains(column), "column \(column) read but not opened (ColumnsRead)")
            return body(block.columns[column], nil)
        }
        let p = source - 1
        guard p >= 0 && p < gathers.tables.count, let table = gathers.tables[p],
            column >= 0 && column < table.objectSchema.properties.count
        else { return body(nil, gathers.positions(max(p, 0))) }
        return table.withColumn(column) { body($0, gathers.positions(p)) }
    }

    /// `GatherLink`: p[P3] := the positions of the link targets.
    func gatherLink(_ instruction: Op, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.positions(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard case .text(let className)? = constant(instruction.p4), let target = store.table(named: className) else {
            for j in 0..<count { out[Int(rows[j])] = -1 }
            gathers.tables[Int(instruction.p3)] = nil
            return
        }
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            guard case .link(let links)? = view else {
                for j in 0..<count { out[Int(rows[j])] = -1 }
                return
            }
            for j in 0..<count {
                let row = Int(rows[j])
                let at = through.map { $0[row] } ?? row
                guard at >= 0 && at < links.keys.count else {
                    out[row] = -1
                    continue
                }
                let key = links.keys[at]
                out[row] = key < 0 ? -1 : target.position(of: RowKey(key)) ?? -1
            }
        }
        gathers.tables[Int(instruction.p3)] = target
    }

    /// `LoadColumn`: v[P3] := the column's value (null where the source has no row).
    func loadColumn(_ instruction: Op, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            if case .link(let links)? = view {
                // A link loads as itself when its target exists, as the reference evaluator resolves it.
                let target = store.table(named: links.targetClass)
                for j in 0..<count {
                    let row = Int(rows[j])
                    let at = through.map { $0[row] } ?? row
                    out[row] = .null
                    guard at >= 0 && at < links.keys.count, links.keys[at] >= 0, let target else { continue }
                    let key = RowKey(links.keys[at])
                    if target.position(of: key) != nil {
                        out[row] = .link(ObjectLink(className: links.targetClass, key: key))
                    }
                }
                return
            }
            for j in 0..<count {
                let row = Int(rows[j])
                let at = through.map { $0[row] } ?? row
                out[row] = at >= 0 ? view?.scalarValue(at: at) ?? .null : .null
            }
        }
    }

    /// `FilterValueIn`: keeps the rows whose value is in the list (a set built once per run).
    func filterValueIn(_ instruction: Op) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        guard case .values(let list)? = constant(instruction.p4) else {
            registers.clear(r)
            return
        }
        let set = memberships.set(of: list)
        registers.keep(r) { row in EqualityKey.isMember(values[Int(row)], of: set) }
    }

    /// `FilterValue`: keeps the rows whose value compares with the constant, by `ValueComparison`.
    func filterValue(_ instruction: Op) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        guard case .value(let k)? = constant(instruction.p4), let op = ComparisonOperator(code: instruction.p3) else {
            registers.clear(r)
            return
        }
        let options = StringOptions(rawValue: UInt8(truncatingIfNeeded: instruction.p5))
        registers.keep(r) { row in ValueComparison.evaluate(values[Int(row)], op, k, options: options) }
    }

    /// `CountBacklinks`: v[P3] := the backlink count of the source's row (0 for no row).
    func countBacklinks(_ instruction: Op, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        let source = Int(instruction.p5)
        if source == 0 {
            let start = block.positions.lowerBound
            for j in 0..<count {
                let row = Int(rows[j])
                out[row] = .int(Int64(table?.backlinkCount(at: start + row) ?? 0))
            }
            return
        }
        let p = source - 1
        let table = p < gathers.tables.count ? gathers.tables[p] : nil
        let through = gathers.positions(p)
        for j in 0..<count {
            let row = Int(rows[j])
            let at = through[row]
            out[row] = .int(Int64(at >= 0 ? table?.backlinkCount(at: at) ?? 0 : 0))
        }
    }
}
