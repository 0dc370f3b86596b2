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
    /// The values set, ascending by column then row key, one per row and column: the last
    /// record's.
    let values: [OverlayValue]
    private let origin: Mutex<(block: Block?, unread: Int)>
    /// Where a value whose row the origin does not hold is reported (it cannot be: replay
    /// checked the row was there).
    private let damage: StoreDamage?

    private init(origin: Block, values: [OverlayValue], damage: StoreDamage?) {
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

    /// `block` with `values` set (ascending by column then key, one per row and column; every
    /// key one of its rows). A block that is itself an overlay no checkpoint wrote yet is
    /// replaced by one over its origin with both sets of values, so overlays never stack.
    static func block(over block: Block, values: [OverlayValue], damage: StoreDamage?) -> Block {
        var origin = block
        var merged = values
        if block.place == nil, let below = block.overlay, let belowOrigin = below.origin.withLock({ $0.block }) {
            origin = belowOrigin
            merged = OverlayValue.merge(below.values, newer: values)
        }
        let overlay = BlockOverlay(origin: origin, values: merged, damage: damage)
        return Block(
            lazy: origin.count,
            firstKey: origin.firstKey,
            parts: BlockParts(columnCount: origin.columnCount, overlay: overlay) { overlay.part($0) }
        )
    }

    /// The position of the first value of column `column` or after it (values are ascending
    /// by column then key).
    private func firstValue(atOrAfter column: Int, key: Int64 = .min) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if (values[middle].column, values[middle].key) < (column, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The value set on column `column` of row `key`, if this overlay sets one: what the
    /// block reads there, found without reading the part.
    func value(of key: Int64, column: Int) -> Value? {
        let i = firstValue(atOrAfter: column, key: key)
        guard i < values.count, values[i].column == column, values[i].key == key else { return nil }
        return values[i].value
    }

    /// Part `index` (0 the row keys, `c + 1` column `c`) of the origin with this overlay's
    /// values written: copied, unless the origin's part is in memory and no value is set on it
    /// (then shared, as a copy of the block shares it). `BlockParts` asks for each part once.
    private func part(_ index: Int) -> Segment {
        guard let block = origin.withLock({ $0.block }) else {
            fatalError("a block part is read once")
        }
        let count = block.count
        let original: Segment = index == 0 ? .fixed(block.keys) : block.column(index - 1)
        let low = index == 0 ? values.count : firstValue(atOrAfter: index - 1)
        let setsNone = low == values.count || values[low].column != index - 1
        var segment = setsNone && !Self.isMapped(original) ? original : Block.packed(original, count: count)
        if index > 0 {
            let column = index - 1
            for i in low..<values.count {
                guard values[i].column == column else { break }
                let key = values[i].key
                guard let row = block.row(of: key) else {
                    damage?.record(
                        .malformed(what: "commit log", reason: "a value set on row \(key), which its block lacks")
                    )
                    continue
                }
                segment.replace(row..<row + 1, with: [values[i].value], count: count, limit: TableBlock.capacity)
            }
        }
        origin.withLock { state in
            state.unread -= 1
            if state.unread == 0 { state.block = nil }
        }
        return segment
    }

    /// Whether `segment`'s arrays are in a file's mapping (a part is mapped whole or not at all).
    private static func isMapped(_ segment: Segment) -> Bool {
        switch segment {
        case .fixed(let s): s.values.storage.isMapped
        case .bytes(let s): s.offsets.storage.isMapped
        case .mixed(let s): s.encoded.offsets.storage.isMapped
        case .collection(let s): s.offsets.storage.isMapped
        case .backlinks: false
        }
    }
}

/// A value a commit log record set on a block's row: column `column` of row `key`.
struct OverlayValue: Sendable {
    let column: Int
    let key: Int64
    var value: Value

    /// `older` and `newer` (each ascending by column then key, one per row and column) in one,
    /// `newer`'s value where both set a row's column.
    static func merge(_ older: [OverlayValue], newer: [OverlayValue]) -> [OverlayValue] {
        var merged: [OverlayValue] = []
        merged.reserveCapacity(older.count + newer.count)
        var i = 0
        var j = 0
        while i < older.count || j < newer.count {
            guard i < older.count else {
                merged.append(newer[j])
                j += 1
                continue
            }
            guard j < newer.count else {
                merged.append(older[i])
                i += 1
                continue
            }
            let a = (older[i].column, older[i].key)
            let b = (newer[j].column, newer[j].key)
            if a < b {
                merged.append(older[i])
                i += 1
            } else {
                if a == b { i += 1 }
                merged.append(newer[j])
                j += 1
            }
        }
        return merged
    }
}

/// The values a replay set on one table's blocks and has not yet put into overlays, in the
/// order it set them: appending costs no lookup, and a flush sorts them once.
struct PendingValues {
    /// Where each value goes, by the position it was set in (`values` holds the value).
    private var places: [(block: Int, column: Int, key: Int64)] = []
    private var values: [Value] = []
    /// Each value's block and position (`block << 32 | position`), sorted by a flush: plain
    /// integers, which sort several times faster than the places by a comparison closure.
    private var order: [UInt64] = []
    /// The positions of one block's values, sorted by column and key.
    private var run: [Int] = []

    /// The most values pending at once: a replay flushes at this many (which also bounds what
    /// it holds beside the overlays).
    static let limit = 1 << 20

    var isEmpty: Bool { places.isEmpty }
    var count: Int { places.count }

    /// Records that row `key` of block `block` gets `value` in column `column`.
    mutating func set(_ value: Value, block: Int, key: Int64, column: Int) {
        places.append((block, column, key))
        values.append(value)
    }

    /// Puts the values into `table`'s blocks as overlays, and forgets them.
    mutating func flush(into table: inout TableData, damage: StoreDamage?) {
        guard !places.isEmpty else { return }
        precondition(places.count <= PendingValues.limit && table.blocks.count < 1 << 31, "a position fits 32 bits")
        table.touch()
        order.removeAll(keepingCapacity: true)
        for (i, place) in places.enumerated() { order.append(UInt64(place.block) << 32 | UInt64(i)) }
        // By block, and within a block in the order set.
        order.sort()
        var start = 0
        while start < order.count {
            let block = Int(order[start] >> 32)
            var end = start + 1
            while end < order.count, Int(order[end] >> 32) == block { end += 1 }
            run.removeAll(keepingCapacity: true)
            for n in start..<end { run.append(Int(order[n] & 0xFFFF_FFFF)) }
            if run.count > 1 {
                // By column and key; of the values set on one row's column, the last set last.
                run.sort { [places] a, b in
                    let x = places[a]
                    let y = places[b]
                    return (x.column, x.key, a) < (y.column, y.key, b)
                }
            }
            var blockValues: [OverlayValue] = []
            blockValues.reserveCapacity(run.count)
            for (n, i) in run.enumerated() {
                let place = places[i]
                // A later value for the same row and column replaces this one.
                if n + 1 < run.count, places[run[n + 1]].column == place.column, places[run[n + 1]].key == place.key {
                    continue
                }
                blockValues.append(OverlayValue(column: place.column, key: place.key, value: values[i]))
            }
            table.blocks.replace(
                block,
                with: BlockOverlay.block(over: table.blocks[block], values: blockValues, damage: damage)
            )
            start = end
        }
        places.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}
