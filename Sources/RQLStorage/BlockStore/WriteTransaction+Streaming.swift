import RQLCore

/// Streaming bulk loads: objects appended as a reader produces them (the streaming dataset
/// loader), a block at a time, through the same building steps as `importObjects`: rows go
/// into whole blocks column by column, each block is packed as soon as it is full (so a load
/// holds one unpacked block per class), and indexes and backlinks are built once at the end.
/// On a store file a full block is written to the file at once (`BlockSpill`), so a load
/// holds its blocks' bytes no longer than it fills them.
extension WriteTransaction {
    /// Starts appending objects of `source` (a dataset's schema): classes this store lacks are
    /// added, and each class it has must have the same stored properties (by name and type;
    /// properties only this store has take their defaults), as for `importObjects`.
    ///
    /// ```swift
    /// let appender = try transaction.beginAppending(schema: datasetSchema)
    /// let key = try appender.append([.string("Rex"), .int(3)], to: 0)   // class 0 of datasetSchema
    /// try appender.finish()   // or appender.cancel(): the transaction is as it was
    /// ```
    @_spi(Streaming) public func beginAppending(schema source: Schema) throws(WriteError) -> RowAppender {
        try checkOpen()
        let appender = RowAppender(transaction: self)
        do throws(WriteError) {
            // All at once: a new class may link to another new one.
            let missing = source.classes.filter { schema[$0.name] == nil }
            if !missing.isEmpty {
                do {
                    schema = try Schema(schema.classes + missing)
                } catch {
                    throw WriteError.schema(error)
                }
                tables += missing.map { TableData(objectSchema: $0) }
                changes.schemaChanged = true
                writeCount += 1
            }
            for sourceClass in source.classes {
                let t = try tableIndex(sourceClass.name)
                let target = tables[t].objectSchema
                guard target.isEmbedded == sourceClass.isEmbedded else {
                    throw WriteError.incompatibleSchema(className: sourceClass.name, property: nil)
                }
                var sourceIndex: [Int?] = Array(repeating: nil, count: target.properties.count)
                for (sp, property) in sourceClass.properties.enumerated() where !property.isBacklink {
                    guard let tp = target.propertyIndex(named: property.name),
                        target.properties[tp].typeSyntax == property.typeSyntax
                    else { throw WriteError.incompatibleSchema(className: sourceClass.name, property: property.name) }
                    sourceIndex[tp] = sp
                }
                appender.classes.append(
                    RowAppender.ClassState(table: t, sourceIndex: sourceIndex, tableData: tables[t])
                )
            }
        } catch {
            appender.cancel()
            throw error
        }
        return appender
    }
}

/// Appends rows to the tables of one write transaction a block at a time (see
/// `WriteTransaction.beginAppending(schema:)`). Rows are given in the source schema's property
/// order; keys are each table's next keys, in the order rows are appended. Until `finish()`,
/// the new rows are in the tables but not in their indexes or their targets' backlinks; on
/// `cancel()` (or any error from `finish()`) the transaction returns to the state it had before
/// `beginAppending`.
@_spi(Streaming) public final class RowAppender {
    /// A class (not a struct): its pending columns are appended to in place.
    final class ClassState {
        let table: Int
        /// For each table property, the source property it comes from (`nil`: its default).
        let sourceIndex: [Int?]
        let wasEmpty: Bool
        let firstBlock: Int
        /// The first key this load gives; keys are consecutive from it.
        let firstKey: Int64
        var appended = 0
        /// Rows not yet in a block, by source property.
        var pending: [[Value]]
        var pendingCount = 0
        /// Rows that fill the table's last block (a whole block when it is full).
        var room: Int
        let mixedProperties: [Int]
        /// Per source property: whether it is a set (kept sorted and unique).
        let isSet: [Bool]

        init(table: Int, sourceIndex: [Int?], tableData: TableData) {
            self.table = table
            self.sourceIndex = sourceIndex
            wasEmpty = tableData.rowCount == 0
            firstBlock = tableData.blocks.count
            firstKey = tableData.nextKey
            pending = Array(repeating: [], count: sourceIndex.count)
            room = RowAppender.room(in: tableData)
            let properties = tableData.objectSchema.properties
            mixedProperties = properties.indices.filter { properties[$0].type == .mixed }
            var isSet = Array(repeating: false, count: sourceIndex.count)
            for (tp, sp) in sourceIndex.enumerated() where properties[tp].collection == .set {
                if let sp { isSet[sp] = true }
            }
            self.isSet = isSet
        }
    }

    private let transaction: WriteTransaction
    private let savedSchema: Schema
    private let savedTables: [TableData]
    private let savedChanges: ChangeRecorder
    private let savedWriteCount: Int
    /// Per source class (in the source schema's order).
    var classes: [ClassState] = []
    /// Values set after their rows were appended (links that pointed forward), applied by `finish`.
    private var corrections: [(source: Int, key: Int64, property: Int, value: Value)] = []
    private var isDone = false

    init(transaction: WriteTransaction) {
        self.transaction = transaction
        savedSchema = transaction.schema
        savedTables = transaction.tables
        savedChanges = transaction.changes
        savedWriteCount = transaction.writeCount
    }

    /// The key the next row appended to source class `c` gets.
    package func nextKey(_ c: Int) -> Int64 {
        classes[c].firstKey + Int64(classes[c].appended)
    }

    /// The first key of this load's rows of source class `c` (the `i`-th row gets `firstKey + i`).
    package func firstKey(_ c: Int) -> Int64 { classes[c].firstKey }

    /// Whether source class `c`'s table held a row with primary key `value` before this load.
    package func existingRowHasPrimaryKey(_ value: Value, in c: Int) -> Bool {
        let table = classes[c].table
        guard !classes[c].wasEmpty, let pk = transaction.tables[table].objectSchema.primaryKeyIndex,
            let index = savedTables[table].indexes[pk]
        else { return false }
        return !index.rows(equalTo: value, limit: 1).isEmpty
    }

    /// Appends one row of source class `c` (a value per source property; collections already
    /// valid: sets sorted and unique) and returns its key. A mixed value nested too deep throws.
    ///
    /// ```swift
    /// let key = try appender.append([.string("Rex"), .int(3)], to: 0)
    /// ```
    @discardableResult
    @_spi(Streaming) public func append(_ row: [Value], to c: Int) throws(WriteError) -> Int64 {
        let state = classes[c]
        if !state.mixedProperties.isEmpty {
            let objectSchema = transaction.tables[state.table].objectSchema
            for tp in state.mixedProperties {
                guard let sp = state.sourceIndex[tp] else { continue }
                try transaction.checkMixedDepth(row[sp], objectSchema.properties[tp], objectSchema.name, nil)
            }
        }
        let key = nextKey(c)
        for (p, value) in row.enumerated() {
            state.pending[p].append(state.isSet[p] ? Self.setOrder(value) : value)
        }
        state.pendingCount += 1
        state.appended += 1
        if state.pendingCount >= state.room { flush(c) }
        return key
    }

    /// Replaces source property `property` of the row with `key` of source class `c`, appended
    /// earlier in this load (a link that could only be resolved later).
    package func correct(_ value: Value, property: Int, key: Int64, in c: Int) {
        corrections.append((c, key, property, classes[c].isSet[property] ? Self.setOrder(value) : value))
    }

    /// A set's elements as a set column keeps them: sorted and unique.
    private static func setOrder(_ value: Value) -> Value {
        guard case .list(let items) = value, items.count > 1 else { return value }
        return .list(Value.sortedUnique(items))
    }

    /// Moves source class `c`'s pending rows into its table's blocks, packing a block it fills.
    private func flush(_ c: Int) {
        let state = classes[c]
        guard state.pendingCount > 0 else { return }
        let t = state.table
        let first = nextKey(c) - Int64(state.pendingCount)
        let keys = Array(first..<first + Int64(state.pendingCount))
        let defaults = transaction.tables[t].objectSchema.properties.map(\.defaultValue)
        let pending = state.pending
        state.pending = pending.map { _ in [] }
        transaction.appendRows(
            t,
            keys: keys[...],
            copy: { _, _, _, _ in false },
            value: { row, tp in state.sourceIndex[tp].map { pending[$0][row] } ?? defaults[tp] }
        )
        state.pendingCount = 0
        let last = transaction.tables[t].blocks.count - 1
        if transaction.tables[t].blocks[last].count >= TableBlock.capacity {
            // A store file's transaction writes the full block now and keeps a stub of it.
            transaction.spillFinishedBlock(t, last)
            if transaction.tables[t].blocks[last].place == nil {
                transaction.tables[t].blocks.replace(last, with: transaction.tables[t].blocks[last].packed())
            }
        }
        state.room = Self.room(in: transaction.tables[t])
        for p in state.pending.indices { state.pending[p].reserveCapacity(state.room) }
    }

    /// The rows that fill `table`'s last block, or a whole block when it is full or there is none.
    static func room(in table: TableData) -> Int {
        guard table.blocks.count > 0 else { return TableBlock.capacity }
        let left = TableBlock.capacity - table.blocks[table.blocks.count - 1].count
        return left > 0 ? left : TableBlock.capacity
    }

    /// Writes what is pending, applies the corrections, builds the indexes and backlinks of
    /// every new row and records the insertions: the rows are now part of the transaction.
    ///
    /// ```swift
    /// try appender.finish()
    /// let result = try transaction.commit()
    /// ```
    @_spi(Streaming) public func finish() throws(WriteError) {
        precondition(!isDone, "an appender finishes once")
        for c in classes.indices { flush(c) }
        for correction in corrections {
            let state = classes[correction.source]
            guard let tp = state.sourceIndex.firstIndex(of: correction.property),
                let (b, row) = transaction.tables[state.table].locate(key: correction.key)
            else { continue }
            transaction.tables[state.table].mutateBlock(b) { $0.set(correction.value, row: row, column: tp) }
        }
        corrections = []
        var loaded: [(table: Int, keys: [Int64])] = []
        for state in classes where state.appended > 0 {
            let keys = state.firstKey..<state.firstKey + Int64(state.appended)
            let objectSchema = transaction.tables[state.table].objectSchema
            let holdsLinks = objectSchema.properties.contains {
                switch $0.type {
                case .object, .mixed: true
                default: false
                }
            }
            let keyList = !state.wasEmpty || holdsLinks ? Array(keys) : []
            transaction.finishBulk(
                state.table,
                newKeys: keyList,
                wasEmpty: state.wasEmpty,
                firstBlock: transaction.tables[state.table].blocks.count
            )
            transaction.changes.insert(objectSchema.name, keys: keys)
            if holdsLinks { loaded.append((state.table, keyList)) }
        }
        do {
            try transaction.addBulkBacklinks(loaded)
        } catch {
            cancel()
            throw error
        }
        transaction.writeCount += 1
        isDone = true
    }

    /// Undoes everything since `beginAppending`: the transaction is as it was before.
    package func cancel() {
        guard !isDone else { return }
        isDone = true
        transaction.schema = savedSchema
        transaction.tables = savedTables
        transaction.changes = savedChanges
        transaction.writeCount = savedWriteCount
    }
}
