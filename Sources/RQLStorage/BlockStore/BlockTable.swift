import RQLCore

/// One class's table in a `BlockSnapshot`: blocks of at most `TableBlock.capacity` rows in
/// ascending key order, read in place.
///
/// `withBlock` hands out views that point straight into the block's arrays; `value(at:)`
/// finds the block by binary search over block starts; key → position is a binary search over
/// the blocks' first keys, then within the block. Index lookups return positions ascending.
///
/// ```swift
/// let dogs = store.snapshot.table(named: "Dog")!
/// for b in 0..<dogs.blockCount {
///     dogs.withBlock(b) { block in print(block.positions, block.rowKeys.first!) }
/// }
/// ```
public struct BlockTable: TableReader {
    let data: TableData
    /// The pin of the file version the table was taken from (its pages stay readable).
    let pin: VersionPin?

    init(data: TableData, pin: VersionPin? = nil) {
        self.data = data
        self.pin = pin
    }

    public var objectSchema: ObjectSchema { data.objectSchema }

    /// The first damaged block met so far in the table's file (see `BlockSnapshot.fileDamage`).
    public var fileDamage: StoreFileError? { pin?.damage }

    public var rowCount: Int { data.rowCount }

    public func rowKey(at position: Int) -> RowKey { RowKey(data.key(at: position)) }

    public func position(of key: RowKey) -> Int? { data.position(of: key.rawValue) }

    public var blockCount: Int { data.blocks.count }

    /// Drops this process's resident copy of the file pages of the blocks holding `positions`
    /// (a later read faults them in again): a pass that reads a large file once, a block at a
    /// time, then keeps a block of it resident, not the file. Nothing for a table in memory.
    package func releaseMappedPages(positions: Range<Int>) {
        guard !positions.isEmpty, positions.upperBound <= rowCount else { return }
        let first = data.locate(positions.lowerBound).block
        let last = data.locate(positions.upperBound - 1).block
        for b in first...last { data.blocks[b].releaseMappedPages() }
    }

    public func withBlock<R>(
        _ index: Int,
        columns selection: ColumnSelection,
        _ body: (TableBlock) throws -> R
    ) rethrows -> R {
        let block = data.blocks[index]
        let count = selection.columnCount(below: block.columnCount)
        var derived: [BacklinkColumn] = []
        var columns: [ColumnView] = []
        columns.reserveCapacity(count)
        for c in 0..<count {
            guard selection.contains(c) else {
                columns.append(TableBlock.unopened)
                continue
            }
            let segment = block.column(c)
            if case .backlinks = segment {
                let column = backlinkColumn(block: index, property: c)
                derived.append(column)
                columns.append(column.view)
            } else {
                columns.append(segment.view(count: block.count))
            }
        }
        let start = data.blocks.start(of: index)
        let positions = start..<start + block.count
        return try withExtendedLifetime((block, derived)) {
            try body(
                TableBlock(
                    positions: positions,
                    rowKeys: block,
                    consecutiveKeysStart: data.filledRangeStart(ofBlock: index),
                    columns: columns
                )
            )
        }
    }

    /// A single-block table's column is its block's view; a longer table's is assembled once
    /// per version (the reference evaluator and tests use this; executors scan blocks).
    public func withColumn<R>(_ property: Int, _ body: (ColumnView) throws -> R) rethrows -> R {
        if data.blocks.count == 1 {
            return try withBlock(0) { try body($0.columns[property]) }
        }
        let segment = data.caches.columns.withLock { cached in
            if let segment = cached[property] { return segment }
            let values = (0..<rowCount).map { value(at: $0, property: property) }
            let segment = Segment.build(Self.wholeColumnShape(objectSchema.properties[property]), values)
            cached[property] = segment
            return segment
        }
        return try withExtendedLifetime(segment) { try body(segment.view(count: rowCount)) }
    }

    /// The segment shape of a whole-table column: a `linkingObjects` column is a list of links
    /// (blocks compute theirs from the backlink index instead).
    private static func wholeColumnShape(_ property: Property) -> SegmentShape {
        if case .linkingObjects(let originClass, _) = property.type {
            return .collection(.list, element: .fixed(.link(originClass), optional: false))
        }
        return SegmentShape(property)
    }

    public func value(at position: Int, property: Int) -> Value {
        data.value(at: position, property: property)
    }

    public func position(ofPrimaryKey key: Value) -> Int? {
        guard let pk = objectSchema.primaryKeyIndex, let index = data.indexes[pk],
            let row = index.rows(equalTo: key, limit: 1).first
        else { return nil }
        return data.position(of: row)
    }

    public func indexLookup(property: Int, equalTo value: Value) -> [Int]? {
        guard let index = data.indexes[property] else { return nil }
        if NumericComparison.isNaN(value) { return [] }
        return data.positions(ofSortedKeys: index.rows(equalTo: value))
    }

    public func indexRange(
        property: Int,
        lower: Value?,
        lowerInclusive: Bool,
        upper: Value?,
        upperInclusive: Bool
    ) -> [Int]? {
        guard let index = data.indexes[property] else { return nil }
        // No ordered comparison with null or NaN holds (`x > null`, `x <= NaN`): the range is empty.
        for bound in [lower, upper] {
            if let bound, bound.isNull || NumericComparison.isNaN(bound) { return [] }
        }
        let rows = index.rows(
            lower: lower,
            lowerInclusive: lowerInclusive,
            upper: upper,
            upperInclusive: upperInclusive
        )
        return data.positions(ofSortedKeys: rows.sorted())
    }

    public func fullTextLookup(property: Int, token: String, prefix: Bool) -> [Int]? {
        guard let index = data.fullText[property] else { return nil }
        return data.positions(ofSortedKeys: index.rows(token, prefix: prefix))
    }

    public func backlinks(at position: Int, fromClass className: String, property: String) -> [RowKey] {
        data.backlinks.sources(
            target: data.key(at: position),
            origin: BacklinkOrigin(className: className, property: property)
        ).map(RowKey.init)
    }

    public func backlinkCount(at position: Int) -> Int {
        data.backlinks.count(target: data.key(at: position))
    }

    public func statistics(property: Int) -> ColumnStatistics {
        ColumnStatistics(
            rowValues: (0..<rowCount).lazy.map { value(at: $0, property: property) },
            flatten: objectSchema.properties[property].isToMany
        )
    }

    /// Whether `property` has an equality-and-range index (a hash index, or the primary key).
    public func hasIndex(property: Int) -> Bool { data.indexes[property] != nil }

    /// Whether `property` has a full-text index.
    public func hasFullTextIndex(property: Int) -> Bool { data.fullText[property] != nil }

    /// The backlink column of `property` (a `linkingObjects`) for block `index`, built from the
    /// backlink index once per table version.
    private func backlinkColumn(block index: Int, property: Int) -> BacklinkColumn {
        data.caches.backlinkColumns.withLock { cached in
            let key = BacklinkColumnKey(block: index, property: property)
            if let column = cached[key] { return column }
            guard case .linkingObjects(let originClass, let originProperty) = objectSchema.properties[property].type
            else { return BacklinkColumn(lists: [], originClass: "") }
            let block = data.blocks[index]
            let origin = BacklinkOrigin(className: originClass, property: originProperty)
            let lists = (0..<block.count).map { data.backlinks.sources(target: block.key(at: $0), origin: origin) }
            let column = BacklinkColumn(lists: lists, originClass: originClass)
            cached[key] = column
            return column
        }
    }
}
