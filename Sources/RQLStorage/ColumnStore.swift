import RQLCore

/// The column-major tables `ObjectGraphBuilder` produces, read by `WriteTransaction.importObjects`
/// while `DatasetLoader` still builds a dataset in memory before importing it into a
/// `BlockStore`. Temporary: it goes with the loader's streaming path (issue 17).
package struct ColumnStore: StoreReader {
    package let schema: Schema
    package let version: UInt64
    private let tables: [ColumnTable]

    package func table(named className: String) -> ColumnTable? {
        schema.classIndex(named: className).map { tables[$0] }
    }

    /// Builds a snapshot from column-major inputs: per class, the row keys and one column per
    /// stored property (`nil` for backlinks), plus the values of link-holding properties.
    package init(schema: Schema, inputs: [String: TableInput], version: UInt64) {
        self.schema = schema
        self.version = version
        let backlinks = ColumnStore.computeBacklinks(schema: schema, inputs: inputs)
        tables = schema.classes.map { objectSchema in
            let input = inputs[objectSchema.name] ?? TableInput(keys: [], columns: [])
            return ColumnStore.buildTable(
                objectSchema,
                input,
                backlinks: backlinks[objectSchema.name] ?? BacklinkTable(rowCount: input.keys.count)
            )
        }
    }

    private static func buildTable(
        _ objectSchema: ObjectSchema,
        _ input: TableInput,
        backlinks: BacklinkTable
    )
        -> ColumnTable
    {
        let rowCount = input.keys.count
        var columns: [Column] = []
        for (index, property) in objectSchema.properties.enumerated() {
            if index < input.columns.count, let column = input.columns[index] {
                columns.append(column)
                continue
            }
            if case .linkingObjects(let originClass, let originProperty) = property.type {
                let list = backlinks.lists[BacklinkOrigin(className: originClass, property: originProperty)]
                let offsets = list?.offsets ?? [Int](repeating: 0, count: rowCount + 1)
                let keys = list?.keys.map(\.rawValue) ?? []
                columns.append(
                    .collection(
                        CollectionColumn(
                            kind: .list,
                            offsets: offsets,
                            elements: .link(target: originClass, keys: keys),
                            keys: nil
                        )
                    )
                )
            } else {
                columns.append(ColumnBuilder.build([Value](repeating: .null, count: rowCount), for: property))
            }
        }
        var hashIndexes: [Int: [EqualityKey: [Int]]] = [:]
        var fullTextIndexes: [Int: FullTextIndex] = [:]
        var sortedIndexes: [Int: SortedIndex] = [:]
        for (column, property) in objectSchema.properties.enumerated() {
            if property.hasSortedIndex {
                sortedIndexes[column] = columns[column].withView { SortedIndex(column: $0, rowCount: rowCount) }
            }
            if property.isIndexed {
                var postings: [EqualityKey: [Int]] = [:]
                for row in 0..<rowCount {
                    postings[EqualityKey(columns[column].value(at: row)), default: []].append(row)
                }
                hashIndexes[column] = postings
            }
            if property.isFullText {
                fullTextIndexes[column] = FullTextIndex(column: columns[column], rowCount: rowCount)
            }
        }
        let dense = input.keys.enumerated().allSatisfy { $0.element.rawValue == Int64($0.offset) }
        return ColumnTable(
            objectSchema: objectSchema,
            rowCount: rowCount,
            rowKeys: input.keys,
            positionsByKey: dense
                ? nil : Dictionary(uniqueKeysWithValues: input.keys.enumerated().map { ($0.element, $0.offset) }),
            columns: columns,
            primaryKeyIndex: objectSchema.primaryKeyIndex.map {
                PrimaryKeyIndex(column: columns[$0], rowCount: rowCount)
            },
            hashIndexes: hashIndexes,
            sortedIndexes: sortedIndexes,
            fullTextIndexes: fullTextIndexes,
            backlinkLists: backlinks.lists,
            backlinkCounts: backlinks.counts
        )
    }

    /// For every class: which origin rows link to each of its rows, per origin property. Links
    /// are read from the built columns, and each origin's backlinks are counted first and then
    /// filled into one flat array, so a million targets cost two arrays, not a million.
    private static func computeBacklinks(schema: Schema, inputs: [String: TableInput]) -> [String: BacklinkTable] {
        var result: [String: BacklinkTable] = [:]
        // Per class: key → position, or nil while keys equal positions (no map needed).
        var positions: [String: (count: Int, map: [RowKey: Int]?)] = [:]
        for objectSchema in schema.classes {
            let keys = inputs[objectSchema.name]?.keys ?? []
            result[objectSchema.name] = BacklinkTable(rowCount: keys.count)
            let dense = keys.enumerated().allSatisfy { $0.element.rawValue == Int64($0.offset) }
            positions[objectSchema.name] = (
                keys.count,
                dense
                    ? nil
                    : Dictionary(keys.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            )
        }
        func position(of link: ObjectLink) -> Int? {
            guard let entry = positions[link.className] else { return nil }
            if let map = entry.map { return map[link.key] }
            let key = link.key.rawValue
            return key >= 0 && key < Int64(entry.count) ? Int(key) : nil
        }
        for objectSchema in schema.classes {
            guard let input = inputs[objectSchema.name] else { continue }
            for (index, property) in objectSchema.properties.enumerated() where !property.isBacklink {
                guard index < input.columns.count, let column = input.columns[index], column.canHoldLinks else {
                    continue
                }
                let origin = BacklinkOrigin(className: objectSchema.name, property: property.name)
                let rows = 0..<input.keys.count
                var counts: [String: [Int]] = [:]
                for row in rows {
                    column.forEachLink(at: row) { link in
                        guard let target = position(of: link) else { return }
                        counts[link.className, default: [Int](repeating: 0, count: positions[link.className]!.count)][
                            target
                        ] += 1
                    }
                }
                var cursors: [String: [Int]] = [:]
                var lists: [String: BacklinkList] = [:]
                for (className, perRow) in counts {
                    var offsets = [0]
                    offsets.reserveCapacity(perRow.count + 1)
                    for count in perRow { offsets.append(offsets[offsets.count - 1] + count) }
                    cursors[className] = offsets
                    lists[className] = BacklinkList(
                        offsets: offsets,
                        keys: [RowKey](repeating: RowKey(0), count: offsets.last!)
                    )
                    for (row, count) in perRow.enumerated() { result[className]?.counts[row] += count }
                }
                for row in rows {
                    column.forEachLink(at: row) { link in
                        guard let target = position(of: link) else { return }
                        let slot = cursors[link.className]![target]
                        cursors[link.className]![target] += 1
                        lists[link.className]!.keys[slot] = input.keys[row]
                    }
                }
                for (className, list) in lists { result[className]?.lists[origin] = list }
            }
        }
        return result
    }
}

/// The rows of one table in row-major form: each row's key and its property values.
package struct TableRows: Sendable {
    package var keys: [RowKey] = []
    package var rows: [[Value]] = []

    package init(keys: [RowKey] = [], rows: [[Value]] = []) {
        self.keys = keys
        self.rows = rows
    }
}

/// One table ready to be assembled: row keys and built columns (`nil` where the store computes
/// the column: backlinks).
package struct TableInput {
    var keys: [RowKey]
    var columns: [Column?]
}

/// Backlinks into one table from one origin property: row `p`'s origin keys are
/// `keys[offsets[p] ..< offsets[p + 1]]`, in origin row order.
struct BacklinkList: Sendable {
    var offsets: [Int]
    var keys: [RowKey]

    subscript(position: Int) -> ArraySlice<RowKey> { keys[offsets[position]..<offsets[position + 1]] }
}

/// Backlinks into one table while a snapshot is built.
struct BacklinkTable {
    var lists: [BacklinkOrigin: BacklinkList] = [:]
    var counts: [Int]

    init(rowCount: Int) {
        counts = [Int](repeating: 0, count: rowCount)
    }
}
