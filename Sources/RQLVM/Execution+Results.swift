import RQLBytecode
import RQLCore

/// The result steps: SORT, top-N, DISTINCT over the matching positions, with the row
/// evaluator's key reading and `ValueOrdering` (the reference evaluator's rules).
extension Execution {
    func sorted(_ positions: [Int], by keys: [RowSortKey]) -> [Int] {
        guard let table, positions.count > 1 else { return positions }
        let rows = positions.map { RowEvaluator<Store>.ObjectRef(table: table, position: $0) }
        return evaluator.sort(rows, by: keys).map(\.position)
    }

    /// The first `count` rows of the stable sort, keeping a bounded candidate list: each row's
    /// keys are read once, and a row enters only if it sorts before the current last.
    func top(_ count: Int, of positions: [Int], by keys: [RowSortKey]) -> [Int] {
        guard let table, count > 0 else { return [] }
        if positions.count <= count { return sorted(positions, by: keys) }
        typealias Decorated = (offset: Int, position: Int, keys: [RowEvaluator<Store>.KeyValue])
        func before(_ a: Decorated, _ b: Decorated) -> Bool {
            for (index, key) in keys.enumerated() {
                var order = RowEvaluator<Store>.compare(a.keys[index], b.keys[index], caseInsensitive: key.caseInsensitive)
                if !key.ascending { order = -order }
                if order != 0 { return order < 0 }
            }
            return a.offset < b.offset
        }
        var best: [Decorated] = []
        best.reserveCapacity(count + 1)
        for (offset, position) in positions.enumerated() {
            let row = RowEvaluator<Store>.ObjectRef(table: table, position: position)
            let decorated = (offset, position, keys.map { evaluator.keyValue(of: $0.path, for: row) })
            if best.count == count, let last = best.last, !before(decorated, last) { continue }
            // Binary search for the insertion point (stable: after equal keys, offsets ascend).
            var low = 0
            var high = best.count
            while low < high {
                let mid = (low + high) / 2
                if before(best[mid], decorated) { low = mid + 1 } else { high = mid }
            }
            best.insert(decorated, at: low)
            if best.count > count { best.removeLast() }
        }
        return best.map(\.position)
    }

    func distinct(_ positions: [Int], by paths: [RowPath]) -> [Int] {
        guard let table else { return [] }
        let rows = positions.map { RowEvaluator<Store>.ObjectRef(table: table, position: $0) }
        return evaluator.distinct(rows, by: paths).map(\.position)
    }
}
