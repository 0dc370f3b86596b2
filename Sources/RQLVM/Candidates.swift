import RQLBytecode
import RQLCore

/// Where the batches of a run come from, as the access path decided.
enum Candidates {
    /// Every row, block by block.
    case all
    /// Exactly these positions, in this order (ascending from an index, or a caller's order).
    case positions([Int])
}

extension Execution {
    /// The candidate positions of an access-path instruction.
    func candidates(for instruction: Op, table: Store.Table) -> Candidates {
        Candidates.of(instruction, constant(instruction.p4), table: table)
    }
}

extension Candidates {
    /// The candidate positions of an access-path instruction whose P4 constant is `constant`
    /// (a run's, or a `DirectProbe`'s without a run).
    static func of<Table: TableReader>(_ instruction: Op, _ constant: Constant?, table: Table) -> Candidates {
        switch instruction.opcode {
        case .scanNothing:
            return .positions([])
        case .seekPrimaryKey:
            guard case .values(let values)? = constant else { return .positions([]) }
            let found = values.compactMap { table.position(ofPrimaryKey: $0) }
            if found.count <= 1 { return .positions(found) }
            return .positions(Array(Set(found)).sorted())
        case .seekIndexEqual:
            guard case .values(let values)? = constant else { return .positions([]) }
            let column = Int(instruction.p1)
            if values.count == 1, let hits = table.indexLookup(property: column, equalTo: values[0]) {
                // One value: the index's answer is already ascending and duplicate-free.
                return .positions(hits)
            }
            var found = Set<Int>()
            for value in values {
                if let hits = table.indexLookup(property: column, equalTo: value) {
                    found.formUnion(hits)
                } else {
                    // No index in this store: the equality is tested here instead.
                    return .positions(
                        scanPositions(table) { v in
                            values.contains { ValueComparison.evaluate(v, .equal, $0) }
                        }(column)
                    )
                }
            }
            return .positions(found.sorted())
        case .seekIndexRange:
            guard case .range(let lower, let lowerInclusive, let upper, let upperInclusive)? = constant
            else { return .positions([]) }
            let column = Int(instruction.p1)
            if let hits = table.indexRange(
                property: column,
                lower: lower,
                lowerInclusive: lowerInclusive,
                upper: upper,
                upperInclusive: upperInclusive
            ) {
                return .positions(hits)
            }
            return .positions(
                scanPositions(table) { v in
                    if let lower {
                        guard ValueComparison.evaluate(v, lowerInclusive ? .greaterOrEqual : .greater, lower) else {
                            return false
                        }
                    }
                    if let upper {
                        guard ValueComparison.evaluate(v, upperInclusive ? .lessOrEqual : .less, upper) else {
                            return false
                        }
                    }
                    return !v.isNull
                }(column)
            )
        case .scanTable:
            return .all
        case .halt, .goto, .explain, .openTable, .nextBatch, .filterInt, .filterDouble, .filterFloat,
            .filterBool, .filterDate, .filterString, .filterNull, .filterIntIn, .filterStringIn, .selectCopy,
            .selectUnion, .selectExcept, .selectClear, .emit, .sort, .topN, .distinct, .limit:
            return .all
        case .gatherLink, .loadColumn, .countElements, .countMatching, .aggregateElements, .filterValue,
            .filterValueIn:
            return .all
        case .loadConstant, .arithmetic, .compareValues, .filterType, .valueSize, .countBacklinks:
            return .all
        case .loadElement, .reducePath, .gatherElement, .filterValueList, .reducePathAgainst,
            .filterText, .filterGeoWithin, .filterMatches, .countSubquery:
            return .all
        case .loadGroups, .compareGroups:
            return .all
        case .loadParameter, .loadObjectLink, .compareSequences:
            return .all
        }
    }

    private static func scanPositions<Table: TableReader>(
        _ table: Table,
        _ test: @escaping (Value) -> Bool
    ) -> (Int) -> [Int] {
        { column in (0..<table.rowCount).filter { test(table.value(at: $0, property: column)) } }
    }

}

/// Finds the block holding a position: a guess for full blocks, checked, else a binary search
/// over the blocks' first positions; remembers the last block found.
struct BlockLocator<Table: TableReader> {
    let table: Table
    private var last: (block: Int, range: Range<Int>)?

    init(table: Table) { self.table = table }

    /// The block to try first for `position`: the block `known` to hold it, else the one it would
    /// be in if every block were full. A caller checks the guess in the same `withBlock` call that
    /// reads the block, and searches (`block(containing:)`) only when it was wrong.
    static func guess(for position: Int, known: (block: Int, range: Range<Int>)?, blockCount: Int) -> Int {
        if let known, known.range.contains(position) { return known.block }
        return min(position / TableBlock.capacity, blockCount - 1)
    }

    mutating func block(containing position: Int) -> (block: Int, start: Int)? {
        if let last, last.range.contains(position) { return (last.block, last.range.lowerBound) }
        let blockCount = table.blockCount
        guard blockCount > 0 else { return nil }
        let guess = Self.guess(for: position, known: nil, blockCount: blockCount)
        let guessed = table.withBlock(guess, columns: .none) { $0.positions }
        if guessed.contains(position) {
            last = (guess, guessed)
            return (guess, guessed.lowerBound)
        }
        var low = 0
        var high = blockCount - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = table.withBlock(mid, columns: .none) { $0.positions }
            if range.contains(position) {
                last = (mid, range)
                return (mid, range.lowerBound)
            }
            if position < range.lowerBound { high = mid - 1 } else { low = mid + 1 }
        }
        return nil
    }
}
