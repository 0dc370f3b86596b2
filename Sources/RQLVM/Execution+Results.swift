import RQLBytecode
import RQLCore

/// The result steps: SORT, top-N, DISTINCT over the matching positions, with the reference
/// evaluator's key rules (`ValueOrdering`, a crossed null link after every value, `EqualityKey`
/// for distinctness). Keys of a plain column of the class are read column by column from the
/// typed view; any other key path is walked object by object (`Execution+KeyPaths.swift`).
extension Execution {
    typealias KeyValue = ResultKey

    /// The number of result rows so far (`keys` is always kept; `result` only when a later
    /// step reads positions).
    var resultCount: Int { keys.count }

    /// Keeps the first `count` result rows (`Limit`).
    func keepFirst(_ count: Int) {
        if keys.count > count { keys.removeSubrange(count...) }
        if result.count > count { result.removeSubrange(count...) }
    }

    /// Appends the row keys of a batch's `count` surviving rows (in-block offsets at `rows`) of
    /// `block` to the result, and their positions when the run keeps them (`keepsPositions`), in
    /// bulk: one capacity check per batch, not per row. A block's keys are read only when the
    /// store does not know them consecutive (`TableBlock.consecutiveKeysStart`) and it has
    /// survivors: a store file checks and maps a block's keys on first use.
    func appendRows(_ rows: UnsafeMutablePointer<Int32>, _ count: Int, block: TableBlock) {
        guard count > 0 else { return }
        let start = block.positions.lowerBound
        let offsets = UnsafeBufferPointer(start: rows, count: count)
        // Appended through locals: each access to a class's stored array is checked for
        // exclusivity, which would cost more than the append itself. Grown with zeros (a
        // vectorised fill), then written in one loop each: `append` per row checked capacity
        // and uniqueness every time.
        if keepsPositions {
            var positions = result
            result = []
            let base = positions.count
            Self.grow(&positions, by: count, bound: resultBound)
            positions.append(contentsOf: repeatElement(0, count: count))
            positions.withUnsafeMutableBufferPointer { out in
                for j in 0..<count { out[base &+ j] = start &+ Int(offsets[j]) }
            }
            result = positions
        }
        let known = block.consecutiveKeysStart
        let rowKeys = known == nil ? block.rowKeys : UnsafeBufferPointer(start: nil, count: 0)
        guard known != nil || !rowKeys.isEmpty else { return }
        var keys = self.keys
        self.keys = []
        let base = keys.count
        Self.grow(&keys, by: count, bound: resultBound)
        keys.append(contentsOf: repeatElement(RowKey(0), count: count))
        // Keys ascend and are distinct, so a block whose last key is its first plus its row
        // count less one holds consecutive keys (a store without deletions): each key is the
        // first plus the offset, without reading the block's keys past its ends. Reading them
        // cost a scan its second pass over memory (Q1 at 1M rows reads about half of the keys'
        // cache lines for the 9 % of rows it emits).
        let span = rowKeys.count &- 1
        let firstKey =
            known ?? (rowKeys[span].rawValue &- rowKeys[0].rawValue == Int64(span) ? rowKeys[0].rawValue : nil)
        keys.withUnsafeMutableBufferPointer { out in
            if let firstKey {
                for j in 0..<count { out[base &+ j] = RowKey(firstKey &+ Int64(offsets[j])) }
            } else {
                for j in 0..<count { out[base &+ j] = rowKeys[Int(offsets[j])] }
            }
        }
        self.keys = keys
    }

    /// Makes room for `count` more elements. The first time, room for `bound` (the most rows
    /// the run can emit: the candidates, or the LIMIT): growing by doubling copied the result
    /// again and again, and at 10M rows, where each new buffer is fresh pages from the kernel,
    /// emitting 3M rows (Q8) spent 85 % of its run there. Memory the run does not fill is
    /// reserved, never touched. Past `bound` (not expected), capacity doubles.
    @inline(__always)
    static func grow<Element>(_ array: inout [Element], by count: Int, bound: Int) {
        let needed = array.count &+ count
        if array.capacity < needed {
            array.reserveCapacity(Swift.max(needed, array.capacity == 0 ? bound : 2 &* array.capacity))
        }
    }

    /// Keeps the result rows at `indices`, in that order.
    func reorder(_ indices: [Int]) {
        result = indices.map { result[$0] }
        keys = indices.map { keys[$0] }
    }

    /// Each key's value for each position: `keys[k][i]` is key `k` of `positions[i]`.
    func keyValues(_ paths: [BoundPath], at positions: [Int]) -> [[KeyValue]] {
        guard let table else { return [] }
        return paths.map { path in
            if let column = directColumn(path, table: table) {
                let direct: [KeyValue]? = table.withColumn(column) { view in
                    var values: [KeyValue] = []
                    values.reserveCapacity(positions.count)
                    for position in positions {
                        guard let value = view.scalarValue(at: position) else { return nil }
                        values.append(.value(value))
                    }
                    return values
                }
                if let direct { return direct }
            }
            return positions.map { keyValue(of: path, table: table, position: $0) }
        }
    }

    /// The column a key path reads when it is one scalar property of the scanned class.
    func directColumn(_ path: BoundPath, table: Store.Table) -> Int? {
        guard path.root == .object, path.steps.count == 1,
            case .property(let className, let index, _) = path.steps[0],
            className == table.objectSchema.name, index >= 0, index < table.objectSchema.properties.count
        else { return nil }
        let property = table.objectSchema.properties[index]
        guard property.collection == .single, !property.isLink, !property.isBacklink else { return nil }
        return index
    }

    /// Whether row `a` sorts before row `b` (indices into the key columns); ties keep order.
    @inline(__always)
    private func precedes(_ a: Int, _ b: Int, _ columns: [[KeyValue]], _ keys: [BoundSortKey]) -> Bool {
        for (k, key) in keys.enumerated() {
            var order = ResultKey.compare(columns[k][a], columns[k][b], caseInsensitive: key.caseInsensitive)
            if !key.ascending { order = -order }
            if order != 0 { return order < 0 }
        }
        return a < b
    }

    /// The indices of `positions` in stable sort order.
    func sorted(_ positions: [Int], by keys: [BoundSortKey]) -> [Int] {
        guard positions.count > 1 else { return Array(positions.indices) }
        switch typedKeys(keys, at: positions) {
        case .int(let values)?: return Self.order(values, ascending: keys[0].ascending)
        case .double(let values)?: return Self.order(values, ascending: keys[0].ascending)
        case nil: break
        }
        let columns = keyValues(keys.map(\.path), at: positions)
        return (0..<positions.count).sorted { precedes($0, $1, columns, keys) }
    }

    /// The first `count` rows of the stable sort: a bounded, ordered candidate list that a row
    /// enters only if it sorts before the current last.
    func top(_ count: Int, of positions: [Int], by keys: [BoundSortKey]) -> [Int] {
        guard count > 0 else { return [] }
        if positions.count <= count { return sorted(positions, by: keys) }
        if let typed = typedTop(count, of: positions, by: keys) { return typed }
        let columns = keyValues(keys.map(\.path), at: positions)
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        for row in 0..<positions.count {
            if best.count == count, let last = best.last, !precedes(row, last, columns, keys) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(best[mid], row, columns, keys) { low = mid + 1 } else { high = mid }
            }
            best.insert(row, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    /// Keeps the first row of each distinct tuple, by hashing `EqualityKey`s; rows whose key
    /// path crosses a null link are dropped.
    /// The indices of the first row of each distinct tuple.
    func distinct(_ positions: [Int], by paths: [BoundPath]) -> [Int] {
        let columns = keyValues(paths, at: positions)
        var kept: [Int] = []
        if columns.count == 1 {
            // One key: no tuple to allocate per row.
            var seen = Set<EqualityKey>(minimumCapacity: positions.count)
            for (row, key) in columns[0].enumerated() {
                guard case .value(let value) = key else { continue }
                if seen.insert(EqualityKey(value)).inserted { kept.append(row) }
            }
            return kept
        }
        if columns.count == 2 {
            // Two keys: a pair, again without an array per row.
            var seen = Set<KeyPair>(minimumCapacity: positions.count)
            for row in positions.indices {
                guard case .value(let first) = columns[0][row], case .value(let second) = columns[1][row] else {
                    continue
                }
                if seen.insert(KeyPair(first: EqualityKey(first), second: EqualityKey(second))).inserted {
                    kept.append(row)
                }
            }
            return kept
        }
        var seen = Set<[EqualityKey]>(minimumCapacity: positions.count)
        rows: for row in positions.indices {
            var tuple: [EqualityKey] = []
            tuple.reserveCapacity(paths.count)
            for column in columns {
                guard case .value(let value) = column[row] else { continue rows }
                tuple.append(EqualityKey(value))
            }
            if seen.insert(tuple).inserted { kept.append(row) }
        }
        return kept
    }
}

/// Two distinct keys of one row.
struct KeyPair: Hashable {
    let first: EqualityKey
    let second: EqualityKey
}
