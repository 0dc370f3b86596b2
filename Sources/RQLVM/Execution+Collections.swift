import RQLBytecode
import RQLCore

/// Instructions over collections of values: `CountElements` (`@count`, `@size`),
/// `CountMatching` (ANY / ALL / NONE) and `AggregateElements` (`@min`, `@max`, `@sum`,
/// `@avg`). Each writes one value per selected row into a value register; `FilterValue`
/// then compares it. A collection column is an offset range per row into its element column.
extension Execution {
    /// What one of these instructions computes from a row's element range.
    enum ElementReduction {
        case count
        case matching(ElementTest)
        case aggregate(AggregateFunction, overMixed: Bool)
    }

    func reduceElements(_ instruction: Op, _ reduction: ElementReduction, block: TableBlock) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        withSource(Int(instruction.p5), column: Int(instruction.p2), block: block) { view, through in
            let collection: CollectionColumnView?
            if case .collection(let c)? = view { collection = c } else { collection = nil }
            for j in 0..<count {
                let row = Int(rows[j])
                let at = through.map { $0[row] } ?? row
                // A row without a source (a null link on the way) has an empty collection.
                let range =
                    collection.flatMap { at >= 0 && at < $0.offsets.count - 1 ? $0.range(of: at) : nil } ?? 0..<0
                let elements = collection?.elements
                switch reduction {
                case .count:
                    out[row] = .int(Int64(range.count))
                case .matching(let test):
                    var n: Int64 = 0
                    for e in range where test.passes(elements?.scalarValue(at: e) ?? .null) { n += 1 }
                    out[row] = .int(n)
                case .aggregate(let function, let overMixed):
                    gathers.scratch.removeAll(keepingCapacity: true)
                    for e in range { gathers.scratch.append(elements?.scalarValue(at: e) ?? .null) }
                    out[row] = function.apply(to: gathers.scratch, overMixed: overMixed)
                }
            }
        }
    }
}
