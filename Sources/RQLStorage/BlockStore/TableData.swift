import RQLCore
import Synchronization

/// One class's table in one version: its blocks in ascending key order, where each block's
/// positions start, the next key to assign, and the indexes that are versioned with it.
///
/// A value type: a snapshot holds one, and a write transaction holds its own copy, which shares
/// every block and index node with the snapshot until it writes them (blocks, block-list chunks
/// and tree nodes are copied on first write).
struct TableData: Sendable {
    var objectSchema: ObjectSchema
    /// The blocks, and where each one's positions start.
    var blocks = BlockList()
    /// Keys are assigned increasing and never reused, even after the newest row is deleted.
    var nextKey: Int64 = 0
    /// The equality-and-range index of the primary key and of every hash-indexed property.
    var indexes: [Int: PropertyIndex] = [:]
    /// The full-text index of every full-text-indexed property.
    var fullText: [Int: FullTextTree] = [:]
    /// Every link into this table.
    var backlinks = BacklinkIndex()
    /// Derived views (whole-table columns, backlink columns), built on first use for this exact
    /// content; every change replaces the object.
    var caches = TableCaches()

    init(objectSchema: ObjectSchema) {
        self.objectSchema = objectSchema
        for (i, property) in objectSchema.properties.enumerated() where Self.hasIndex(property, i, objectSchema) {
            indexes[i] = PropertyIndex(for: property)
        }
        for (i, property) in objectSchema.properties.enumerated() where property.isFullText {
            fullText[i] = FullTextTree()
        }
    }

    static func hasIndex(_ property: Property, _ index: Int, _ objectSchema: ObjectSchema) -> Bool {
        property.isIndexed || index == objectSchema.primaryKeyIndex
    }

    var rowCount: Int { blocks.rowCount }

    var shapes: [SegmentShape] { objectSchema.properties.map(SegmentShape.init) }

    // MARK: Finding rows

    /// The block and row within it of `position` (`0 ..< rowCount`).
    func locate(_ position: Int) -> (block: Int, row: Int) {
        blocks.locate(position: position)
    }

    /// The block whose key range could hold `key`: the last block whose first key is <= `key`.
    func blockIndex(forKey key: Int64) -> Int? {
        blocks.blockIndex(forKey: key)
    }

    /// The block and row of the row with `key`, or `nil`. A block that fills its key range is
    /// not read (`filledRangeStart`).
    func locate(key: Int64) -> (block: Int, row: Int)? {
        guard let b = blockIndex(forKey: key) else { return nil }
        if let first = filledRangeStart(ofBlock: b) {
            let (row, overflow) = key.subtractingReportingOverflow(first)
            return !overflow && row >= 0 && row < Int64(blocks[b].count) ? (b, Int(row)) : nil
        }
        guard let row = blocks[b].row(of: key) else { return nil }
        return (b, row)
    }

    /// The first key of block `b` when its row count fills its key range, up to the next
    /// block's first key (or `nextKey` for the last block): keys ascend and are unique, so the
    /// block holds every key of the range (no row of it was ever deleted) and row `i`'s key is
    /// the first plus `i`, known without reading the block's keys (which a store file checks
    /// and maps on first use). Nil otherwise.
    func filledRangeStart(ofBlock b: Int) -> Int64? {
        let block = blocks[b]
        guard block.count > 0 else { return nil }
        let end = b + 1 < blocks.count ? blocks[b + 1].firstKey : nextKey
        let first = block.firstKey
        let (span, overflow) = end.subtractingReportingOverflow(first)
        return !overflow && span == Int64(block.count) ? first : nil
    }

    func position(of key: Int64) -> Int? {
        locate(key: key).map { blocks.start(of: $0.block) + $0.row }
    }

    func key(at position: Int) -> Int64 {
        let (b, row) = locate(position)
        return blocks[b].key(at: row)
    }

    /// The positions of `keys` (ascending, all present or skipped when absent), walking the
    /// blocks once instead of searching from the top for each key.
    func positions(ofSortedKeys keys: [Int64]) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(keys.count)
        guard let first = keys.first, var b = blockIndex(forKey: first) ?? (blocks.isEmpty ? nil : 0) else {
            return positions
        }
        var block = blocks[b]
        var start = blocks.start(of: b)
        for key in keys {
            while b + 1 < blocks.count && blocks[b + 1].count > 0 && blocks[b + 1].firstKey <= key {
                start += block.count
                b += 1
                block = blocks[b]
            }
            if let row = block.row(of: key) { positions.append(start + row) }
        }
        return positions
    }

    /// Property `property` of the row at `position`; backlinks come from the backlink index.
    func value(at position: Int, property: Int) -> Value {
        let (b, row) = locate(position)
        return value(block: b, row: row, property: property)
    }

    func value(block b: Int, row: Int, property: Int) -> Value {
        if case .linkingObjects(let originClass, let originProperty) = objectSchema.properties[property].type {
            let sources = backlinks.sources(
                target: blocks[b].key(at: row),
                origin: BacklinkOrigin(className: originClass, property: originProperty)
            )
            return .list(sources.map { .link(ObjectLink(className: originClass, key: RowKey($0))) })
        }
        return blocks[b].value(at: row, column: property)
    }

    /// Every stored property of the row with `key`, in schema order (`.null` for backlinks).
    func rowValues(key: Int64) -> [Value]? {
        locate(key: key).map { blocks[$0.block].rowValues(at: $0.row) }
    }
}

/// Views derived from one table version, built on first use and shared by every reader of
/// that version: whole-table columns for `withColumn` on multi-block tables, and per-block
/// backlink columns.
final class TableCaches: Sendable {
    let columns = Mutex<[Int: Segment]>([:])
    let backlinkColumns = Mutex<[BacklinkColumnKey: BacklinkColumn]>([:])

    /// Whether nothing is cached yet.
    var isEmpty: Bool {
        columns.withLock { $0.isEmpty } && backlinkColumns.withLock { $0.isEmpty }
    }
}

struct BacklinkColumnKey: Hashable, Sendable {
    let block: Int
    let property: Int
}

/// One block's backlinks of one `linkingObjects` property, in stable memory for a view.
// Unchecked: the buffers are filled in `init` and never written again.
final class BacklinkColumn: @unchecked Sendable {
    let offsets: UnsafeMutableBufferPointer<Int>
    let keys: UnsafeMutableBufferPointer<Int64>
    let originClass: String

    init(lists: [[Int64]], originClass: String) {
        self.originClass = originClass
        offsets = .allocate(capacity: lists.count + 1)
        let flat = lists.flatMap { $0 }
        keys = .allocate(capacity: flat.count)
        _ = keys.initialize(from: flat)
        var next = 0
        offsets[0] = 0
        for (i, list) in lists.enumerated() {
            next += list.count
            offsets[i + 1] = next
        }
    }

    deinit {
        offsets.deallocate()
        keys.deallocate()
    }

    var view: ColumnView {
        .collection(
            CollectionColumnView(
                kind: .list,
                offsets: UnsafeBufferPointer(offsets),
                elements: .link(LinkColumnView(targetClass: originClass, keys: UnsafeBufferPointer(keys))),
                keys: nil
            )
        )
    }
}
