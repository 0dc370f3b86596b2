import RQLCore

/// Bulk loads: many objects at once, built into whole blocks column by column (typed copies for
/// fixed-width, link and string columns), with indexes and backlinks built in one pass at the
/// end instead of per row. Still validated (types, nulls, primary keys, links, embedded owners)
/// before anything changes.
extension WriteTransaction {
    /// Adds every object of `source` (a `ColumnStore` loaded from a dataset, another snapshot…).
    /// Each source class must exist here with the same stored properties (by name and type;
    /// properties only this store has take their defaults). Objects keep their keys when their
    /// table is empty and the keys fit; otherwise they get new keys, and links follow.
    ///
    /// ```swift
    /// let transaction = store.beginWrite()
    /// try transaction.importObjects(from: try DatasetLoader.load(json: text))
    /// _ = try transaction.commit()
    /// ```
    public func importObjects<Source: StoreReader>(from source: Source) throws(WriteError) {
        try checkOpen()
        var plans: [ImportPlan] = []
        for sourceClass in source.schema.classes {
            guard let t = schema.classIndex(named: sourceClass.name), let table = source.table(named: sourceClass.name)
            else { throw .incompatibleSchema(className: sourceClass.name, property: nil) }
            let target = tables[t].objectSchema
            guard target.isEmbedded == sourceClass.isEmbedded else {
                throw .incompatibleSchema(className: sourceClass.name, property: nil)
            }
            var sourceIndex: [Int?] = Array(repeating: nil, count: target.properties.count)
            for (sp, property) in sourceClass.properties.enumerated() where !property.isBacklink {
                guard let tp = target.propertyIndex(named: property.name),
                    target.properties[tp].typeSyntax == property.typeSyntax
                else { throw .incompatibleSchema(className: sourceClass.name, property: property.name) }
                sourceIndex[tp] = sp
            }
            plans.append(ImportPlan(table: t, sourceIndex: sourceIndex, keys: keyMap(for: table, into: t)))
        }
        let keyMaps = Dictionary(uniqueKeysWithValues: plans.map { (className($0.table), $0.keys) })
        for plan in plans {
            guard let table = source.table(named: className(plan.table)) else { continue }
            try validateImport(plan, table, keyMaps)
        }
        for plan in plans {
            guard let table = source.table(named: className(plan.table)) else { continue }
            let className = className(plan.table)
            let mapLink: (String, Int64) -> Int64 = { keyMaps[$0]?.map($1) ?? -1 }
            let wasEmpty = tables[plan.table].rowCount == 0
            let firstBlock = tables[plan.table].blocks.count
            // Read before `appendRows` mutates the table: the fill closure must not touch `tables`.
            let defaults = tables[plan.table].objectSchema.properties.map(\.defaultValue)
            for b in 0..<table.blockCount {
                table.withBlock(b) { block in
                    appendRows(
                        plan.table,
                        keys: plan.keys.newKeys[block.positions],
                        copy: { tp, segment, rows, count in
                            guard let sp = plan.sourceIndex[tp] else { return false }
                            return segment.appendRows(
                                from: block.columns[sp],
                                rows: rows,
                                count: count,
                                mapLink: mapLink
                            )
                        },
                        value: { row, tp in
                            guard let sp = plan.sourceIndex[tp] else { return defaults[tp] }
                            return Self.remapLinks(
                                table.value(at: block.positions.lowerBound + row, property: sp),
                                mapLink
                            )
                        }
                    )
                }
            }
            finishBulk(plan.table, newKeys: plan.keys.newKeys, wasEmpty: wasEmpty, firstBlock: firstBlock)
            recordInserted(className, plan.keys.newKeys)
        }
        try addBulkBacklinks(plans.map { ($0.table, $0.keys.newKeys) })
        writeCount += 1
    }

    /// Appends objects of a top-level class given column by column (`columns[property]` holds
    /// every new row's value; all the same length) and returns the new keys' raw values. Links
    /// (in `.values` columns) point at existing objects. Properties not given take defaults.
    ///
    /// ```swift
    /// let keys = try transaction.insert(columns: ["id": .int([1, 2]), "name": .string(["a", nil])], into: "Person")
    /// ```
    @discardableResult
    public func insert(columns: [String: ColumnValues], into className: String) throws(WriteError) -> Range<Int64> {
        let t = try tableIndex(className)
        let objectSchema = tables[t].objectSchema
        guard !objectSchema.isEmbedded else { throw .embeddedClass(className) }
        for name in columns.keys { _ = try writableProperty(t, name) }
        let rowCount = objectSchema.properties.lazy.compactMap { columns[$0.name]?.count }.first ?? 0
        var built: [Column?] = []
        for property in objectSchema.properties {
            guard let values = columns[property.name] else {
                built.append(nil)
                continue
            }
            guard values.count == rowCount else {
                throw .rowCountMismatch(
                    className: className,
                    property: property.name,
                    expected: rowCount,
                    found: values.count
                )
            }
            if isEmbeddedTarget(property) { throw mismatch(property, className, nil, .list([])) }
            do {
                built.append(try ColumnStore.column(values, property, className: className).0)
            } catch {
                throw .typeMismatch(
                    className: className,
                    property: property.name,
                    key: nil,
                    expected: property.typeSyntax,
                    found: "a different type or a null"
                )
            }
        }
        try validateColumns(t, built, rowCount: rowCount)
        let first = tables[t].nextKey
        let keys = Array(first..<first + Int64(rowCount))
        let wasEmpty = tables[t].rowCount == 0
        let firstBlock = tables[t].blocks.count
        // One column's view at a time: opening them all at once nests a call per property.
        appendRows(
            t,
            keys: keys[...],
            copy: { p, segment, rows, count in
                built[p]?.withView { segment.appendRows(from: $0, rows: rows, count: count, mapLink: { $1 }) } ?? false
            },
            value: { row, p in built[p]?.value(at: row) ?? objectSchema.properties[p].defaultValue }
        )
        finishBulk(t, newKeys: keys, wasEmpty: wasEmpty, firstBlock: firstBlock)
        recordInserted(className, keys)
        try addBulkBacklinks([(t, keys)])
        writeCount += 1
        return first..<first + Int64(rowCount)
    }

    // MARK: Building

    /// Appends rows with `keys` to table `t`, filling the last block and then new ones: property
    /// `p` of rows `rows` (indexed from 0 like `keys`) is appended by `copy(p, &segment, rows,
    /// count)` when it can make a typed copy (it returns false otherwise), else from
    /// `value(row, p)`.
    func appendRows(
        _ t: Int,
        keys: ArraySlice<Int64>,
        copy: (Int, inout Segment, Range<Int>, Int) -> Bool,
        value: (Int, Int) -> Value
    ) {
        tables[t].touch()
        var done = 0
        while done < keys.count {
            if tables[t].blocks.isEmpty || tables[t].blocks[tables[t].blocks.count - 1].count >= TableBlock.capacity {
                tables[t].blocks.append(Block(shapes: tables[t].shapes))
            }
            let last = tables[t].blocks.count - 1
            let room = TableBlock.capacity - tables[t].blocks[last].count
            let chunk = done..<Swift.min(keys.count, done + room)
            let chunkKeys = Array(keys[(keys.startIndex + chunk.lowerBound)..<(keys.startIndex + chunk.upperBound)])
            tables[t].mutateBlock(last) { block in
                block.appendRows(keys: chunkKeys) { c, segment, count in
                    if copy(c, &segment, chunk, count) { return }
                    if case .backlinks = segment { return }
                    segment.replace(
                        count..<count,
                        with: chunk.map { value($0, c) },
                        count: count,
                        limit: TableBlock.capacity
                    )
                }
            }
            done = chunk.upperBound
        }
        if let last = keys.last { tables[t].nextKey = Swift.max(tables[t].nextKey, last + 1) }
    }

    /// Packs the new blocks and builds (or extends) the table's own indexes.
    func finishBulk(_ t: Int, newKeys: [Int64], wasEmpty: Bool, firstBlock: Int) {
        for b in Swift.max(firstBlock - 1, 0)..<tables[t].blocks.count {
            tables[t].blocks.replace(b, with: tables[t].blocks[b].packed())
        }
        if wasEmpty {
            for property in tables[t].indexes.keys { tables[t].rebuildIndex(property) }
            for property in tables[t].fullText.keys { tables[t].rebuildFullText(property) }
        } else if !tables[t].indexes.isEmpty || !tables[t].fullText.isEmpty {
            for key in newKeys {
                if let values = tables[t].rowValues(key: key) { tables[t].addIndexEntries(key: key, values: values) }
            }
        }
    }

    /// Registers the links of the new rows in their targets' backlink indexes, building an
    /// index from sorted entries when it was empty.
    func addBulkBacklinks(_ loaded: [(table: Int, keys: [Int64])]) throws(WriteError) {
        var entries: [Int: [(origin: BacklinkOrigin, target: Int64, source: Int64)]] = [:]
        for (t, keys) in loaded {
            let properties = tables[t].objectSchema.properties.enumerated().filter {
                TableInput.canHoldLinks($0.element)
            }
            guard !properties.isEmpty else { continue }
            for key in keys {
                guard let (b, row) = tables[t].locate(key: key) else { continue }
                for (index, property) in properties {
                    let origin = BacklinkOrigin(className: className(t), property: property.name)
                    ColumnStore.forEachLink(in: tables[t].blocks[b].value(at: row, column: index)) { link in
                        guard let target = schema.classIndex(named: link.className) else { return }
                        entries[target, default: []].append((origin, link.key.rawValue, key))
                    }
                }
            }
        }
        for (target, links) in entries {
            tables[target].touch()
            if tables[target].backlinks.tree.isEmpty {
                var index = tables[target].backlinks
                let sorted = links.map {
                    BacklinkEntry(target: $0.target, origin: index.registerOrigin($0.origin), source: $0.source)
                }.sorted()
                tables[target].backlinks = BacklinkIndex(origins: index.origins, sortedEntries: sorted)
            } else {
                for link in links {
                    tables[target].backlinks.add(target: link.target, origin: link.origin, source: link.source)
                }
            }
        }
    }

    private func recordInserted(_ className: String, _ keys: [Int64]) {
        guard let first = keys.first, let last = keys.last else { return }
        if last - first + 1 == Int64(keys.count) {
            changes.insert(className, keys: first..<last + 1)
        } else {
            for key in keys { changes.insert(className, RowKey(key)) }
        }
    }

    // MARK: Validation

    private func validateImport<Table: TableReader>(
        _ plan: ImportPlan,
        _ table: Table,
        _ keyMaps: [String: ImportKeyMap]
    ) throws(WriteError) {
        let objectSchema = tables[plan.table].objectSchema
        let className = objectSchema.name
        if let pk = objectSchema.primaryKeyIndex, let sp = plan.sourceIndex[pk] {
            try checkBulkPrimaryKeys(
                plan.table,
                (0..<table.rowCount).lazy.map { table.value(at: $0, property: sp) },
                keys: plan.keys.sourceKeys
            )
        }
        if objectSchema.isEmbedded {
            for position in 0..<table.rowCount where table.backlinkCount(at: position) != 1 {
                throw .embeddedOwnerCount(
                    className: className,
                    key: table.rowKey(at: position),
                    owners: table.backlinkCount(at: position)
                )
            }
        }
        for (tp, property) in objectSchema.properties.enumerated() where property.type == .mixed {
            guard let sp = plan.sourceIndex[tp] else { continue }
            for position in 0..<table.rowCount {
                try checkMixedDepth(
                    table.value(at: position, property: sp),
                    property,
                    className,
                    table.rowKey(at: position)
                )
            }
        }
        for (tp, property) in objectSchema.properties.enumerated() where TableInput.canHoldLinks(property) {
            guard let sp = plan.sourceIndex[tp] else { continue }
            let ownsEmbedded = isEmbeddedTarget(property)
            for position in 0..<table.rowCount {
                var failure: WriteError?
                ColumnStore.forEachLink(in: table.value(at: position, property: sp)) { link in
                    guard failure == nil else { return }
                    let key = table.rowKey(at: position)
                    guard let map = keyMaps[link.className], map.map(link.key.rawValue) >= 0 else {
                        failure = .danglingLink(className: className, property: property.name, key: key, target: link)
                        return
                    }
                    if !ownsEmbedded && schema[link.className]?.isEmbedded == true {
                        failure = .linkToEmbeddedObject(
                            className: className,
                            property: property.name,
                            key: key,
                            target: link
                        )
                    }
                }
                if let failure { throw failure }
            }
        }
    }

    /// Columns for `insert(columns:into:)`: primary keys unique (among themselves and against
    /// the table), links to existing top-level objects.
    private func validateColumns(_ t: Int, _ columns: [Column?], rowCount: Int) throws(WriteError) {
        let objectSchema = tables[t].objectSchema
        if let pk = objectSchema.primaryKeyIndex {
            let column = columns[pk]
            let values = (0..<rowCount).lazy.map {
                column?.value(at: $0) ?? objectSchema.properties[pk].defaultValue
            }
            try checkBulkPrimaryKeys(t, values, keys: nil)
        }
        for (index, property) in objectSchema.properties.enumerated() where TableInput.canHoldLinks(property) {
            guard let column = columns[index] else { continue }
            for row in 0..<rowCount {
                let value = column.value(at: row)
                if property.type == .mixed { try checkMixedDepth(value, property, objectSchema.name, nil) }
                try checkElementLinks(value, property, objectSchema.name)
            }
        }
    }

    private func checkElementLinks(_ value: Value, _ property: Property, _ className: String) throws(WriteError) {
        var failure: WriteError?
        ColumnStore.forEachLink(in: value) { link in
            guard failure == nil else { return }
            guard let target = schema.classIndex(named: link.className),
                tables[target].locate(key: link.key.rawValue) != nil
            else {
                failure = .danglingLink(className: className, property: property.name, key: nil, target: link)
                return
            }
            if tables[target].objectSchema.isEmbedded {
                failure = .linkToEmbeddedObject(className: className, property: property.name, key: nil, target: link)
            }
        }
        if let failure { throw failure }
    }

    private func checkBulkPrimaryKeys(_ t: Int, _ values: some Collection<Value>, keys: [Int64]?) throws(WriteError) {
        guard let pk = tables[t].objectSchema.primaryKeyIndex else { return }
        let existing = tables[t].rowCount > 0 ? tables[t].indexes[pk] : nil
        var seenInts = Set<Int64>()
        var seen = Set<EqualityKey>()
        var previous: Int64?
        var ascending = true
        for (i, value) in values.enumerated() {
            let duplicate: Bool
            if case .int(let v) = value, ascending, previous.map({ $0 < v }) ?? true {
                // Ascending integers (ids 0, 1, 2, …) are unique without a set.
                previous = v
                duplicate = false
            } else {
                if ascending {
                    ascending = false
                    // Everything so far was ascending integers: put them in the set now.
                    seenInts = Set(values.prefix(i).compactMap { if case .int(let v) = $0 { v } else { nil } })
                }
                if case .int(let v) = value {
                    duplicate = !seenInts.insert(v).inserted
                } else {
                    duplicate = !seen.insert(EqualityKey(value)).inserted
                }
            }
            if duplicate || !(existing?.rows(equalTo: value, limit: 1).isEmpty ?? true) {
                throw .duplicatePrimaryKey(
                    className: className(t),
                    property: tables[t].objectSchema.properties[pk].name,
                    key: keys.map { RowKey($0[i]) },
                    value: value
                )
            }
        }
    }

    /// `value` with every link's key mapped to this store's key.
    static func remapLinks(_ value: Value, _ mapLink: (String, Int64) -> Int64) -> Value {
        switch value {
        case .link(let link):
            return .link(ObjectLink(className: link.className, key: RowKey(mapLink(link.className, link.key.rawValue))))
        case .list(let items): return .list(items.map { remapLinks($0, mapLink) })
        case .map(let map): return .map(MixedMap(map.map { ($0.key, remapLinks($0.value, mapLink)) }))
        default: return value
        }
    }

    private func keyMap<Table: TableReader>(for table: Table, into t: Int) -> ImportKeyMap {
        let sourceKeys = (0..<table.rowCount).map { table.rowKey(at: $0).rawValue }
        let next = tables[t].nextKey
        let ascending = zip(sourceKeys, sourceKeys.dropFirst()).allSatisfy { $0 < $1 }
        if ascending && tables[t].rowCount == 0 && (sourceKeys.first ?? next) >= next {
            return ImportKeyMap(sourceKeys: sourceKeys, newKeys: sourceKeys, renumbered: nil)
        }
        let newKeys = (0..<sourceKeys.count).map { next + Int64($0) }
        return ImportKeyMap(
            sourceKeys: sourceKeys,
            newKeys: newKeys,
            renumbered: Dictionary(zip(sourceKeys, newKeys), uniquingKeysWith: { first, _ in first })
        )
    }
}

/// One source class of an import: its table here, and for each property here the source
/// property it comes from (`nil`: take the default).
struct ImportPlan {
    let table: Int
    let sourceIndex: [Int?]
    let keys: ImportKeyMap
}

/// Source row keys → keys here, for one class.
struct ImportKeyMap {
    /// Source keys in source position order.
    let sourceKeys: [Int64]
    /// The key each source row gets, in the same order.
    let newKeys: [Int64]
    /// `nil` when keys are kept.
    let renumbered: [Int64: Int64]?

    /// The key here of source key `key`, or -1 if the source has no such row.
    func map(_ key: Int64) -> Int64 {
        if let renumbered { return renumbered[key] ?? -1 }
        var low = 0
        var high = sourceKeys.count
        while low < high {
            let mid = (low + high) >> 1
            if sourceKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < sourceKeys.count && sourceKeys[low] == key ? key : -1
    }
}
