import RQLBytecode
import RQLCore

/// Top-N on one key that is an int or double column of the scanned class without nulls
/// (`SORT(score DESC) LIMIT(10)`): the keys are gathered into a typed buffer and the first N
/// are kept with a threshold, so each row costs one typed comparison. NaN and null keys, whose
/// place in `ValueOrdering` the general path knows, fall back to it.
extension Execution {
    func typedTop(_ count: Int, of positions: [Int], by keys: [BoundSortKey]) -> [Int]? {
        guard keys.count == 1, let table, let column = directColumn(keys[0].path, table: table) else { return nil }
        let ascending = keys[0].ascending
        return table.withColumn(column) { view -> [Int]? in
            switch view {
            case .int(let values) where !values.nulls.hasNulls:
                return Self.top(count, positions.map { values.values[$0] }, ascending: ascending)
            case .double(let values) where !values.nulls.hasNulls:
                var gathered: [Double] = []
                gathered.reserveCapacity(positions.count)
                for position in positions {
                    let value = values.values[position]
                    if value.isNaN { return nil }
                    gathered.append(value)
                }
                return Self.top(count, gathered, ascending: ascending)
            default:
                return nil
            }
        }
    }

    /// The indices of the first `count` keys in stable order (ties by index).
    static func top<T: Comparable>(_ count: Int, _ keys: [T], ascending: Bool) -> [Int] {
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        // Whether index a sorts strictly before index b.
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let x = keys[a]
            let y = keys[b]
            if x == y { return a < b }
            return ascending ? x < y : x > y
        }
        for row in keys.indices {
            if best.count == count {
                // The threshold: a row enters only if it sorts before the current last.
                let last = keys[best[count - 1]]
                let key = keys[row]
                if ascending ? !(key < last) : !(key > last) { continue }
            }
            var low = 0
            var high = best.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(best[mid], row) { low = mid + 1 } else { high = mid }
            }
            best.insert(row, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }
}
