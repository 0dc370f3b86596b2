import RQLCore

/// One commit as the commit log stores it: the commit's `ChangeSet` (the description live
/// results already consume) with the values it wrote, so replaying it on the version before
/// gives the version it made, without the blocks it touched.
///
/// Per table the next key (a transaction may use keys it then deletes); per changed class the
/// keys deleted, the keys inserted with every stored property's value, and the keys modified
/// with the properties written and their new values. Values are `MixedCoding` bytes. A commit
/// that changes the schema is not logged: it is written as a checkpoint (`StoreFile.commit`).
///
/// ```
/// u32 tables, each i64 next key
/// u32 changed classes, each:
///   u32 table; u32 deleted, each i64 key;
///   u32 inserted, each i64 key, u32 values, each value;
///   u32 modified, each i64 key, u32 properties, each u32 property, value
/// value = u32 length, MixedCoding bytes
/// ```
struct CommitRecord: Equatable {
    struct ClassChanges: Equatable {
        var table: Int
        var deleted: [Int64] = []
        /// Each inserted row: its key and one value per stored (not backlink) property, in order.
        var inserted: [(key: Int64, values: [Value])] = []
        var modified: [(key: Int64, properties: [(index: Int, value: Value)])] = []

        static func == (a: ClassChanges, b: ClassChanges) -> Bool {
            a.table == b.table && a.deleted == b.deleted
                && a.inserted.elementsEqual(b.inserted) { $0.key == $1.key && $0.values == $1.values }
                && a.modified.elementsEqual(b.modified) {
                    $0.key == $1.key && $0.properties.elementsEqual($1.properties) { $0 == $1 }
                }
        }
    }

    var version: UInt64
    var nextKeys: [Int64]
    var classes: [ClassChanges]

    /// The commit's change set, as the transaction that wrote the record described it
    /// (`ChangeSet`): what another process's store reports after applying the record.
    func changes(in schema: Schema) -> ChangeSet {
        var result = ChangeSet(version: version)
        for change in classes where change.table < schema.classes.count {
            let properties = schema.classes[change.table].properties
            var described = ChangeSet.ClassChanges()
            described.inserted = change.inserted.map { RowKey($0.key) }
            described.deleted = change.deleted.map(RowKey.init)
            for row in change.modified {
                described.modified[RowKey(row.key), default: []].formUnion(
                    row.properties.compactMap { $0.index < properties.count ? properties[$0.index].name : nil }
                )
            }
            if !described.isEmpty { result.classes[schema.classes[change.table].name] = described }
        }
        return result
    }

    init(version: UInt64, nextKeys: [Int64], classes: [ClassChanges]) {
        self.version = version
        self.nextKeys = nextKeys
        self.classes = classes
    }

    /// The payload of the record of the commit that made `snapshot` with `changes` (names
    /// resolved in its schema), or nil as soon as it passes `limit` bytes: a commit too large
    /// for the log, whatever makes it so (many objects, long values), is found while encoding,
    /// and the rest of its record is never built.
    static func encoded(snapshot: BlockSnapshot, changes: ChangeSet, limit: Int) -> [UInt8]? {
        // Room for a small commit's record up front: growing the buffer append by append was
        // most of a single-object commit's encoding.
        var writer = ByteWriter()
        writer.bytes.reserveCapacity(Swift.min(limit, 512))
        writer.u32(snapshot.tables.count)
        for table in snapshot.tables { writer.i64(table.nextKey) }
        // Counts and lengths are written once known: a key whose row is gone is left out, and a
        // value is encoded in place after its length.
        func patch(_ at: Int, _ count: Int) {
            for i in 0..<4 { writer.bytes[at + i] = UInt8(truncatingIfNeeded: count >> (8 * i)) }
        }
        func put(_ v: Value) {
            let lengthAt = writer.bytes.count
            writer.u32(0)
            MixedCoding.encode(v, into: &writer.bytes)
            patch(lengthAt, writer.bytes.count - lengthAt - 4)
        }
        let classesAt = writer.bytes.count
        writer.u32(0)
        var classCount = 0
        for name in changes.classes.keys.sorted() {
            guard let t = snapshot.schema.classIndex(named: name), let change = changes.classes[name] else { continue }
            classCount += 1
            let table = snapshot.tables[t]
            let properties = table.objectSchema.properties
            let isStored = properties.map { !$0.isBacklink }
            let storedCount = isStored.count { $0 }
            writer.u32(t)
            writer.u32(change.deleted.count)
            for key in change.deleted { writer.i64(key.rawValue) }
            guard writer.bytes.count <= limit else { return nil }
            let insertedAt = writer.bytes.count
            writer.u32(0)
            var inserted = 0
            for key in change.inserted {
                // Straight from the block's columns: no array of the row's values.
                guard let (b, row) = table.locate(key: key.rawValue) else { continue }
                let block = table.blocks[b]
                inserted += 1
                writer.i64(key.rawValue)
                writer.u32(storedCount)
                for i in isStored.indices where isStored[i] { put(block.value(at: row, column: i)) }
                guard writer.bytes.count <= limit else { return nil }
            }
            patch(insertedAt, inserted)
            let modifiedAt = writer.bytes.count
            writer.u32(0)
            var modified = 0
            for key in change.modifiedKeys {
                guard let (b, row) = table.locate(key: key.rawValue), let names = change.modified[key] else { continue }
                modified += 1
                let indexes = names.compactMap { table.objectSchema.propertyIndex(named: $0) }.sorted()
                writer.i64(key.rawValue)
                writer.u32(indexes.count)
                let block = table.blocks[b]
                for index in indexes {
                    writer.u32(index)
                    // A value the commit set through an overlay is read from it: reading the
                    // block's part would copy the column the overlay spares.
                    put(block.overlay?.value(of: key.rawValue, column: index) ?? block.value(at: row, column: index))
                }
                guard writer.bytes.count <= limit else { return nil }
            }
            patch(modifiedAt, modified)
        }
        patch(classesAt, classCount)
        return writer.bytes
    }

    /// Reads a payload written by `encoded(snapshot:changes:limit:)`, telling `visitor` what it
    /// holds in order (the next keys last, as they apply after the changes). Values are
    /// decoded one at a time into the same storage, so the reading itself allocates nothing
    /// per record beyond what a value holds (a long string, a collection).
    static func read<Visitor: CommitRecordVisitor>(
        _ bytes: UnsafeRawBufferPointer,
        into visitor: inout Visitor
    ) throws(StoreFileError.Problem) {
        // Who reads a problem knows the record's offset: it names the record there.
        var reader = ByteReader(bytes, base: 0, what: "commit log record")
        func value() throws(StoreFileError.Problem) -> Value {
            guard let decoded = MixedCoding.decode(try reader.lengthPrefixed()) else {
                throw .malformed(what: "commit log record", reason: "a value does not decode")
            }
            return decoded
        }
        let tables = try reader.count(minimumSize: 8)
        let nextKeysAt = reader.position
        _ = try reader.take(tables * 8)
        try visitor.tables(tables)
        var values: [Value] = []
        for _ in 0..<(try reader.count(minimumSize: 16)) {
            try visitor.changes(inTable: Int(try reader.u32()))
            for _ in 0..<(try reader.count(minimumSize: 8)) { try visitor.deleted(try reader.i64()) }
            for _ in 0..<(try reader.count(minimumSize: 12)) {
                let key = try reader.i64()
                values.removeAll(keepingCapacity: true)
                for _ in 0..<(try reader.count(minimumSize: 5)) { values.append(try value()) }
                try visitor.inserted(key, values: values)
            }
            for _ in 0..<(try reader.count(minimumSize: 12)) {
                let key = try reader.i64()
                let count = try reader.count(minimumSize: 9)
                try visitor.modified(key, properties: count)
                for _ in 0..<count {
                    let index = Int(try reader.u32())
                    try visitor.set(try value(), property: index)
                }
            }
        }
        guard reader.remaining == 0 else {
            throw .malformed(what: "commit log record", reason: "bytes after its last change")
        }
        var keys = ByteReader(bytes, base: 0, at: nextKeysAt, what: "commit log record")
        for t in 0..<tables { try visitor.nextKey(try keys.i64(), table: t) }
    }

    /// Decodes a payload written by `encoded(snapshot:changes:limit:)`.
    static func decode(_ bytes: UnsafeRawBufferPointer, version: UInt64) throws(StoreFileError.Problem) -> CommitRecord
    {
        var record = CommitRecord(version: version, nextKeys: [], classes: [])
        try read(bytes, into: &record)
        return record
    }

    /// The record of `entry` in `bytes` (a scan's), which a replay applied: it decodes.
    static func decodeApplied(_ bytes: [UInt8], _ entry: CommitLog.Entry) -> CommitRecord {
        bytes.withUnsafeBytes { raw in
            do {
                return try decode(UnsafeRawBufferPointer(rebasing: raw[entry.payload]), version: entry.version)
            } catch {
                fatalError("a record the replay applied does not decode: \(error)")
            }
        }
    }

    /// The version `entries` (records of `bytes`, consecutive, the first following `base`) make
    /// from `base`, with every table's indexes and backlinks as the commits left them, replayed
    /// in one scratch transaction straight from the records' bytes. A value set on a property
    /// nothing derives from goes into an overlay of its block (`BlockOverlay`), read on first
    /// use, so the replay costs the records and not the blocks they touch; other changes are
    /// applied to the blocks (a block several records touch is copied once). Stops before the
    /// first record that does not decode or does not fit (a key that is not there, a value of
    /// the wrong type, a dangling link), which it returns with why: nothing of that record is
    /// applied. `damage` is where an overlay reports a row its block turns out not to hold.
    static func apply(
        _ entries: some Collection<CommitLog.Entry>,
        of bytes: [UInt8],
        to base: BlockSnapshot,
        damage: StoreDamage?
    ) -> (snapshot: BlockSnapshot, applied: Int, failure: (offset: UInt64, reason: String)?) {
        let entries = Array(entries)
        func replay(_ count: Int) -> (BlockSnapshot, failure: (index: Int, reason: String)?) {
            let scratch = BlockStore(schema: base.schema)
            scratch.publish(base)
            let transaction = scratch.beginWrite()
            defer { transaction.rollback() }
            var replayer = RecordReplay(transaction, damage: damage)
            var version = base.version
            let failure: (index: Int, reason: String)? = bytes.withUnsafeBytes { raw in
                for (i, entry) in entries.prefix(count).enumerated() {
                    guard entry.version == version + 1 else {
                        return (i, "version \(entry.version) does not follow \(version)")
                    }
                    do throws(StoreFileError.Problem) {
                        try replayer.apply(UnsafeRawBufferPointer(rebasing: raw[entry.payload]))
                    } catch {
                        if case .malformed(_, let reason) = error { return (i, reason) }
                        return (i, error.text)
                    }
                    version = entry.version
                }
                return nil
            }
            if let failure { return (base, failure) }
            replayer.flush()
            return (
                BlockSnapshot(schema: base.schema, version: version, tables: transaction.tables, pin: base.pin), nil
            )
        }
        let (snapshot, failure) = replay(entries.count)
        guard let failure else { return (snapshot, entries.count, nil) }
        // The failed record changed the scratch tables halfway: replay the ones before it again.
        let (before, _) = failure.index > 0 ? replay(failure.index) : (base, nil)
        return (before, failure.index, (entries[failure.index].offset, failure.reason))
    }
}

/// What `CommitRecord.read` tells, in the order the payload holds it.
protocol CommitRecordVisitor {
    /// How many tables the record gives a next key for (`nextKey`, after the changes).
    mutating func tables(_ count: Int) throws(StoreFileError.Problem)
    /// The changes that follow are to table `table`.
    mutating func changes(inTable table: Int) throws(StoreFileError.Problem)
    mutating func deleted(_ key: Int64) throws(StoreFileError.Problem)
    /// A row inserted, with one value per stored property.
    mutating func inserted(_ key: Int64, values: [Value]) throws(StoreFileError.Problem)
    /// A row modified; `properties` calls of `set` follow, one per property written.
    mutating func modified(_ key: Int64, properties: Int) throws(StoreFileError.Problem)
    mutating func set(_ value: Value, property: Int) throws(StoreFileError.Problem)
    mutating func nextKey(_ key: Int64, table: Int) throws(StoreFileError.Problem)
}

extension CommitRecord: CommitRecordVisitor {
    mutating func tables(_ count: Int) { nextKeys.reserveCapacity(count) }
    mutating func changes(inTable table: Int) { classes.append(ClassChanges(table: table)) }
    mutating func deleted(_ key: Int64) { classes[classes.count - 1].deleted.append(key) }
    mutating func inserted(_ key: Int64, values: [Value]) { classes[classes.count - 1].inserted.append((key, values)) }
    mutating func modified(_ key: Int64, properties: Int) { classes[classes.count - 1].modified.append((key, [])) }
    mutating func set(_ value: Value, property: Int) {
        let c = classes.count - 1
        classes[c].modified[classes[c].modified.count - 1].properties.append((property, value))
    }
    mutating func nextKey(_ key: Int64, table: Int) { nextKeys.append(key) }
}

/// Applies records to a scratch transaction as `CommitRecord.read` reads them: rows physically
/// (deletions without their cascade, which the record lists), every value checked as `insert`
/// and `set` would check it, links once the record is all in (a row may link to one inserted
/// after it). Values `BlockOverlay.canDefer` go to the pending values of their table instead
/// of the blocks; a table's pending values are put into its blocks before anything else
/// changes them. Nothing is allocated per record beyond the values it holds.
struct RecordReplay: CommitRecordVisitor {
    /// What a replay needs of one table, worked out once (a class: reading it per value costs
    /// one retain, not one per field).
    private final class Plan {
        let name: String
        let properties: [Property]
        /// The stored (not backlink) properties, in order: an inserted row's values.
        let stored: [Int]
        /// Per property: stored, and set through an overlay (`BlockOverlay.canDefer`).
        let isStored: [Bool]
        let defers: [Bool]

        init(_ data: TableData) {
            name = data.objectSchema.name
            properties = data.objectSchema.properties
            isStored = properties.map { !$0.isBacklink }
            stored = properties.indices.filter { [isStored] in isStored[$0] }
            defers = properties.indices.map { BlockOverlay.canDefer(data, property: $0) }
        }
    }

    let transaction: WriteTransaction
    let damage: StoreDamage?
    private var pending: [PendingValues]
    private var plans: [Plan?]
    /// Per table, where its rows are, read on its first modified row; dropped before anything
    /// changes the table (which would otherwise copy the chunks the locator holds).
    private var locators: [RowLocator?]
    /// Each table's next key, as the replay left it (read through the transaction, each would
    /// cost an exclusivity check a record).
    private var nextKeys: [Int64]
    /// Values of the record being read that are checked once it is all in.
    private var written: [(table: Int, key: Int64, property: Int, value: Value)] = []
    /// The table whose changes are being read, and the row being modified (its key and block).
    private var table = 0
    private var row: (key: Int64, block: Int) = (0, 0)

    init(_ transaction: WriteTransaction, damage: StoreDamage?) {
        self.transaction = transaction
        self.damage = damage
        nextKeys = transaction.tables.map(\.nextKey)
        pending = Array(repeating: PendingValues(), count: nextKeys.count)
        plans = Array(repeating: nil, count: nextKeys.count)
        locators = Array(repeating: nil, count: nextKeys.count)
    }

    private func malformed(_ reason: String) -> StoreFileError.Problem {
        .malformed(what: "commit log record", reason: reason)
    }

    /// Applies one record's payload.
    mutating func apply(_ payload: UnsafeRawBufferPointer) throws(StoreFileError.Problem) {
        written.removeAll(keepingCapacity: true)
        try CommitRecord.read(payload, into: &self)
        guard !written.isEmpty else { return }
        let tables = transaction.tables
        for (t, key, index, value) in written {
            let property = tables[t].objectSchema.properties[index]
            if transaction.isEmbeddedTarget(property) {
                var dangling = false
                value.forEachLink { link in
                    guard let target = transaction.schema.classIndex(named: link.className),
                        tables[target].locate(key: link.key.rawValue) != nil
                    else {
                        dangling = true
                        return
                    }
                }
                if dangling {
                    throw malformed("\(transaction.className(t)) \(key) owns an embedded object that is not there")
                }
            } else {
                do throws(WriteError) {
                    _ = try transaction.checked(value, for: property, in: transaction.className(t), key: RowKey(key))
                } catch {
                    throw malformed("\(error)")
                }
            }
        }
    }

    /// Puts every pending value into its block's overlay.
    mutating func flush() {
        for t in pending.indices { flush(t) }
    }

    /// Puts table `t`'s pending values into overlays, before anything else changes its blocks.
    private mutating func flush(_ t: Int) {
        locators[t] = nil
        if !pending[t].isEmpty { pending[t].flush(into: &transaction.tables[t], damage: damage) }
    }

    func tables(_ count: Int) throws(StoreFileError.Problem) {
        guard count == nextKeys.count else {
            throw malformed("\(count) tables, the schema has \(nextKeys.count)")
        }
    }

    mutating func changes(inTable t: Int) throws(StoreFileError.Problem) {
        guard t >= 0, t < nextKeys.count else { throw malformed("table \(t) is not in the schema") }
        table = t
        guard plans[t] == nil else { return }
        plans[t] = transaction.reading(t) { Plan($0) }
    }

    private var plan: Plan {
        guard let plan = plans[table] else { fatalError("a table's changes are read after it is named") }
        return plan
    }

    mutating func deleted(_ key: Int64) throws(StoreFileError.Problem) {
        let t = table
        flush(t)
        guard transaction.reading(t, { $0.locate(key: key) != nil }) else {
            throw malformed("\(plan.name) \(key) to delete is not there")
        }
        let values = transaction.tables[t].remove(key: key)
        for index in values.indices {
            transaction.removeBacklinks(from: t, key: key, property: index, value: values[index])
        }
    }

    mutating func inserted(_ key: Int64, values: [Value]) throws(StoreFileError.Problem) {
        let t = table
        let plan = plan
        flush(t)
        guard values.count == plan.stored.count, key >= nextKeys[t] else {
            throw malformed("inserted \(plan.name) \(key) does not fit the table")
        }
        var row = Array(repeating: Value.null, count: plan.properties.count)
        for (i, index) in plan.stored.enumerated() {
            // Checked before it reaches a block, whose columns trap on a value of the wrong type.
            guard transaction.fits(values[i], plan.properties[index], plan.name) else {
                throw malformed("\(plan.name) \(key).\(plan.properties[index].name) has a value of the wrong type")
            }
            row[index] = values[i]
            written.append((t, key, index, values[i]))
        }
        transaction.tables[t].appendBulk(keys: [key], columns: row.map { [$0] })
        nextKeys[t] = transaction.reading(t) { $0.nextKey }
        transaction.tables[t].addIndexEntries(key: key, values: row)
        for index in plan.stored {
            transaction.addBacklinks(from: t, key: key, property: index, value: row[index])
        }
    }

    mutating func modified(_ key: Int64, properties: Int) throws(StoreFileError.Problem) {
        let t = table
        if locators[t] == nil { locators[t] = transaction.reading(t) { RowLocator($0) } }
        guard let b = locators[t]?.block(holding: key) else {
            throw malformed("modified \(plan.name) \(key) is not there")
        }
        row = (key, b)
    }

    mutating func set(_ value: Value, property index: Int) throws(StoreFileError.Problem) {
        let t = table
        let key = row.key
        // The property read in place: a copy of it costs more than the check.
        guard let plan = plans[t], index >= 0, index < plan.isStored.count, plan.isStored[index],
            plan.properties.withUnsafeBufferPointer({ transaction.fits(value, $0[index], plan.name) })
        else {
            throw malformed("modified \(self.plan.name) \(key) has a bad property \(index) or value")
        }
        if plan.defers[index] {
            if pending[t].count == PendingValues.limit { flush(t) }
            pending[t].set(value, block: row.block, key: key, column: index)
            // Its type is checked (`fits`); only a map's keys are left to check.
            if plan.properties[index].collection == .map { written.append((t, key, index, value)) }
            return
        }
        flush(t)
        let old = transaction.tables[t].set(value, key: key, property: index)
        transaction.removeBacklinks(from: t, key: key, property: index, value: old)
        transaction.addBacklinks(from: t, key: key, property: index, value: value)
        written.append((t, key, index, value))
    }

    mutating func nextKey(_ key: Int64, table t: Int) throws(StoreFileError.Problem) {
        let next = nextKeys[t]
        guard key >= next else { throw malformed("\(transaction.className(t))'s next key \(key) goes back") }
        if key != next {
            locators[t] = nil
            nextKeys[t] = key
            transaction.tables[t].nextKey = key
        }
    }
}

extension WriteTransaction {
    /// Reads table `t` in place: `tables[t]` copies it, a retain and a release of each of its
    /// parts, which a replay would pay several times a record.
    fileprivate func reading<R>(_ t: Int, _ body: (TableData) -> R) -> R {
        tables.withUnsafeBufferPointer { body($0[t]) }
    }

    /// Whether `value` has the shape property `property` stores (a collection for a collection,
    /// links where links go, the element type elsewhere), so writing it into a block cannot
    /// trap. Links are checked once every row is in (`RecordReplay.apply`).
    fileprivate func fits(_ value: Value, _ property: Property, _ className: String) -> Bool {
        switch (property.collection, value) {
        case (.single, _): return fits(element: value, property, className)
        case (.list, .list(let items)), (.set, .list(let items)):
            return items.allSatisfy { fits(element: $0, property, className) }
        case (.map, .map(let map)): return map.allSatisfy { fits(element: $0.value, property, className) }
        default: return false
        }
    }

    private func fits(element: Value, _ property: Property, _ className: String) -> Bool {
        switch property.type {
        case .mixed: return true
        case .object:
            if case .link = element { return true }
            return element == .null
        // What `checkElement` checks of a value of any other type, without making its error.
        default: return property.acceptsElement(element)
        }
    }
}

/// Where a replay finds a table's rows by key: the block list's chunks and each chunk's first
/// key, taken once, so that each modified row is found in arrays the replay holds (searching the
/// list itself reads each chunk's arrays through the chunk, with a dynamic exclusivity check
/// each time). A block whose row count fills its key range holds every key of it
/// (`TableData.filledRangeStart`); only other blocks read their keys.
struct RowLocator {
    let chunks: [BlockChunk]
    let chunkFirstKeys: [Int64]
    let chunkFirstBlock: [Int]
    let nextKey: Int64

    init(_ data: TableData) {
        chunks = data.blocks.chunks
        chunkFirstKeys = chunks.map { $0.firstKeys[0] }
        chunkFirstBlock = data.blocks.chunkFirstBlock
        nextKey = data.nextKey
    }

    /// The block holding row `key`, or nil when no block does.
    func block(holding key: Int64) -> Int? {
        guard !chunks.isEmpty, key >= chunkFirstKeys[0] else { return nil }
        let low = lastIndexAtMost(key, in: chunkFirstKeys, count: chunks.count)
        let chunk = chunks[low]
        let firstKeys = chunk.firstKeys
        let first = lastIndexAtMost(key, in: firstKeys, count: firstKeys.count)
        let start = firstKeys[first]
        let end =
            first + 1 < firstKeys.count
            ? firstKeys[first + 1] : low + 1 < chunks.count ? chunkFirstKeys[low + 1] : nextKey
        guard key >= start, key < end else { return nil }
        let block = chunk.blocks[first]
        let (span, overflow) = end.subtractingReportingOverflow(start)
        guard !overflow && span == Int64(block.count) || block.row(of: key) != nil else { return nil }
        return chunkFirstBlock[low] + first
    }
}
