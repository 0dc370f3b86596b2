import RQLBytecode
import RQLCore

/// SORT and top-N on one key that is an int or double column of the scanned class (`SORT(score
/// DESC) LIMIT(10)`): the keys at the result's positions are gathered into a typed buffer, a
/// block's view at a time, and compared as numbers, so each comparison is one typed compare and
/// no `Value` is made. For top-N, the first N are kept with a threshold. NaN and null keys, whose
/// place in `ValueOrdering` the general path knows, fall back to it.
extension Execution {
    /// The typed keys of a one-key sort (see above), or nil.
    enum TypedSortKeys {
        case int([Int64])
        case double([Double])
    }

    func typedTop(_ count: Int, of positions: [Int], by keys: [BoundSortKey]) -> [Int]? {
        switch typedKeys(keys, at: positions) {
        case .int(let values)?: Self.top(count, values, ascending: keys[0].ascending)
        case .double(let values)?: Self.top(count, values, ascending: keys[0].ascending)
        case nil: nil
        }
    }

    /// The key of each of `positions` when `keys` is one int or double column of the scanned
    /// class and none of them is null or NaN; nil otherwise.
    func typedKeys(_ keys: [BoundSortKey], at positions: [Int]) -> TypedSortKeys? {
        guard keys.count == 1, let table, let column = directColumn(keys[0].path, table: table) else { return nil }
        switch table.objectSchema.properties[column].type {
        case .int:
            return gather(column, at: positions, table: table) { view, row in
                guard case .int(let values) = view, !values.nulls.isNull(row) else { return nil }
                return values.values[row]
            }.map(TypedSortKeys.int)
        case .double:
            return gather(column, at: positions, table: table) { view, row in
                guard case .double(let values) = view, !values.nulls.isNull(row), !values.values[row].isNaN else {
                    return nil
                }
                return values.values[row]
            }.map(TypedSortKeys.double)
        default:
            return nil
        }
    }

    /// `read` of column `column` at each of `positions`, from the view of the block holding it
    /// (a run of positions in one block shares one opening of it); nil as soon as `read` is, or
    /// a position is outside the table.
    private func gather<T>(
        _ column: Int,
        at positions: [Int],
        table: Store.Table,
        _ read: (ColumnView, Int) -> T?
    ) -> [T]? {
        var values: [T] = []
        values.reserveCapacity(positions.count)
        var locator = BlockLocator(table: table)
        let selection = ColumnSelection([column])
        var index = 0
        while index < positions.count {
            guard let found = locator.block(containing: positions[index]) else { return nil }
            let start = found.start
            let complete: Bool = table.withBlock(found.block, columns: selection) { block in
                guard column < block.columns.count else { return false }
                let view = block.columns[column]
                let end = block.positions.upperBound
                while index < positions.count {
                    let position = positions[index]
                    guard position >= start && position < end else { return true }
                    guard let value = read(view, position - start) else { return false }
                    values.append(value)
                    index += 1
                }
                return true
            }
            if !complete { return nil }
        }
        return values
    }

    /// The indices of `keys` in stable order (ties by index).
    static func order<T: Comparable>(_ keys: [T], ascending: Bool) -> [Int] {
        keys.withUnsafeBufferPointer { keys in
            Array(keys.indices).sorted { a, b in
                let x = keys[a]
                let y = keys[b]
                if x == y { return a < b }
                return ascending ? x < y : x > y
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
