import RQLBytecode
import RQLCore

/// Instructions over collections: `CountElements` (`@count`, `@size`), `CountMatching`
/// (ANY / ALL / NONE) and `AggregateElements` (`@min`, `@max`, `@sum`, `@avg`). Each writes one
/// value per selected row into a value register; `FilterValue` then compares it. A collection
/// column is an offset range per row into its element column; for a collection of links with a
/// target column, each element is the target's value in that column (links to deleted objects
/// are skipped, as the reference evaluator finds no object behind them).
extension Execution {
    /// What one of these instructions computes from a row's element range.
    enum ElementReduction {
        case count
        case matching(ElementTest)
        case aggregate(AggregateFunction, overMixed: Bool)
    }

    func reduceElements(
        _ instruction: Op,
        _ reduction: ElementReduction,
        targetColumn: Int? = nil,
        block: TableBlock
    ) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            guard case .collection(let collection)? = view else {
                for j in 0..<count { out[Int(rows[j])] = Self.reduce(reduction, over: []) }
                return
            }
            // Through links: the targets' table and the column read from it.
            var targets: (table: Store.Table, column: Int)?
            if let targetColumn, case .link(let links) = collection.elements,
                let table = store.table(named: links.targetClass),
                targetColumn >= 0 && targetColumn < table.objectSchema.properties.count
            {
                targets = (table, targetColumn)
            }
            let read = { (body: (ColumnView?) -> Void) in
                if let targets { targets.table.withColumn(targets.column) { body($0) } } else { body(nil) }
            }
            read { targetView in
                for j in 0..<count {
                    let row = Int(rows[j])
                    let at = through.map { $0[row] } ?? row
                    // A row without a source (a null link on the way) has an empty collection.
                    let range = at >= 0 && at < collection.offsets.count - 1 ? collection.range(of: at) : 0..<0
                    if case .count = reduction {
                        out[row] = .int(Int64(range.count))
                        continue
                    }
                    gathers.scratch.removeAll(keepingCapacity: true)
                    if at < 0, case .matching(let test) = reduction, test.ofSize {
                        // `link.strings.length` through a null link is one size 0, as realm-core
                        // counts it (`link.integers.@count == 0` matches a null link).
                        gathers.scratch.append(.null)
                    } else if let targets, let targetView, case .link(let links) = collection.elements {
                        for e in range where links.keys[e] >= 0 {
                            guard let position = targets.table.position(of: RowKey(links.keys[e])) else { continue }
                            gathers.scratch.append(targetView.scalarValue(at: position) ?? .null)
                        }
                    } else if targetColumn == nil {
                        for e in range { gathers.scratch.append(collection.elements.scalarValue(at: e) ?? .null) }
                    }
                    out[row] = Self.reduce(reduction, over: gathers.scratch)
                }
            }
        }
    }

    /// The count, the number passing the test, or the aggregate of `elements`.
    private static func reduce(_ reduction: ElementReduction, over elements: [Value]) -> Value {
        switch reduction {
        case .count:
            return .int(Int64(elements.count))
        case .matching(let test):
            var n: Int64 = 0
            for element in elements where test.passes(element) { n += 1 }
            return .int(n)
        case .aggregate(let function, let overMixed):
            return function.apply(to: elements, overMixed: overMixed)
        }
    }
}
