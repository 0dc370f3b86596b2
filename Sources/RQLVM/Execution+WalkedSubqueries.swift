import RQLBytecode
import RQLCore

/// `CountSubquery` with a walking SUBQUERY constant: the elements are what a chain of hops
/// reaches from each row (`SUBQUERY(owners.dogs, $d, …)`, `SUBQUERY(@links.Dog.owner, $d, …)`),
/// each distinct element tested once and counted once per path that reaches it, as the
/// reference evaluator counts (`objects(of:)` with weights). Without parameters the program runs
/// once a batch over the batch's distinct elements; with parameters (a correlated subquery, whose
/// predicate reads the row: `SUBQUERY(dogs, $d, $d.age > age)`) it runs once per row, over that
/// row's elements, with the row's values in the nested run's `parameters` (`LoadParameter`).
/// With a start register the hops start from the object each row's link in it names, not from
/// the row: inside a correlated SUBQUERY's program, `SUBQUERY(dogs, $e, $e.age > $d.age)` walks
/// the person's dogs from the person's link, passed in as a parameter.
extension Execution {
    /// `CountSubquery` (walking form): v[P3] := the weighted number of elements passing K[P4].
    func countWalkedSubquery(
        _ instruction: Op,
        _ program: Program,
        _ hops: [PathWalk.Hop],
        _ parameters: [Int32],
        from startRegister: Int32?,
        at pc: Int,
        block: TableBlock
    ) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        for j in 0..<count { out[Int(rows[j])] = .int(0) }
        guard count > 0, let table, let target = store.table(named: program.className) else { return }
        let run: SubqueryRun<Store>
        if let known = searchState.subqueries[pc] {
            run = known
        } else {
            run = SubqueryRun(program: program, store: store, rowCount: target.rowCount)
            searchState.subqueries[pc] = run
        }
        let start = block.positions.lowerBound
        let links = startRegister.map { gathers.values(Int($0)) }
        /// The elements of the row at `row` of the batch: what the hops reach from it, or from the
        /// object its link in the start register names.
        func elements(ofRow row: Int) -> [Reach] {
            guard let links else { return reached(from: start + row, in: table, hops: hops) }
            guard case .link(let link) = links[row], let origin = store.table(named: link.className),
                let position = origin.position(of: link.key)
            else { return [] }
            return reached(from: position, in: origin, hops: hops)
        }
        if parameters.isEmpty {
            // One nested run for the batch: every row's elements gathered, each distinct one once.
            run.start()
            var weights: [Int] = []
            for j in 0..<count {
                for reach in elements(ofRow: Int(rows[j])) {
                    run.add(reach.position)
                    weights.append(reach.weight)
                }
                run.endRow()
            }
            // `add` drops a position outside the table; the hops reach none.
            guard run.elements.count == weights.count else { return }
            run.finish()
            var from = 0
            for j in 0..<count {
                var n = 0
                for e in from..<run.ends[j] where run.marks[run.elements[e]] != 0 {
                    n = Folder.sum(n, weights[e])
                }
                from = run.ends[j]
                out[Int(rows[j])] = .int(Int64(n))
            }
            for position in run.distinct { run.marks[position] = 0 }
            return
        }
        // Correlated: the row's values are the nested run's parameters, so each row runs alone.
        let values = parameters.map { gathers.values(Int($0)) }
        for j in 0..<count {
            let row = Int(rows[j])
            let reached = elements(ofRow: row).sorted { $0.position < $1.position }
            guard !reached.isEmpty else { continue }
            run.execution.parameters = values.map { $0[row] }
            let matched = Set(run.execution.rerun(over: reached.map(\.position)))
            var n = 0
            for element in reached where matched.contains(element.position) { n = Folder.sum(n, element.weight) }
            out[row] = .int(Int64(n))
        }
    }

    /// The objects `hops` reach from the object at `position` of `table`, each once with the
    /// number of paths reaching it; null and dangling links reach nothing.
    func reached(from position: Int, in table: Store.Table, hops: [PathWalk.Hop]) -> [Reach] {
        var current = table
        var level = [Reach(position: position, weight: 1)]
        for hop in hops {
            var next = Folder(folding: true)
            switch hop {
            case .link(let column, let targetName):
                guard let target = store.table(named: targetName),
                    column >= 0 && column < current.objectSchema.properties.count
                else { return [] }
                current.withColumn(column) { view in
                    for reach in level {
                        switch view {
                        case .link(let links):
                            guard reach.position < links.keys.count else { continue }
                            let key = links.keys[reach.position]
                            if key >= 0, let p = target.position(of: RowKey(key)) { next.add(p, weight: reach.weight) }
                        case .collection(let collection):
                            guard case .link(let links) = collection.elements,
                                reach.position < collection.offsets.count - 1
                            else { continue }
                            for e in collection.range(of: reach.position) where links.keys[e] >= 0 {
                                if let p = target.position(of: RowKey(links.keys[e])) {
                                    next.add(p, weight: reach.weight)
                                }
                            }
                        default:
                            continue
                        }
                    }
                }
                current = target
            case .backlinks(let className, let property):
                guard let origin = store.table(named: className) else { return [] }
                for reach in level {
                    for key in current.backlinks(at: reach.position, fromClass: className, property: property) {
                        if let p = origin.position(of: key) { next.add(p, weight: reach.weight) }
                    }
                }
                current = origin
            }
            level = next.items
        }
        return level
    }

    /// `LoadObjectLink`: v[P3] := the link to each row of r[P1].
    func loadObjectLink(_ instruction: Op, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        guard let table else { return }
        let className = table.objectSchema.name
        let keys = block.rowKeys
        for j in 0..<registers.counts[r] {
            let row = Int(rows[j])
            out[row] = .link(ObjectLink(className: className, key: keys[row]))
        }
    }

    /// `LoadParameter`: v[P3] := parameter P2 of the run (null when the run has none) at r[P1].
    func loadParameter(_ instruction: Op) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let n = Int(instruction.p2)
        let value = n >= 0 && n < parameters.count ? parameters[n] : .null
        for j in 0..<registers.counts[r] { out[Int(rows[j])] = value }
    }
}
