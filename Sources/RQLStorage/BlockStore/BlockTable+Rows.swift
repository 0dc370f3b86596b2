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

/// One row of one block, held directly: reading a stored property is an array load and a
/// switch, with no search. Valid only while the snapshot it was found in is held (the block is
/// not retained; a snapshot's blocks never change: writers copy a block a snapshot shares).
///
/// ```swift
/// var cursor = RowCursor(dogs)
/// if let row = cursor.row(of: rex) { row.value(1) }   // .int(3)
/// ```
public struct BlockRow {
    /// Not retained: a row is read only while the snapshot it came from (which holds the block)
    /// is held, and every read of a managed property would otherwise pay a retain and a release.
    unowned(unsafe) let block: Block
    /// The row within its block.
    public let row: Int

    init(block: Block, row: Int) {
        self.block = block
        self.row = row
    }

    /// The row's key.
    public var key: RowKey { RowKey(block.key(at: row)) }

    /// Stored property `property` (`value(at:property:)`'s conventions); a `linkingObjects`
    /// property reads `.null` here: ask the table.
    @inline(__always)
    public func value(_ property: Int) -> Value {
        block.column(property).value(at: row)
    }

    /// Stored `int` property `property`, or nil when it is null or not an integer column.
    @inline(__always)
    public func int(_ property: Int) -> Int64? {
        block.int(column: property, row: row)
    }
}

extension Block {
    /// An `int` column's value without building a `Value`; nil for null (or another type).
    @inline(__always)
    func int(column: Int, row: Int) -> Int64? {
        let segment = self.column(column)
        switch segment {
        case .fixed(let segment) where segment.type == .int:
            if segment.isNull(row) { return nil }
            return segment.values.pointer.load(fromByteOffset: row &* 8, as: Int64.self)
        default:
            if case .int(let value) = segment.value(at: row) { return value }
            return nil
        }
    }
}

/// Finds rows by key in one table version, fastest when keys come in table order (iterating
/// results): the row after the previous one is checked before any search.
public struct RowCursor {
    private let table: BlockTable
    private var block: Block?
    private var blockIndex = 0
    private var row = -1

    public init(_ table: BlockTable) {
        self.table = table
    }

    /// The row with `key`, or nil when this version has none.
    public mutating func row(of key: RowKey) -> BlockRow? {
        if let block {
            let next = row + 1
            if next < block.count && block.key(at: next) == key.rawValue {
                row = next
                return BlockRow(block: block, row: next)
            }
        }
        guard let (b, r) = table.data.locate(key: key.rawValue) else { return nil }
        let found = table.data.blocks[b]
        block = found
        blockIndex = b
        row = r
        return BlockRow(block: found, row: r)
    }
}

extension BlockTable {
    /// The row with `key`, held directly (see `BlockRow`).
    public func row(of key: RowKey) -> BlockRow? {
        guard let (b, r) = data.locate(key: key.rawValue) else { return nil }
        return BlockRow(block: data.blocks[b], row: r)
    }

    /// Whether `row` (found in an earlier version) is still the row with `key` in this one.
    public func isCurrent(_ row: BlockRow, for key: RowKey) -> Bool {
        guard let b = data.blockIndex(forKey: key.rawValue) else { return false }
        return data.blocks[b] === row.block && row.row < row.block.count && row.block.key(at: row.row) == key.rawValue
    }
}

extension BlockSnapshot {
    /// The table of the class at `index` of `schema.classes`.
    public func table(at index: Int) -> BlockTable {
        BlockTable(data: tables[index], pin: pin)
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
