import RQLBytecode
import RQLCore

/// `CountSubquery`: `SUBQUERY(dogs, $d, $d.age > 2).@count`, batch at a time. The elements of
/// every selected row are gathered into one list of target positions (each distinct position
/// once, in table order), the subquery's own program runs over that list as a query over a
/// collection runs (block by block, with its own selection registers), and each row's count is
/// the number of its elements the program kept, so an element shared by many rows is tested
/// once.
extension Execution {
    func countSubquery(_ instruction: Op, at pc: Int, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        for j in 0..<count { out[Int(rows[j])] = .int(0) }
        if case .subquery(let program, let hops, let parameters, let start)? = constant(instruction.p4) {
            countWalkedSubquery(instruction, program, hops, parameters, from: start, at: pc, block: block)
            return
        }
        guard case .program(let program, let backlinkProperty)? = constant(instruction.p4),
            let target = store.table(named: program.className)
        else { return }
        let run: SubqueryRun<Store>
        if let known = searchState.subqueries[pc] {
            run = known
        } else {
            run = SubqueryRun(program: program, store: store, rowCount: target.rowCount)
            searchState.subqueries[pc] = run
        }
        run.start()
        let source = Int(instruction.p5)
        if let backlinkProperty {
            // The objects of the program's class linking to the source's row through the property.
            let p = source - 1
            let owner = source == 0 ? table : p < gathers.tables.count ? gathers.tables[p] : nil
            let through = source == 0 ? nil : gathers.positions(p)
            let start = block.positions.lowerBound
            for j in 0..<count {
                let row = Int(rows[j])
                let at = through.map { $0[row] } ?? start + row
                if let owner, at >= 0 {
                    for key in owner.backlinks(at: at, fromClass: program.className, property: backlinkProperty) {
                        if let position = target.position(of: key) { run.add(position) }
                    }
                }
                run.endRow()
            }
        } else {
            withSource(source, column: Int(instruction.p2), block: block) { view, through in
                guard case .collection(let collection)? = view, case .link(let links) = collection.elements,
                    links.targetClass == program.className
                else { return }
                for j in 0..<count {
                    let at = through.map { $0[Int(rows[j])] } ?? Int(rows[j])
                    if at >= 0 && at < collection.offsets.count - 1 {
                        for e in collection.range(of: at) where links.keys[e] >= 0 {
                            if let position = target.position(of: RowKey(links.keys[e])) { run.add(position) }
                        }
                    }
                    run.endRow()
                }
            }
        }
        guard run.ends.count == count else { return }
        run.finish()
        var start = 0
        for j in 0..<count {
            var n: Int64 = 0
            for e in start..<run.ends[j] { n &+= Int64(run.marks[run.elements[e]]) }
            start = run.ends[j]
            out[Int(rows[j])] = .int(n)
        }
        for position in run.distinct { run.marks[position] = 0 }
    }

    /// Runs the program again over `positions` of its table (in that order); returns the
    /// positions that matched. The registers and per-run state are reused.
    func rerun(over positions: [Int]) -> [Int] {
        callerPositions = positions
        table = nil
        candidates = .all
        result.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        matchCount = 0
        fusedTop = nil
        fusedTopDecided = false
        execute()
        return result
    }
}

/// One `CountSubquery`'s nested run, kept for the whole outer run: the program's execution and
/// the scratch lists of a batch.
final class SubqueryRun<Store: StoreReader> {
    let execution: Execution<Store>
    /// One flag per target position: gathered (while gathering), then matched (while counting);
    /// all zero between batches.
    var marks: [UInt8]
    /// The batch's rows' element positions, row after row; `ends[j]` is where row j's end.
    var elements: [Int] = []
    var ends: [Int] = []
    /// The distinct element positions of the batch.
    var distinct: [Int] = []

    init(program: Program, store: Store, rowCount: Int) {
        execution = Execution(program: program, store: store, mode: .rows, positions: [])
        marks = [UInt8](repeating: 0, count: rowCount)
    }

    /// Starts a batch's gathering.
    func start() {
        elements.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        distinct.removeAll(keepingCapacity: true)
    }

    /// Adds an element of the current row (a position of the program's table).
    func add(_ position: Int) {
        guard position >= 0 && position < marks.count else { return }
        elements.append(position)
        if marks[position] == 0 {
            marks[position] = 1
            distinct.append(position)
        }
    }

    /// Ends the current row's elements.
    func endRow() { ends.append(elements.count) }

    /// Runs the program over the distinct elements, in table order; afterwards `marks` flags
    /// exactly those that matched.
    func finish() {
        guard !distinct.isEmpty else { return }
        for position in distinct { marks[position] = 0 }
        distinct.sort()
        for position in execution.rerun(over: distinct) { marks[position] = 1 }
    }
}
