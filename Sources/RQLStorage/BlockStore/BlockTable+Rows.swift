import RQLCore

/// Where a row is in one version of a table: its block and its row within the block. Valid only
/// for the snapshot it was found in (a later version may have split, merged or dropped blocks).
///
/// ```swift
/// let dogs = store.snapshot.table(named: "Dog")!
/// if let location = dogs.location(of: rex) {
///     dogs.value(at: location, property: 1)     // .int(3)
/// }
/// ```
///
/// The object model's accessors keep one per managed object, so that reading a property is a
/// block lookup and a load instead of two binary searches each time.
public struct RowLocation: Hashable, Sendable {
    /// The block index, `0 ..< blockCount`.
    public let block: Int
    /// The row within the block.
    public let row: Int

    public init(block: Int, row: Int) {
        self.block = block
        self.row = row
    }
}

extension BlockTable {
    /// The block and row of the object with `key`, or nil when this version has no such object.
    public func location(of key: RowKey) -> RowLocation? {
        data.locate(key: key.rawValue).map { RowLocation(block: $0.block, row: $0.row) }
    }

    /// The location of `key` when it is likely to follow `previous` (iterating keys in table
    /// order): the next row of the same block or the first row of the next one is checked before
    /// searching.
    public func location(of key: RowKey, after previous: RowLocation) -> RowLocation? {
        let blocks = data.blocks
        if previous.block < blocks.count {
            let block = blocks[previous.block]
            let row = previous.row + 1
            if row < block.count && block.key(at: row) == key.rawValue {
                return RowLocation(block: previous.block, row: row)
            }
            if row >= block.count && previous.block + 1 < blocks.count {
                let next = blocks[previous.block + 1]
                if next.count > 0 && next.firstKey == key.rawValue {
                    return RowLocation(block: previous.block + 1, row: 0)
                }
            }
        }
        return location(of: key)
    }

    /// Whether `location` still names the row with `key` in this version.
    public func isValid(_ location: RowLocation, for key: RowKey) -> Bool {
        let blocks = data.blocks
        guard location.block < blocks.count else { return false }
        let block = blocks[location.block]
        return location.row < block.count && block.key(at: location.row) == key.rawValue
    }

    /// Property `property` of the row at `location`, as `value(at:property:)` gives it.
    public func value(at location: RowLocation, property: Int) -> Value {
        data.value(block: location.block, row: location.row, property: property)
    }

    /// The keys of every row, in table order, read block by block.
    public var allKeys: [RowKey] {
        var keys: [RowKey] = []
        keys.reserveCapacity(rowCount)
        for block in data.blocks {
            for row in 0..<block.count { keys.append(RowKey(block.key(at: row))) }
        }
        return keys
    }
}

extension BlockSnapshot {
    /// The table of the class at `index` of `schema.classes`.
    public func table(at index: Int) -> BlockTable {
        BlockTable(data: tables[index])
    }
}

extension WriteTransaction {
    /// Adds several classes with no objects at once, so that classes linking to each other
    /// (a list one way, linking objects the other) can be added together; the schema is
    /// validated once, with all of them.
    ///
    /// ```swift
    /// try transaction.addClasses([personSchema, dogSchema])   // Person.dogs ↔ Dog.owners
    /// ```
    public func addClasses(_ classes: [ObjectSchema]) throws(WriteError) {
        try checkOpen()
        for objectSchema in classes where schema[objectSchema.name] != nil {
            throw .classExists(objectSchema.name)
        }
        let newSchema: Schema
        do {
            newSchema = try Schema(schema.classes + classes)
        } catch {
            throw .schema(error)
        }
        schema = newSchema
        for objectSchema in classes { tables.append(TableData(objectSchema: objectSchema)) }
        changes.schemaChanged = true
        writeCount += 1
    }
}
