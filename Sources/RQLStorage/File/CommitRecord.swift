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
        var value: [UInt8] = []
        value.reserveCapacity(64)
        func put(_ v: Value) {
            value.removeAll(keepingCapacity: true)
            MixedCoding.encode(v, into: &value)
            writer.lengthPrefixed(value)
        }
        // Counts are written once known: a key whose row is gone is left out.
        func patch(_ at: Int, _ count: Int) {
            for i in 0..<4 { writer.bytes[at + i] = UInt8(truncatingIfNeeded: count >> (8 * i)) }
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
            writer.u32(t)
            writer.u32(change.deleted.count)
            for key in change.deleted { writer.i64(key.rawValue) }
            guard writer.bytes.count <= limit else { return nil }
            let insertedAt = writer.bytes.count
            writer.u32(0)
            var inserted = 0
            for key in change.inserted {
                guard let values = table.rowValues(key: key.rawValue) else { continue }
                inserted += 1
                writer.i64(key.rawValue)
                writer.u32(values.indices.count(where: { isStored[$0] }))
                for i in values.indices where isStored[i] { put(values[i]) }
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
                for index in indexes {
                    writer.u32(index)
                    put(table.blocks[b].value(at: row, column: index))
                }
                guard writer.bytes.count <= limit else { return nil }
            }
            patch(modifiedAt, modified)
        }
        patch(classesAt, classCount)
        return writer.bytes
    }

    /// Decodes a payload written by `encoded(snapshot:changes:limit:)`; `offset` (the record's, in the log) names it in errors.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        version: UInt64,
        offset: UInt64
    ) throws(StoreFileError.Problem) -> CommitRecord {
        var reader = ByteReader(bytes, base: offset, what: "commit log record at offset \(offset)")
        func value() throws(StoreFileError.Problem) -> Value {
            let raw = try reader.lengthPrefixed()
            guard let decoded = MixedCoding.decode(raw) else {
                throw .malformed(what: "commit log record at offset \(offset)", reason: "a value does not decode")
            }
            return decoded
        }
        var nextKeys: [Int64] = []
        for _ in 0..<(try reader.count(minimumSize: 8)) { nextKeys.append(try reader.i64()) }
        var classes: [ClassChanges] = []
        for _ in 0..<(try reader.count(minimumSize: 16)) {
            var change = ClassChanges(table: Int(try reader.u32()))
            for _ in 0..<(try reader.count(minimumSize: 8)) { change.deleted.append(try reader.i64()) }
            for _ in 0..<(try reader.count(minimumSize: 12)) {
                let key = try reader.i64()
                var values: [Value] = []
                for _ in 0..<(try reader.count(minimumSize: 5)) { values.append(try value()) }
                change.inserted.append((key, values))
            }
            for _ in 0..<(try reader.count(minimumSize: 12)) {
                let key = try reader.i64()
                var properties: [(index: Int, value: Value)] = []
                for _ in 0..<(try reader.count(minimumSize: 9)) {
                    let index = Int(try reader.u32())
                    properties.append((index, try value()))
                }
                change.modified.append((key, properties))
            }
            classes.append(change)
        }
        guard reader.remaining == 0 else {
            throw .malformed(what: "commit log record at offset \(offset)", reason: "bytes after its last change")
        }
        return CommitRecord(version: version, nextKeys: nextKeys, classes: classes)
    }

    /// The version `records` (consecutive, the first following `base`) make from `base`, with
    /// every table's indexes and backlinks as the commits left them, replayed in one scratch
    /// transaction. A value set on a property nothing derives from goes into an overlay of its
    /// block (`BlockOverlay`), read on first use, so the replay costs the records and not the
    /// blocks they touch; other changes are applied to the blocks (a block several records
    /// touch is copied once). Stops before the first record that does not fit (a key that is
    /// not there, a value of the wrong type, a dangling link), which it returns with why:
    /// nothing of that record is applied. `damage` is where an overlay reports a row its block
    /// turns out not to hold.
    static func apply(
        _ records: [(record: CommitRecord, offset: UInt64)],
        to base: BlockSnapshot,
        damage: StoreDamage?
    ) -> (snapshot: BlockSnapshot, applied: Int, failure: (offset: UInt64, reason: String)?) {
        func replay(_ count: Int) -> (BlockSnapshot, failure: (index: Int, reason: String)?) {
            let scratch = BlockStore(schema: base.schema)
            scratch.publish(base)
            let transaction = scratch.beginWrite()
            defer { transaction.rollback() }
            var pending = Array(repeating: PendingValues(), count: base.tables.count)
            var version = base.version
            for (i, (record, _)) in records.prefix(count).enumerated() {
                guard record.version == version + 1 else {
                    return (base, (i, "version \(record.version) does not follow \(version)"))
                }
                guard record.nextKeys.count == base.tables.count else {
                    return (base, (i, "\(record.nextKeys.count) tables, the schema has \(base.tables.count)"))
                }
                do throws(StoreFileError.Problem) {
                    try transaction.replay(record, what: "commit log record", pending: &pending, damage: damage)
                } catch {
                    if case .malformed(_, let reason) = error { return (base, (i, reason)) }
                    return (base, (i, error.text))
                }
                version = record.version
            }
            for t in pending.indices { pending[t].flush(into: &transaction.tables[t], damage: damage) }
            return (
                BlockSnapshot(schema: base.schema, version: version, tables: transaction.tables, pin: base.pin), nil
            )
        }
        let (snapshot, failure) = replay(records.count)
        guard let failure else { return (snapshot, records.count, nil) }
        // The failed record changed the scratch tables halfway: replay the ones before it again.
        let (before, _) = failure.index > 0 ? replay(failure.index) : (base, nil)
        return (before, failure.index, (records[failure.index].offset, failure.reason))
    }
}

extension WriteTransaction {
    /// Applies `record`'s rows physically (deletions without their cascade, which the record
    /// lists), then checks every value it wrote as `insert` and `set` would; `what` names the
    /// record in the problem thrown. Values `BlockOverlay.canDefer` go to `pending` (per
    /// table) instead of the blocks; a table's pending values are put into its blocks before
    /// anything else changes them.
    fileprivate func replay(
        _ record: CommitRecord,
        what: String,
        pending: inout [PendingValues],
        damage: StoreDamage?
    ) throws(StoreFileError.Problem) {
        func malformed(_ reason: String) -> StoreFileError.Problem { .malformed(what: what, reason: reason) }
        var written: [(table: Int, key: Int64, property: Int, value: Value)] = []
        for change in record.classes {
            guard change.table >= 0, change.table < tables.count else {
                throw malformed("table \(change.table) is not in the schema")
            }
            let t = change.table
            let name = className(t)
            let properties = tables[t].objectSchema.properties
            let stored = properties.indices.filter { !properties[$0].isBacklink }
            if !change.deleted.isEmpty || !change.inserted.isEmpty {
                pending[t].flush(into: &tables[t], damage: damage)
            }
            for key in change.deleted {
                guard tables[t].locate(key: key) != nil else {
                    throw malformed("\(name) \(key) to delete is not there")
                }
                let values = tables[t].remove(key: key)
                for index in values.indices {
                    removeBacklinks(from: t, key: key, property: index, value: values[index])
                }
            }
            for (key, values) in change.inserted {
                guard values.count == stored.count, key >= tables[t].nextKey else {
                    throw malformed("inserted \(name) \(key) does not fit the table")
                }
                var row = Array(repeating: Value.null, count: properties.count)
                for (i, index) in stored.enumerated() {
                    // Checked before it reaches a block, whose columns trap on a value of the wrong type.
                    guard fits(values[i], properties[index], name) else {
                        throw malformed("\(name) \(key).\(properties[index].name) has a value of the wrong type")
                    }
                    row[index] = values[i]
                    written.append((t, key, index, values[i]))
                }
                tables[t].appendBulk(keys: [key], columns: row.map { [$0] })
                tables[t].addIndexEntries(key: key, values: row)
                for index in stored { addBacklinks(from: t, key: key, property: index, value: row[index]) }
            }
            for (key, changed) in change.modified {
                guard let b = tables[t].blockIndex(forKey: key), tables[t].holds(key, inBlock: b) else {
                    throw malformed("modified \(name) \(key) is not there")
                }
                for (index, value) in changed {
                    guard stored.contains(index), fits(value, properties[index], name) else {
                        throw malformed("modified \(name) \(key) has a bad property \(index) or value")
                    }
                    if BlockOverlay.canDefer(tables[t], property: index) {
                        pending[t].set(value, block: b, key: key, column: index)
                        written.append((t, key, index, value))
                        continue
                    }
                    pending[t].flush(into: &tables[t], damage: damage)
                    let old = tables[t].set(value, key: key, property: index)
                    removeBacklinks(from: t, key: key, property: index, value: old)
                    addBacklinks(from: t, key: key, property: index, value: value)
                    written.append((t, key, index, value))
                }
            }
        }
        for (t, key) in record.nextKeys.enumerated() {
            guard key >= tables[t].nextKey else { throw malformed("\(className(t))'s next key \(key) goes back") }
            tables[t].nextKey = key
        }
        // Links are checked against the final state (a row may link to one inserted after it).
        for (t, key, index, value) in written {
            let property = tables[t].objectSchema.properties[index]
            if isEmbeddedTarget(property) {
                var dangling = false
                value.forEachLink { link in
                    guard let target = schema.classIndex(named: link.className),
                        tables[target].locate(key: link.key.rawValue) != nil
                    else {
                        dangling = true
                        return
                    }
                }
                if dangling { throw malformed("\(className(t)) \(key) owns an embedded object that is not there") }
            } else {
                do throws(WriteError) {
                    _ = try checked(value, for: property, in: className(t), key: RowKey(key))
                } catch {
                    throw malformed("\(error)")
                }
            }
        }
    }

    /// Whether `value` has the shape property `property` stores (a collection for a collection,
    /// links where links go, the element type elsewhere), so writing it into a block cannot
    /// trap. Links are checked once every row is in (`replay`).
    private func fits(_ value: Value, _ property: Property, _ className: String) -> Bool {
        let elements: [Value]
        switch (property.collection, value) {
        case (.single, _): elements = [value]
        case (.list, .list(let items)), (.set, .list(let items)): elements = items
        case (.map, .map(let map)): elements = map.map(\.value)
        default: return false
        }
        for element in elements {
            switch property.type {
            case .mixed: continue
            case .object:
                if case .link = element { continue }
                if element == .null { continue }
                return false
            default:
                if (try? checkElement(element, of: property, in: className, key: nil)) == nil { return false }
            }
        }
        return true
    }
}

extension TableData {
    /// Whether block `b` (the one whose key range could hold `key`) holds row `key`. A block
    /// whose row count fills its key range (up to the next block's first key, or the next key
    /// for the last block) holds every key of it: no row of it was ever deleted, and keys are
    /// ascending and unique. Only other blocks read their keys.
    fileprivate func holds(_ key: Int64, inBlock b: Int) -> Bool {
        let block = blocks[b]
        let end = b + 1 < blocks.count ? blocks[b + 1].firstKey : nextKey
        let first = block.firstKey
        guard key >= first, key < end else { return false }
        let (span, overflow) = end.subtractingReportingOverflow(first)
        if !overflow, span == Int64(block.count) { return true }
        return block.row(of: key) != nil
    }
}
