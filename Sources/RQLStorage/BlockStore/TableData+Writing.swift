import RQLCore

/// Physical row changes on one table, keeping the table's own indexes (primary key, equality,
/// full-text) current. No validation here: the write transaction validates first. Backlinks
/// cross tables, so the transaction maintains them.
extension TableData {
    /// Replaces the derived-view caches: they describe the content before this change.
    mutating func touch() {
        // Caches only this table version fills (uniquely referenced, nothing cached yet) stay:
        // one write after another would otherwise allocate new ones each time.
        guard !isKnownUniquelyReferenced(&caches) || !caches.isEmpty else { return }
        caches = TableCaches()
    }

    /// Block `b`, made the writer's own first (a shared block is copied, its arrays are not).
    mutating func mutateBlock<R>(_ b: Int, _ body: (Block) -> R) -> R {
        blocks.mutate(b, body)
    }

    /// Appends a row with the next key (one value per property; backlinks ignored).
    mutating func append(_ values: [Value]) -> Int64 {
        touch()
        let key = nextKey
        nextKey += 1
        if blocks.isEmpty || blocks[blocks.count - 1].count >= TableBlock.capacity {
            blocks.append(Block(shapes: shapes))
        }
        mutateBlock(blocks.count - 1) { $0.append(key: key, values: values) }
        addIndexEntries(key: key, values: values)
        return key
    }

    /// Appends rows with keys `keys` (ascending, at least `nextKey`), filling blocks in bulk;
    /// `columns[c]` holds property `c`'s values. Index entries are the caller's job.
    mutating func appendBulk(keys: [Int64], columns: [[Value]]) {
        touch()
        var done = 0
        while done < keys.count {
            if blocks.isEmpty || blocks[blocks.count - 1].count >= TableBlock.capacity {
                blocks.append(Block(shapes: shapes))
            }
            let room = TableBlock.capacity - blocks[blocks.count - 1].count
            let chunk = done..<Swift.min(keys.count, done + room)
            mutateBlock(blocks.count - 1) { block in
                block.append(keys: Array(keys[chunk]), columns: columns.map { Array($0[chunk]) })
            }
            done = chunk.upperBound
        }
        if let last = keys.last { nextKey = Swift.max(nextKey, last + 1) }
    }

    /// Removes the row with `key` and returns its values; empties drop their block and small
    /// neighbours merge, so blocks stay at least a quarter full on average.
    mutating func remove(key: Int64) -> [Value] {
        touch()
        guard let (b, row) = locate(key: key) else { return [] }
        let old = blocks[b].rowValues(at: row)
        mutateBlock(b) { $0.removeRows(row..<row + 1) }
        if blocks[b].count == 0 {
            blocks.remove(at: b)
        } else {
            mergeIfSmall(b)
        }
        removeIndexEntries(key: key, values: old)
        return old
    }

    /// The most values a block's overlay takes from commits (`setThroughOverlay`) before the
    /// next value set on the block copies it instead: each commit merges the block's values
    /// into a new overlay, so a bound keeps the merges of a block written again and again
    /// linear, while a copy of a column costs about what merging this many values does.
    static let overlayValueLimit = 64

    /// Sets property `property` of the row with `key` through an overlay of its block
    /// (`BlockOverlay`) instead of copying the block and the column, when the block is shared
    /// with an earlier version (changing it would copy it) and nothing derives from the
    /// property's old value (`BlockOverlay.canDefer`: no index, no link). The overlay is read
    /// (its column copied with the values written) when something first reads that part, and
    /// a checkpoint writes it as a block. False, changing nothing, when `set` is to do it.
    mutating func setThroughOverlay(_ value: Value, key: Int64, property: Int) -> Bool {
        guard BlockOverlay.canDefer(self, property: property), let (b, _) = locate(key: key) else { return false }
        // Asked before `block` below holds a reference of its own.
        let alone = blocks.holdsAlone(b)
        let block = blocks[b]
        if block.place == nil, let overlay = block.overlay {
            guard overlay.values.count < Self.overlayValueLimit else { return false }
        } else if alone {
            return false
        }
        touch()
        blocks.replace(
            b,
            with: BlockOverlay.block(
                over: block,
                values: [OverlayValue(column: property, key: key, value: value)],
                damage: nil
            )
        )
        return true
    }

    /// Sets property `property` of the row with `key` and returns the old value.
    @discardableResult
    mutating func set(_ value: Value, key: Int64, property: Int) -> Value {
        touch()
        guard let (b, row) = locate(key: key) else { return .null }
        let old = blocks[b].value(at: row, column: property)
        mutateBlock(b) { $0.set(value, row: row, column: property) }
        if indexes[property] != nil {
            indexes[property]!.remove(old, row: key)
            indexes[property]!.insert(value, row: key)
        }
        if fullText[property] != nil {
            if case .string(let text) = old { fullText[property]!.remove(text, row: key) }
            if case .string(let text) = value { fullText[property]!.insert(text, row: key) }
        }
        return old
    }

    /// Appends `value` to list `property` of the row with `key`.
    /// Appends `value` to collection `property` of the row with `key`; false (changing
    /// nothing) when there is no such row.
    @discardableResult
    mutating func appendElement(key: Int64, property: Int, value: Value) -> Bool {
        guard let (b, row) = locate(key: key) else { return false }
        touch()
        mutateBlock(b) { block in
            let count = block.elementCount(row: row, column: property)
            block.replaceElements(row: row, column: property, range: count..<count, with: [value], keys: nil)
        }
        return true
    }

    /// Replaces elements `range` of collection `property` of the row with `key`; returns how
    /// many of the row's elements came after `range` (the ones the splice moved).
    @discardableResult
    mutating func replaceElements(
        key: Int64,
        property: Int,
        range: Range<Int>,
        with values: [Value],
        keys: [String]?
    ) -> Int {
        touch()
        guard let (b, row) = locate(key: key) else { return 0 }
        return mutateBlock(b) { block in
            let after = block.elementCount(row: row, column: property) - range.upperBound
            block.replaceElements(row: row, column: property, range: range, with: values, keys: keys)
            return after
        }
    }

    private mutating func mergeIfSmall(_ b: Int) {
        let limit = TableBlock.capacity / 2
        if b + 1 < blocks.count && blocks[b].count + blocks[b + 1].count <= limit {
            merge(b)
        } else if b > 0 && blocks[b - 1].count + blocks[b].count <= limit {
            merge(b - 1)
        }
    }

    /// Moves block `b + 1`'s rows to the end of block `b` (keys stay ascending).
    private mutating func merge(_ b: Int) {
        let absorbed = blocks[b + 1]
        let keys = (0..<absorbed.count).map { absorbed.key(at: $0) }
        let columns = absorbed.columns.indices.map { c in (0..<absorbed.count).map { absorbed.value(at: $0, column: c) }
        }
        mutateBlock(b) { $0.append(keys: keys, columns: columns) }
        blocks.remove(at: b + 1)
    }

    // MARK: Index entries

    mutating func addIndexEntries(key: Int64, values: [Value]) {
        for property in indexes.keys { indexes[property]!.insert(values[property], row: key) }
        for property in fullText.keys {
            if case .string(let text) = values[property] { fullText[property]!.insert(text, row: key) }
        }
    }

    mutating func removeIndexEntries(key: Int64, values: [Value]) {
        for property in indexes.keys { indexes[property]!.remove(values[property], row: key) }
        for property in fullText.keys {
            if case .string(let text) = values[property] { fullText[property]!.remove(text, row: key) }
        }
    }

    /// Every row's key and value of `property`, for building an index.
    func entries(of property: Int) -> [(Value, Int64)] {
        entries(of: property) { ($0, $1) }
    }

    /// `entry(value, key)` of every row's value of `property` and key. A block read from a
    /// mapping (a stored block, or one a bulk load has written already) gives its pages back
    /// once read: the pass keeps a block of the file resident, not the file.
    private func entries<Entry>(of property: Int, _ entry: (Value, Int64) -> Entry) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(rowCount)
        for block in blocks {
            for row in 0..<block.count {
                entries.append(entry(block.value(at: row, column: property), block.key(at: row)))
            }
            block.releaseMappedPages()
        }
        return entries
    }

    /// Builds the equality index of `property` from the rows (bulk loads, `addIndex`); an `int`
    /// property's entries go straight to their plain form (a third of the size of a `Value` pair).
    mutating func rebuildIndex(_ property: Int) {
        let definition = objectSchema.properties[property]
        indexes[property] =
            definition.type == .int
            ? PropertyIndex(intEntries: entries(of: property) { IntIndexEntry($0, row: $1) })
            : PropertyIndex(for: definition, entries: entries(of: property))
    }

    /// Builds the full-text index of `property` from the rows.
    mutating func rebuildFullText(_ property: Int) {
        fullText[property] = FullTextTree(
            texts: entries(of: property).compactMap { value, key in
                if case .string(let text) = value { return (text, key) }
                return nil
            }
        )
    }
}
