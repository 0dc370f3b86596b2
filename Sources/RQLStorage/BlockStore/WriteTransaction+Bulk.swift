import RQLCore

/// Bulk loads: many objects at once, built into whole blocks column by column (typed copies for
/// fixed-width, link and string columns), with indexes and backlinks built in one pass at the
/// end instead of per row. Still validated (types, nulls, primary keys, links, embedded owners)
/// before anything changes.
extension WriteTransaction {
    /// Adds every object of `source` (another snapshot, a dataset…).
    /// Each source class must exist here with the same stored properties (by name and type;
    /// properties only this store has take their defaults). Objects keep their keys when their
    /// table is empty and the keys fit; otherwise they get new keys, and links follow. On a
    /// store file each full block is written as it is filled (as in a streaming load), and the
    /// pages of a source store file's block are dropped once it is copied: the transaction holds
    /// a block of the import and the indexes, not the source.
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
            Self.releaseSourcePages(table, 0..<table.rowCount)
        }
        try checkEmbeddedDepth(of: source)
        for plan in plans {
            guard let table = source.table(named: className(plan.table)) else { continue }
            let className = className(plan.table)
            let mapLink: (String, Int64) -> Int64 = { keyMaps[$0]?.map($1) ?? -1 }
            let wasEmpty = tables[plan.table].rowCount == 0
            let firstBlock = tables[plan.table].blocks.count
            // Read before `appendRows` mutates the table: the fill closure must not touch `tables`.
            let defaults = tables[plan.table].objectSchema.properties.map(\.defaultValue)
            // Blocks before this one are full and written (on a store file): a spill looks no further back.
            var unspilled = Swift.max(firstBlock - 1, 0)
            for b in 0..<table.blockCount {
                let positions = table.withBlock(b) { block in
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
                    return block.positions
                }
                unspilled = spillFullBlocks(plan.table, from: unspilled)
                Self.releaseSourcePages(table, positions)
            }
            finishBulk(plan.table, newKeys: plan.keys.newKeys, wasEmpty: wasEmpty, firstBlock: firstBlock)
            recordInserted(className, plan.keys.newKeys)
        }
        try addBulkBacklinks(plans.map { ($0.table, $0.keys.newKeys) })
        writeCount += 1
    }

    /// Writes table `t`'s full blocks from block `first` on as a streaming load does (on a store
    /// file each goes to the file now and a stub stays), and returns the first block not full:
    /// an import from another store then holds a block of it, not the whole table.
    private func spillFullBlocks(_ t: Int, from first: Int) -> Int {
        var b = first
        while b < tables[t].blocks.count && tables[t].blocks[b].count >= TableBlock.capacity {
            spillFinishedBlock(t, b)
            b += 1
        }
        return b
    }

    /// Drops the resident pages of a store file's source block once its rows are copied: an
    /// import reads the source once, so it keeps a block of it resident, not the file.
    private static func releaseSourcePages<Table: TableReader>(_ table: Table, _ positions: Range<Int>) {
        (table as? BlockTable)?.releaseMappedPages(positions: positions)
    }

    /// Appends objects of a top-level class given column by column (`columns[property]` holds
    /// every new row's value; all the same length) and returns the new keys' raw values. Links
    /// (in `.values` columns) point at existing objects or at rows of the same call. Properties
    /// not given take defaults.
    ///
    /// ```swift
    /// let keys = try transaction.insert(columns: ["id": .int([1, 2]), "name": .string(["a", nil])], into: "Person")
    /// ```
    @discardableResult
    public func insert(columns: [String: ColumnValues], into className: String) throws(WriteError) -> Range<Int64> {
        let t = try tableIndex(className)
        let keys = try insert(columns: [className: columns])
        return keys[className] ?? tables[t].nextKey..<tables[t].nextKey
    }

    /// Appends objects of several top-level classes given column by column
    /// (`columns[className][property]`) and returns each class's new keys' raw values. The new
    /// rows of a class get consecutive keys from the class's next key in row order (row `i` of a
    /// class whose table was never written has key `i`), and a link in a `.values` column may
    /// point at an existing object or at any new row, so classes that link to each other (or to
    /// themselves) load in one call. Everything is checked before anything changes.
    ///
    /// ```swift
    /// let keys = try transaction.insert(columns: [
    ///     "Person": ["id": .int([0, 1]), "dog": .values([.link(ObjectLink(className: "Dog", key: RowKey(0))), .null])],
    ///     "Dog": ["name": .string(["Rex"])],
    /// ])
    /// ```
    @discardableResult
    public func insert(columns: [String: [String: ColumnValues]]) throws(WriteError) -> [String: Range<Int64>] {
        try checkOpen()
        var batches: [ColumnBatch] = []
        for className in columns.keys.sorted() {
            batches.append(try columnBatch(try tableIndex(className), columns[className] ?? [:]))
        }
        let pending = Dictionary(uniqueKeysWithValues: batches.map { ($0.table, $0.keys) })
        for batch in batches { try validateColumns(batch, pending: pending) }
        var inserted: [String: Range<Int64>] = [:]
        for batch in batches {
            let t = batch.table
            let keys = Array(batch.keys)
            let wasEmpty = tables[t].rowCount == 0
            let firstBlock = tables[t].blocks.count
            let defaults = tables[t].objectSchema.properties.map(\.defaultValue)
            appendRows(
                t,
                keys: keys[...],
                copy: { p, segment, rows, count in
                    batch.columns[p].map { segment.appendRows(from: $0, rows: rows, count: count) } ?? false
                },
                value: { row, p in batch.columns[p]?.value(at: row) ?? defaults[p] }
            )
            finishBulk(t, newKeys: keys, wasEmpty: wasEmpty, firstBlock: firstBlock)
            recordInserted(className(t), keys)
            inserted[className(t)] = batch.keys
        }
        try addBulkBacklinks(batches.map { ($0.table, Array($0.keys)) })
        writeCount += 1
        return inserted
    }

    /// One class's columns checked against its properties (sets normalised), with the keys its
    /// rows will get.
    private func columnBatch(_ t: Int, _ given: [String: ColumnValues]) throws(WriteError) -> ColumnBatch {
        let objectSchema = tables[t].objectSchema
        let className = objectSchema.name
        guard !objectSchema.isEmbedded else { throw .embeddedClass(className) }
        for name in given.keys { _ = try writableProperty(t, name) }
        // Every column of a class must agree with the first one in schema order.
        let rowCount = objectSchema.properties.lazy.compactMap { given[$0.name]?.count }.first ?? 0
        var columns: [ColumnValues?] = []
        for property in objectSchema.properties {
            guard let values = given[property.name] else {
                columns.append(nil)
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
            guard let checked = Self.checkedColumn(values, property) else {
                throw .typeMismatch(
                    className: className,
                    property: property.name,
                    key: nil,
                    expected: property.typeSyntax,
                    found: "a different type or a null"
                )
            }
            columns.append(checked)
        }
        let first = tables[t].nextKey
        return ColumnBatch(table: t, columns: columns, keys: first..<first + Int64(rowCount))
    }

    /// `values` if they fit `property` (typed columns of their own type, nulls only where the
    /// property is optional), sets sorted and unique; nil if they do not.
    private static func checkedColumn(_ values: ColumnValues, _ property: Property) -> ColumnValues? {
        let single = property.collection == .single
        func fits(_ type: PropertyType, _ count: Int, _ nulls: [Bool]?) -> Bool {
            guard single, property.type == type else { return false }
            guard let nulls else { return true }
            return nulls.count == count && (property.isOptional || !nulls.contains(true))
        }
        switch values {
        case .bool(let v, let nulls): return fits(.bool, v.count, nulls) ? values : nil
        case .int(let v, let nulls): return fits(.int, v.count, nulls) ? values : nil
        case .float(let v, let nulls): return fits(.float, v.count, nulls) ? values : nil
        case .double(let v, let nulls): return fits(.double, v.count, nulls) ? values : nil
        case .string(let v):
            guard single, property.type == .string, property.isOptional || !v.contains(nil) else { return nil }
            return values
        case .values(let v):
            guard v.allSatisfy(property.accepts) else { return nil }
            guard property.collection == .set else { return values }
            return .values(
                v.map { value in
                    guard case .list(let items) = value else { return value }
                    return .list(Value.sortedUnique(items))
                }
            )
        }
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
        // A block with a place is stored as it is (packed); packing it again would copy it.
        for b in Swift.max(firstBlock - 1, 0)..<tables[t].blocks.count where tables[t].blocks[b].place == nil {
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
                $0.element.canHoldLinks
            }
            guard !properties.isEmpty else { continue }
            for key in keys {
                guard let (b, row) = tables[t].locate(key: key) else { continue }
                for (index, property) in properties {
                    let origin = BacklinkOrigin(className: className(t), property: property.name)
                    tables[t].blocks[b].value(at: row, column: index).forEachLink { link in
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

    /// Throws unless each embedded object of `source` is at most `maximumEmbeddedDepth` levels
    /// below a top-level object, as the store keeps them (each has one owner, checked before): a
    /// deeper chain, or embedded objects owning each other in a ring, only a damaged source has.
    /// Each object's owners are walked up, at most that many levels.
    private func checkEmbeddedDepth<Source: StoreReader>(of source: Source) throws(WriteError) {
        // The properties that can own an embedded object of each class.
        var owners: [String: [(className: String, property: String)]] = [:]
        for objectSchema in source.schema.classes {
            for property in objectSchema.properties where !property.isBacklink {
                guard let target = property.type.targetClassName, source.schema[target]?.isEmbedded == true
                else { continue }
                owners[target, default: []].append((objectSchema.name, property.name))
            }
        }
        for objectSchema in source.schema.classes where objectSchema.isEmbedded {
            guard let table = source.table(named: objectSchema.name) else { continue }
            for position in 0..<table.rowCount {
                var className = objectSchema.name
                var owned = table.rowKey(at: position)
                var ownedTable = table
                var depth = 0
                // The property of its owner that holds the object, for the error.
                var ownerProperty = ""
                while source.schema[className]?.isEmbedded == true {
                    depth += 1
                    let owner = ownedTable.position(of: owned).flatMap { at in
                        (owners[className] ?? []).lazy.compactMap { origin in
                            ownedTable.backlinks(at: at, fromClass: origin.className, property: origin.property).first
                                .map { (origin.className, origin.property, $0) }
                        }.first
                    }
                    if depth == 1, let owner { ownerProperty = owner.1 }
                    guard depth <= Self.maximumEmbeddedDepth, let (ownerClass, _, ownerKey) = owner,
                        let ownerTable = source.table(named: ownerClass)
                    else {
                        throw .typeMismatch(
                            className: objectSchema.name,
                            property: ownerProperty,
                            key: table.rowKey(at: position),
                            expected: "an embedded object at most \(Self.maximumEmbeddedDepth) levels below its owner",
                            found: "one deeper, or in a ring of embedded objects"
                        )
                    }
                    className = ownerClass
                    owned = ownerKey
                    ownedTable = ownerTable
                }
            }
        }
    }

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
        for (tp, property) in objectSchema.properties.enumerated() where property.canHoldLinks {
            guard let sp = plan.sourceIndex[tp] else { continue }
            let ownsEmbedded = isEmbeddedTarget(property)
            for position in 0..<table.rowCount {
                var failure: WriteError?
                table.value(at: position, property: sp).forEachLink { link in
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

    /// Columns for `insert(columns:)`: primary keys unique (among themselves and against the
    /// table), links to existing top-level objects or to rows of the same call (`pending`: each
    /// table's new keys).
    private func validateColumns(_ batch: ColumnBatch, pending: [Int: Range<Int64>]) throws(WriteError) {
        let objectSchema = tables[batch.table].objectSchema
        let rowCount = batch.keys.count
        if let pk = objectSchema.primaryKeyIndex {
            let column = batch.columns[pk]
            let values = (0..<rowCount).lazy.map {
                column?.value(at: $0) ?? objectSchema.properties[pk].defaultValue
            }
            try checkBulkPrimaryKeys(batch.table, values, keys: nil)
        }
        for (index, property) in objectSchema.properties.enumerated() where property.canHoldLinks {
            guard let column = batch.columns[index] else { continue }
            for row in 0..<rowCount {
                let value = column.value(at: row)
                if property.type == .mixed { try checkMixedDepth(value, property, objectSchema.name, nil) }
                try checkElementLinks(value, property, objectSchema.name, pending: pending)
            }
        }
    }

    private func checkElementLinks(
        _ value: Value,
        _ property: Property,
        _ className: String,
        pending: [Int: Range<Int64>]
    ) throws(WriteError) {
        var failure: WriteError?
        value.forEachLink { link in
            guard failure == nil else { return }
            guard let target = schema.classIndex(named: link.className),
                pending[target]?.contains(link.key.rawValue) == true
                    || tables[target].locate(key: link.key.rawValue) != nil
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
        var sourceKeys: [Int64] = []
        sourceKeys.reserveCapacity(table.rowCount)
        for b in 0..<table.blockCount {
            let positions = table.withBlock(b, columns: .none) { block in
                sourceKeys.append(contentsOf: block.rowKeys.lazy.map(\.rawValue))
                return block.positions
            }
            Self.releaseSourcePages(table, positions)
        }
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

/// One class's rows of `insert(columns:)`: per property its checked values (`nil`: the
/// default), and the keys the rows get.
private struct ColumnBatch {
    let table: Int
    let columns: [ColumnValues?]
    let keys: Range<Int64>
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
