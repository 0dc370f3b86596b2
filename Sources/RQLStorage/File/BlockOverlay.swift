import RQLCore
import Synchronization

/// Property values that commit log records set on one block's rows, over the block they were
/// set on (its origin), applied part by part when something first reads the block.
///
/// Replaying a record that sets a property used to copy the block holding the row (up to 4,096
/// rows of every column, out of the file's mapping): 1,000 updates of random objects copied
/// every block of a 1M-object table before open could return. Instead the replay leaves a
/// stub (`Block(lazy:…)`) whose parts are the origin's, with these values written into the
/// parts they touch on first read, so opening costs the records, and a block costs its copy
/// only when read. Only values that nothing else derives from go here (`canDefer`): an indexed
/// property, a link, a row inserted or deleted is applied to the blocks at once, as before.
///
/// Every part read is copied out of the origin: the origin may map pages of the checkpoint
/// the records follow, which a later checkpoint (writing this block elsewhere) frees for
/// reuse. Once every part is read the origin is let go.
final class BlockOverlay: Sendable {
    /// Per column, the value each row key was set to, the last record's.
    let values: [Int: [Int64: Value]]
    private let origin: Mutex<(block: Block?, unread: Int)>
    /// Where a value whose row the origin does not hold is reported (it cannot be: replay
    /// checked the row was there).
    private let damage: StoreDamage?

    private init(origin: Block, values: [Int: [Int64: Value]], damage: StoreDamage?) {
        self.values = values
        self.origin = Mutex((origin, origin.columnCount + 1))
        self.damage = damage
    }

    /// Whether property `property` of `table` may be set through an overlay: nothing derived
    /// from the table (an index, backlinks) reads its old value.
    static func canDefer(_ table: TableData, property: Int) -> Bool {
        let schemaProperty = table.objectSchema.properties[property]
        return !schemaProperty.isBacklink && !schemaProperty.canHoldLinks && table.indexes[property] == nil
            && table.fullText[property] == nil
    }

    /// `block` with `values` set (per column, row key → value; every key one of its rows). A
    /// block that is itself an overlay no checkpoint wrote yet is replaced by one over its
    /// origin with both sets of values, so overlays never stack.
    static func block(over block: Block, values: [Int: [Int64: Value]], damage: StoreDamage?) -> Block {
        var origin = block
        var merged = values
        if block.place == nil, let below = block.overlay, let belowOrigin = below.origin.withLock({ $0.block }) {
            origin = belowOrigin
            merged = below.values.merging(values) { older, newer in older.merging(newer) { _, new in new } }
        }
        let overlay = BlockOverlay(origin: origin, values: merged, damage: damage)
        return Block(
            lazy: origin.count,
            firstKey: origin.firstKey,
            parts: BlockParts(columnCount: origin.columnCount, overlay: overlay) { overlay.part($0) }
        )
    }

    /// Part `index` (0 the row keys, `c + 1` column `c`) of the origin, copied, with this
    /// overlay's values written. `BlockParts` asks for each part once.
    private func part(_ index: Int) -> Segment {
        guard let block = origin.withLock({ $0.block }) else {
            fatalError("a block part is read once")
        }
        let count = block.count
        var segment = Block.packed(index == 0 ? .fixed(block.keys) : block.column(index - 1), count: count)
        if index > 0, let set = values[index - 1] {
            for (key, value) in set {
                guard let row = block.row(of: key) else {
                    damage?.record(
                        .malformed(what: "commit log", reason: "a value set on row \(key), which its block lacks")
                    )
                    continue
                }
                segment.replace(row..<row + 1, with: [value], count: count, limit: TableBlock.capacity)
            }
        }
        origin.withLock { state in
            state.unread -= 1
            if state.unread == 0 { state.block = nil }
        }
        return segment
    }
}

/// The values a replay set on one table's blocks and has not yet put into overlays, by block.
struct PendingValues {
    private var byBlock: [Int: [Int: [Int64: Value]]] = [:]

    var isEmpty: Bool { byBlock.isEmpty }

    /// Records that row `key` of block `block` gets `value` in column `column`.
    mutating func set(_ value: Value, block: Int, key: Int64, column: Int) {
        byBlock[block, default: [:]][column, default: [:]][key] = value
    }

    /// Puts the values into `table`'s blocks as overlays, and forgets them.
    mutating func flush(into table: inout TableData, damage: StoreDamage?) {
        guard !byBlock.isEmpty else { return }
        table.touch()
        for (b, values) in byBlock {
            table.blocks.replace(b, with: BlockOverlay.block(over: table.blocks[b], values: values, damage: damage))
        }
        byBlock = [:]
    }
}
