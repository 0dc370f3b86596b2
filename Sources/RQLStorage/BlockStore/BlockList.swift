/// A table's blocks in key order, kept in chunks of at most `chunkCapacity` blocks so that a
/// commit that replaces one block copies one chunk and the short list of chunks, not a list of
/// every block (a million objects are 245 blocks; a hundred million, 24,415).
///
/// Positions are tracked per chunk (`BlockChunk.starts`) and per list (`chunkStarts`), so a
/// change of one block's row count renumbers at most one chunk and the chunk list.
///
/// ```swift
/// var list = BlockList()
/// list.append(block)
/// list.locate(position: 5)   // (block: 0, row: 5)
/// ```
struct BlockList: RandomAccessCollection, Sendable {
    static let chunkCapacity = 64

    private(set) var chunks: [BlockChunk] = []
    /// `chunkStarts[c]` is the position of chunk `c`'s first row; the last entry is the row count.
    private(set) var chunkStarts: [Int] = [0]
    /// `chunkFirstBlock[c]` is the list index of chunk `c`'s first block; the last entry is the
    /// block count.
    private(set) var chunkFirstBlock: [Int] = [0]

    init() {}

    /// The list of `blocks`, in chunks of `chunkCapacity` made at once (open builds every
    /// table's list this way, not block by block).
    init(_ blocks: [Block]) {
        var first = 0
        chunks.reserveCapacity((blocks.count + BlockList.chunkCapacity - 1) / BlockList.chunkCapacity)
        while first < blocks.count {
            let end = Swift.min(first + BlockList.chunkCapacity, blocks.count)
            let chunk = BlockChunk(blocks: Array(blocks[first..<end]))
            chunks.append(chunk)
            chunkStarts.append(chunkStarts[chunkStarts.count - 1] + chunk.rowCount)
            chunkFirstBlock.append(end)
            first = end
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { chunkFirstBlock[chunkFirstBlock.count - 1] }

    /// Rows in all blocks.
    var rowCount: Int { chunkStarts[chunkStarts.count - 1] }

    subscript(b: Int) -> Block {
        let (c, i) = chunkIndex(ofBlock: b)
        return chunks[c].blocks[i]
    }

    /// The chunk holding block `b` and the block's index in it.
    func chunkIndex(ofBlock b: Int) -> (chunk: Int, index: Int) {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) >> 1
            if chunkFirstBlock[mid] <= b { low = mid } else { high = mid - 1 }
        }
        return (low, b - chunkFirstBlock[low])
    }

    /// The position of block `b`'s first row.
    func start(of b: Int) -> Int {
        let (c, i) = chunkIndex(ofBlock: b)
        return chunkStarts[c] + chunks[c].starts[i]
    }

    /// The block holding `position` (`0 ..< rowCount`) and the row within it.
    func locate(position: Int) -> (block: Int, row: Int) {
        let low = lastIndexAtMost(position, in: chunkStarts, count: chunks.count)
        let chunk = chunks[low]
        let local = position - chunkStarts[low]
        let starts = chunk.starts
        let first = lastIndexAtMost(local, in: starts, count: chunk.blocks.count)
        return (chunkFirstBlock[low] + first, local - starts[first])
    }

    // MARK: Changing

    /// Calls `body` with block `b` made the writer's own (the chunk and the block are copied
    /// first if a snapshot shares them; the block's arrays are not), then renumbers positions.
    mutating func mutate<R>(_ b: Int, _ body: (Block) -> R) -> R {
        let (c, i) = chunkIndex(ofBlock: b)
        let chunk = ownChunk(c)
        // A block with a place is what the file holds there (a stub of a block written before
        // the commit is the list's alone): changed in place, it would keep reading pages the
        // commit frees, so it is copied out too.
        if !isKnownUniquelyReferenced(&chunk.blocks[i]) || chunk.blocks[i].place != nil {
            let original = chunk.blocks[i]
            chunk.blocks[i] = original.copy()
            // Copied out of a mapping, its pages are not this writer's to keep resident.
            original.releaseMappedPages()
        }
        let count = chunk.blocks[i].count
        let result = body(chunk.blocks[i])
        chunk.blockChanged(i)
        if chunk.blocks[i].count != count {
            chunk.renumber(from: i)
            renumber(from: c)
        }
        return result
    }

    /// Whether `mutate(b)` would change block `b` in place rather than copy it first: the
    /// writer holds the block alone, and it is not what the file holds at its place.
    mutating func holdsAlone(_ b: Int) -> Bool {
        let (c, i) = chunkIndex(ofBlock: b)
        guard isKnownUniquelyReferenced(&chunks[c]) else { return false }
        let chunk = chunks[c]
        return isKnownUniquelyReferenced(&chunk.blocks[i]) && chunk.blocks[i].place == nil
    }

    /// The last block whose first key is at most `key`, or `nil` when `key` is below every block.
    func blockIndex(forKey key: Int64) -> Int? {
        guard !chunks.isEmpty, key >= chunks[0].firstKeys[0] else { return nil }
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) >> 1
            if chunks[mid].firstKeys[0] <= key { low = mid } else { high = mid - 1 }
        }
        let firstKeys = chunks[low].firstKeys
        return chunkFirstBlock[low] + lastIndexAtMost(key, in: firstKeys, count: firstKeys.count)
    }

    /// Puts `block` in place of block `b`.
    mutating func replace(_ b: Int, with block: Block) {
        let (c, i) = chunkIndex(ofBlock: b)
        let chunk = ownChunk(c)
        let count = chunk.blocks[i].count
        chunk.blocks[i] = block
        chunk.blockChanged(i)
        // A block of the same row count (a replay's overlay, say) moves no position.
        if block.count != count {
            chunk.renumber(from: i)
            renumber(from: c)
        }
    }

    mutating func append(_ block: Block) {
        if let last = chunks.indices.last, chunks[last].blocks.count < BlockList.chunkCapacity {
            let chunk = ownChunk(last)
            chunk.blocks.append(block)
            chunk.firstKeys.append(block.count > 0 ? block.firstKey : .max)
            chunk.starts.append(chunk.starts[chunk.starts.count - 1] + block.count)
            renumber(from: last)
        } else {
            chunks.append(BlockChunk(blocks: [block]))
            chunkStarts.append(rowCount)
            chunkFirstBlock.append(endIndex)
            renumber(from: chunks.count - 1)
        }
    }

    mutating func remove(at b: Int) {
        let (c, i) = chunkIndex(ofBlock: b)
        if chunks[c].blocks.count == 1 {
            chunks.remove(at: c)
            chunkStarts.remove(at: c + 1)
            chunkFirstBlock.remove(at: c + 1)
            renumber(from: c)
            return
        }
        let chunk = ownChunk(c)
        chunk.blocks.remove(at: i)
        chunk.firstKeys.remove(at: i)
        chunk.starts.remove(at: i + 1)
        chunk.renumber(from: i)
        renumber(from: c)
    }

    private mutating func ownChunk(_ c: Int) -> BlockChunk {
        if !isKnownUniquelyReferenced(&chunks[c]) { chunks[c] = chunks[c].copy() }
        return chunks[c]
    }

    private mutating func renumber(from c: Int) {
        for j in c..<chunks.count {
            chunkStarts[j + 1] = chunkStarts[j] + chunks[j].rowCount
            chunkFirstBlock[j + 1] = chunkFirstBlock[j] + chunks[j].blocks.count
        }
    }
}

/// The last of the first `count` (at least one) elements of ascending `sorted` that is at most
/// `value`, or 0 when none is: the search under each "which chunk, which block" of a block list.
///
/// ```swift
/// lastIndexAtMost(25, in: [0, 10, 20, 30], count: 3)   // 2
/// ```
@inline(__always)
func lastIndexAtMost<Element: Comparable>(_ value: Element, in sorted: [Element], count: Int) -> Int {
    var low = 0
    var high = count - 1
    while low < high {
        let middle = (low + high + 1) >> 1
        if sorted[middle] <= value { low = middle } else { high = middle - 1 }
    }
    return low
}

/// Up to `BlockList.chunkCapacity` consecutive blocks and where each starts within the chunk.
/// Changed only while the writer holds the only reference.
final class BlockChunk: @unchecked Sendable {
    var blocks: [Block]
    /// `starts[i]` is the chunk-relative position of `blocks[i]`'s first row; one more entry than blocks.
    var starts: [Int]
    /// Each block's first key (`.max` for an empty block, which exists only while it is being
    /// filled), so key lookups binary-search plain integers.
    var firstKeys: [Int64]

    init(blocks: [Block]) {
        self.blocks = blocks
        starts = [0]
        starts.reserveCapacity(BlockList.chunkCapacity + 1)
        for block in blocks { starts.append(starts[starts.count - 1] + block.count) }
        firstKeys = blocks.map { $0.count > 0 ? $0.firstKey : .max }
    }

    private init(blocks: [Block], starts: [Int], firstKeys: [Int64]) {
        self.blocks = blocks
        self.starts = starts
        self.firstKeys = firstKeys
    }

    func copy() -> BlockChunk { BlockChunk(blocks: blocks, starts: starts, firstKeys: firstKeys) }

    /// Refreshes what the chunk caches about block `i` after it changed.
    func blockChanged(_ i: Int) {
        firstKeys[i] = blocks[i].count > 0 ? blocks[i].firstKey : .max
    }

    var rowCount: Int { starts[starts.count - 1] }

    /// Recomputes the starts after block `i`'s row count changed.
    func renumber(from i: Int) {
        for j in i..<blocks.count { starts[j + 1] = starts[j] + blocks[j].count }
    }
}
