import RQLCore

/// One class's rows in a `ColumnStore` snapshot: columns, row keys, indexes and backlinks.
///
/// ```swift
/// let dogs = store.table(named: "Dog")!
/// dogs.value(at: 0, property: dogs.objectSchema.propertyIndex(named: "name")!)  // .string("Rex")
/// ```
package struct ColumnTable: TableReader {
    /// The table's parts, in one shared object: a `ColumnTable` is copied wherever a reader
    /// holds it (the VM keeps one per run and copies it at each instruction that reads it), and
    /// a copy of eleven reference-counted fields cost ~400 instructions, a copy of one ~20.
    private let parts: Parts

    private final class Parts: Sendable {
        let objectSchema: ObjectSchema
        let rowCount: Int
        let rowKeys: [RowKey]
        let positionsByKey: [RowKey: Int]?
        let columns: [Column]
        let primaryKeyIndex: PrimaryKeyIndex?
        let hashIndexes: [Int: [EqualityKey: [Int]]]
        let sortedIndexes: [Int: SortedIndex]
        let fullTextIndexes: [Int: FullTextIndex]
        let backlinkLists: [BacklinkOrigin: BacklinkList]
        let backlinkCounts: [Int]

        init(
            objectSchema: ObjectSchema,
            rowCount: Int,
            rowKeys: [RowKey],
            positionsByKey: [RowKey: Int]?,
            columns: [Column],
            primaryKeyIndex: PrimaryKeyIndex?,
            hashIndexes: [Int: [EqualityKey: [Int]]],
            sortedIndexes: [Int: SortedIndex],
            fullTextIndexes: [Int: FullTextIndex],
            backlinkLists: [BacklinkOrigin: BacklinkList],
            backlinkCounts: [Int]
        ) {
            self.objectSchema = objectSchema
            self.rowCount = rowCount
            self.rowKeys = rowKeys
            self.positionsByKey = positionsByKey
            self.columns = columns
            self.primaryKeyIndex = primaryKeyIndex
            self.hashIndexes = hashIndexes
            self.sortedIndexes = sortedIndexes
            self.fullTextIndexes = fullTextIndexes
            self.backlinkLists = backlinkLists
            self.backlinkCounts = backlinkCounts
        }
    }

    init(
        objectSchema: ObjectSchema,
        rowCount: Int,
        rowKeys: [RowKey],
        positionsByKey: [RowKey: Int]?,
        columns: [Column],
        primaryKeyIndex: PrimaryKeyIndex?,
        hashIndexes: [Int: [EqualityKey: [Int]]],
        sortedIndexes: [Int: SortedIndex],
        fullTextIndexes: [Int: FullTextIndex],
        backlinkLists: [BacklinkOrigin: BacklinkList],
        backlinkCounts: [Int]
    ) {
        parts = Parts(
            objectSchema: objectSchema,
            rowCount: rowCount,
            rowKeys: rowKeys,
            positionsByKey: positionsByKey,
            columns: columns,
            primaryKeyIndex: primaryKeyIndex,
            hashIndexes: hashIndexes,
            sortedIndexes: sortedIndexes,
            fullTextIndexes: fullTextIndexes,
            backlinkLists: backlinkLists,
            backlinkCounts: backlinkCounts
        )
    }

    public var objectSchema: ObjectSchema { parts.objectSchema }
    public var rowCount: Int { parts.rowCount }
    var rowKeys: [RowKey] { parts.rowKeys }
    /// `nil` while every row's key equals its position (the common case: no deletions yet).
    var positionsByKey: [RowKey: Int]? { parts.positionsByKey }
    var columns: [Column] { parts.columns }
    var primaryKeyIndex: PrimaryKeyIndex? { parts.primaryKeyIndex }
    var hashIndexes: [Int: [EqualityKey: [Int]]] { parts.hashIndexes }
    /// One per property whose `Property.hasSortedIndex` is true, for range lookups.
    var sortedIndexes: [Int: SortedIndex] { parts.sortedIndexes }
    var fullTextIndexes: [Int: FullTextIndex] { parts.fullTextIndexes }
    /// Per origin (class, property): for each row, the keys of the origin objects linking to it.
    var backlinkLists: [BacklinkOrigin: BacklinkList] { parts.backlinkLists }
    var backlinkCounts: [Int] { parts.backlinkCounts }

    public func rowKey(at position: Int) -> RowKey { rowKeys[position] }

    public func position(of key: RowKey) -> Int? {
        if let positionsByKey { return positionsByKey[key] }
        return key.rawValue >= 0 && key.rawValue < Int64(rowCount) ? Int(key.rawValue) : nil
    }

    public func withColumn<R>(_ property: Int, _ body: (ColumnView) throws -> R) rethrows -> R {
        try columns[property].withView(body)
    }

    public var blockCount: Int { Self.fullBlockCount(rowCount: rowCount) }

    /// Blocks are fixed slices of the whole-table arrays: block `b` is positions
    /// `b * capacity ..< min((b + 1) * capacity, rowCount)`.
    public func withBlock<R>(
        _ index: Int,
        columns selection: ColumnSelection,
        _ body: (TableBlock) throws -> R
    ) rethrows -> R {
        let lower = index * TableBlock.capacity
        let positions = lower..<Swift.min(lower + TableBlock.capacity, rowCount)
        let count = selection.columnCount(below: columns.count)
        return try rowKeys.withUnsafeBufferPointer { keys in
            let rowKeys = UnsafeBufferPointer(rebasing: keys[positions])
            // No column (an index probe whose rows need no test): no array, no view.
            guard count > 0 else { return try body(TableBlock(positions: positions, rowKeys: rowKeys, columns: [])) }
            // One array for the block's views, filled as the nested `withView` calls open them
            // (a scan calls this once a block: an array per column was measurable).
            // Each view is valid only inside its own nested `withView` call: past a few dozen
            // columns the block is copied instead, so that the stack does not grow per property.
            guard count <= Self.nestedViewLimit else {
                return try withCopiedViews(upTo: count, selection, rows: positions) { views in
                    try body(TableBlock(positions: positions, rowKeys: rowKeys, columns: views))
                }
            }
            var views: [ColumnView] = []
            views.reserveCapacity(count)
            return try withColumnViews(from: 0, upTo: count, selection, slicing: positions, into: &views) { views in
                try body(TableBlock(positions: positions, rowKeys: rowKeys, columns: views))
            }
        }
    }

    /// Opens the selected columns' views from `property` up to `end` (each one's buffers are only
    /// valid inside its own `withView` call, so they nest), appends each one's slice of `rows` to
    /// `views` (`TableBlock.unopened` for the others), and calls `body` with all of them.
    private func withColumnViews<R>(
        from property: Int,
        upTo end: Int,
        _ selection: ColumnSelection,
        slicing rows: Range<Int>,
        into views: inout [ColumnView],
        _ body: ([ColumnView]) throws -> R
    ) rethrows -> R {
        var property = property
        while property < end && !selection.contains(property) {
            views.append(TableBlock.unopened)
            property += 1
        }
        guard property < end else { return try body(views) }
        return try columns[property].withView { view in
            views.append(view.slice(rows))
            return try withColumnViews(from: property + 1, upTo: end, selection, slicing: rows, into: &views, body)
        }
    }

    public func value(at position: Int, property: Int) -> Value {
        columns[property].value(at: position)
    }

    public func position(ofPrimaryKey key: Value) -> Int? {
        primaryKeyIndex?.position(of: key)
    }

    public func indexLookup(property: Int, equalTo value: Value) -> [Int]? {
        if NumericComparison.isNaN(value) { return hashIndexes[property] == nil ? nil : [] }
        if property == objectSchema.primaryKeyIndex {
            return primaryKeyIndex?.position(of: value).map { [$0] } ?? []
        }
        return hashIndexes[property].map { $0[EqualityKey(value)] ?? [] }
    }

    public func indexRange(
        property: Int,
        lower: Value?,
        lowerInclusive: Bool,
        upper: Value?,
        upperInclusive: Bool
    ) -> [Int]? {
        sortedIndexes[property]?.positions(
            lower: lower,
            lowerInclusive: lowerInclusive,
            upper: upper,
            upperInclusive: upperInclusive
        )
    }

    public func fullTextLookup(property: Int, token: String, prefix: Bool) -> [Int]? {
        fullTextIndexes[property]?.lookup(token, prefix: prefix)
    }

    public func backlinks(at position: Int, fromClass className: String, property: String) -> [RowKey] {
        backlinkLists[BacklinkOrigin(className: className, property: property)].map { Array($0[position]) } ?? []
    }

    public func backlinkCount(at position: Int) -> Int { backlinkCounts[position] }

    public func statistics(property: Int) -> ColumnStatistics {
        ColumnStatistics(
            rowValues: (0..<rowCount).lazy.map { columns[property].value(at: $0) },
            flatten: objectSchema.properties[property].isToMany
        )
    }

    /// Whether the table has a hash index (or the primary key) on `property`.
    public func hasIndex(property: Int) -> Bool {
        hashIndexes[property] != nil || property == objectSchema.primaryKeyIndex
    }
}

/// A link property that can point at a table's rows: the origin class and property names.
struct BacklinkOrigin: Hashable, Sendable {
    let className: String
    let property: String
}
