import RQLCore
import Synchronization

/// One block of a table: at most `TableBlock.capacity` consecutive rows in ascending key order,
/// their keys, and one segment per property (numbered like `ObjectSchema.properties`).
///
/// A block reachable from a published snapshot is never changed. The writer changes a block in
/// place only while it holds the only reference (`isKnownUniquelyReferenced`); otherwise it
/// works on a `copy()`, which shares every array until the first write to it.
///
/// A block of a file opened for reading is a stub (`init(lazy:…)`) until first use: opening
/// reads only the root record, which gives each block's row count and first key, and each part
/// of the block (its row keys, each column) is checked and mapped when something first reads
/// it, so a query that reads one column of seven reads one seventh of the block.
final class Block: @unchecked Sendable {
    private(set) var count: Int
    private var storedKeys: FixedSegment
    private var storedColumns: [Segment]
    /// A stub's parts, each read on first use; nil for a block built in memory or changed.
    private var parts: BlockParts?
    /// Whether `storedKeys` and `storedColumns` hold every part.
    private let loading: LoadOnce
    /// A stub's first key, from the root record (so a block list is built without reading it).
    private var knownFirstKey: Int64?
    /// Where this exact block content is stored in a file, if it is: a commit writes only blocks
    /// without one. Every change clears it (a copy starts without one).
    var place: FilePlace?

    /// The row keys, as `int` values.
    var keys: FixedSegment {
        _read {
            if !loading.isDone, let parts {
                yield parts.keys
            } else {
                yield storedKeys
            }
        }
    }

    /// Every column (a stub reads all its parts: readers of one column use `column(_:)`).
    var columns: [Segment] {
        _read {
            loadIfNeeded()
            yield storedColumns
        }
    }

    /// Column `c`, reading only that part of a stub.
    @inline(__always)
    func column(_ c: Int) -> Segment {
        if !loading.isDone, let parts { return parts.column(c) }
        return storedColumns[c]
    }

    /// The number of columns, without reading a stub.
    var columnCount: Int {
        if !loading.isDone, let parts { return parts.columnCount }
        return storedColumns.count
    }

    init(count: Int, keys: FixedSegment, columns: [Segment]) {
        self.count = count
        storedKeys = keys
        storedColumns = columns
        loading = LoadOnce(done: true)
        knownFirstKey = nil
    }

    /// A stub of `count` rows whose first key is `firstKey`, whose parts `parts` reads on first
    /// use. A part must not fail to read: a damaged one reads as `count` rows of empty values
    /// that keep the table usable, and the damage goes where throwing readers find it.
    init(lazy count: Int, firstKey: Int64, parts: BlockParts) {
        self.count = count
        storedKeys = Self.stubKeys
        storedColumns = []
        self.parts = parts
        loading = LoadOnce(done: false)
        knownFirstKey = firstKey
    }

    /// What a stub holds as its keys until its parts are read (which replaces them before any
    /// change): one empty segment for every stub, not an allocation each, since open makes a
    /// stub for every block of every table.
    private static let stubKeys = Segment.empty(.fixed(.int, optional: false)).rowKeys

    /// The values commit log records set on this stub's origin block, if it is one
    /// (`BlockOverlay`).
    var overlay: BlockOverlay? { parts?.overlay }

    /// Whether any part of the block is read (always, for a block built in memory).
    var isRead: Bool { loading.isDone || parts?.readCount ?? 0 > 0 }

    /// Whether each part is read: the row keys, then each column.
    var partsRead: [Bool] {
        if loading.isDone { return Array(repeating: true, count: storedColumns.count + 1) }
        return parts?.isRead ?? []
    }

    @inline(__always)
    private func loadIfNeeded() {
        if !loading.isDone { loadParts() }
    }

    private func loadParts() {
        loading.run {
            guard let parts else { return false }
            storedKeys = parts.keys
            storedColumns = (0..<parts.columnCount).map { parts.column($0) }
            return true
        }
    }

    /// Starts a change: the block is read, and no longer what its place holds.
    private func startChange() {
        loadIfNeeded()
        parts = nil
        place = nil
        knownFirstKey = nil
    }

    /// An empty block for properties of `shapes`.
    convenience init(shapes: [SegmentShape]) {
        self.init(
            count: 0,
            keys: Segment.empty(.fixed(.int, optional: false)).rowKeys,
            columns: shapes.map(Segment.empty)
        )
    }

    /// A copy to change. A block read from a file is copied out of the mapping whole (`packed()`):
    /// the copy must not keep reading the old version's page, which a later commit frees and
    /// reuses once no snapshot holds that version.
    func copy() -> Block {
        if keys.values.storage.isMapped { return packed() }
        return Block(count: count, keys: keys, columns: columns)
    }

    // MARK: Reading

    @inline(__always)
    func key(at i: Int) -> Int64 { keys.values.load(i, as: Int64.self) }

    var firstKey: Int64 { knownFirstKey ?? key(at: 0) }
    var lastKey: Int64 { key(at: count - 1) }

    /// The row keys as a buffer: fetched once for a search, since each `keys` access of a stub
    /// goes through its part's slot (a segment copy and its reference counting).
    private var keyBuffer: UnsafeBufferPointer<Int64> { keys.values.buffer(count: count, as: Int64.self) }

    /// The first row whose key is at least `key`.
    func lowerBound(_ key: Int64) -> Int { Self.lowerBound(key, in: keyBuffer) }

    private static func lowerBound(_ key: Int64, in keys: UnsafeBufferPointer<Int64>) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The row holding `key`, or `nil`.
    func row(of key: Int64) -> Int? {
        let keys = keyBuffer
        let i = Self.lowerBound(key, in: keys)
        return i < keys.count && keys[i] == key ? i : nil
    }

    func value(at row: Int, column: Int) -> Value { self.column(column).value(at: row) }

    /// Every stored property of `row` (`.null` for backlinks).
    func rowValues(at row: Int) -> [Value] { (0..<columnCount).map { column($0).value(at: row) } }

    // MARK: Writing (only on a block the writer holds alone)

    /// Appends a row; `values` has one value per column (ignored for backlinks).
    func append(key: Int64, values: [Value]) {
        startChange()
        storedKeys.append(.int(key), count: count, limit: TableBlock.capacity)
        for c in storedColumns.indices {
            storedColumns[c].append(values[c], count: count, limit: TableBlock.capacity)
        }
        count += 1
    }

    /// Appends rows (keys ascending, above every key here), column by column.
    func append(keys newKeys: [Int64], columns newColumns: [[Value]]) {
        startChange()
        storedKeys.replace(count..<count, with: newKeys.map { .int($0) }, count: count, limit: TableBlock.capacity)
        for c in storedColumns.indices {
            storedColumns[c].replace(count..<count, with: newColumns[c], count: count, limit: TableBlock.capacity)
        }
        count += newKeys.count
    }

    func removeRows(_ range: Range<Int>) {
        startChange()
        storedKeys.replace(range, with: [], count: count, limit: TableBlock.capacity)
        for c in storedColumns.indices {
            storedColumns[c].replace(range, with: [], count: count, limit: TableBlock.capacity)
        }
        count -= range.count
    }

    func set(_ value: Value, row: Int, column: Int) {
        startChange()
        storedColumns[column].replace(row..<row + 1, with: [value], count: count, limit: TableBlock.capacity)
    }

    func replaceElements(row: Int, column: Int, range: Range<Int>, with values: [Value], keys: [String]?) {
        startChange()
        storedColumns[column].replaceElements(row: row, range: range, with: values, keys: keys, rowCount: count)
    }

    /// Appends rows with `newKeys`, each column filled by `fill(column, &segment, count)`.
    func appendRows(keys newKeys: [Int64], _ fill: (Int, inout Segment, Int) -> Void) {
        startChange()
        storedKeys.append(raw: newKeys.withUnsafeBytes { Array($0) }, nulls: nil, count: count)
        for c in storedColumns.indices { fill(c, &storedColumns[c], count) }
        count += newKeys.count
    }

    func appendColumn(_ segment: Segment) {
        startChange()
        storedColumns.append(segment)
    }

    func removeColumn(_ column: Int) {
        startChange()
        storedColumns.remove(at: column)
    }

    func replaceColumn(_ column: Int, with segment: Segment) {
        startChange()
        storedColumns[column] = segment
    }
}

extension Block: RowKeySource {
    /// The row keys as a `TableBlock` reads them: a stub reads (and checks) its keys part only now.
    var rowKeys: UnsafeBufferPointer<RowKey> { keys.values.buffer(count: count, as: RowKey.self) }
}

extension Segment {
    /// This segment as a block's row keys, which every reader builds as a fixed segment of ints.
    var rowKeys: FixedSegment {
        guard case .fixed(let keys) = self else { fatalError("a block's keys part reads as a fixed segment") }
        return keys
    }
}

/// The parts of a stub block, the row keys and each column, each read once on first use (part 0
/// the keys, part `c + 1` column `c`), from any thread: from the block's bytes in a store file
/// (`BlockCoding.StoredBlock`), or by a function (an overlay's).
///
/// Open makes one for every block of every table, so it costs one object: the read bits of the
/// first 64 parts are a word of it, a stored block is described by plain fields and its table's
/// shared `BlockCoding.StoredTable` (not a closure capturing them), and the parts' buffer is
/// allocated by the first read and initialised part by part as they are read. A part is read under
/// the lock, stored, and then its bit is set; a reader that sees the bit set reads the part
/// without the lock.
// Unchecked: `stored` is set once, under `lock`, and `stored[p]` written once, under `lock`,
// before bit `p` is set with release ordering; both are read without the lock only after the
// bit is seen set with acquire ordering; the buffers are freed in `deinit` only.
final class BlockParts: @unchecked Sendable {
    /// How the parts are read.
    enum Source: Sendable {
        /// Checked and mapped from a store file's bytes (`BlockCoding.read`).
        case stored(BlockCoding.StoredBlock)
        case function(@Sendable (Int) -> Segment)
    }

    let columnCount: Int
    /// Set when the parts are another block's with values set over them (`BlockOverlay`).
    let overlay: BlockOverlay?
    private let source: Source
    /// Bit `p`: part `p` (below 64) is in `stored`.
    private let readBits = Atomic<UInt64>(0)
    /// Bit `p % 64` of word `p / 64 - 1`: part `p` (64 and up) is in `stored`; nil for a block
    /// of fewer than 64 parts.
    private let moreBits: UnsafeMutablePointer<Atomic<UInt64>>?
    /// Part `p` is initialised once its bit is set, and only then; allocated by the first read
    /// (under the lock, before any bit is set), so a stub never read allocates none.
    private let stored = Atomic<UnsafeMutablePointer<Segment>?>(nil)
    private let lock = Mutex<Void>(())

    init(columnCount: Int, overlay: BlockOverlay? = nil, source: Source) {
        self.columnCount = columnCount
        self.overlay = overlay
        self.source = source
        let extraWords = columnCount / 64
        if extraWords > 0 {
            let words = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: extraWords)
            for word in 0..<extraWords { (words + word).initialize(to: Atomic(0)) }
            moreBits = words
        } else {
            moreBits = nil
        }
    }

    convenience init(columnCount: Int, overlay: BlockOverlay? = nil, read: @escaping @Sendable (Int) -> Segment) {
        self.init(columnCount: columnCount, overlay: overlay, source: .function(read))
    }

    deinit {
        if let stored = stored.load(ordering: .acquiring) {
            for part in 0...columnCount where isRead(part) { (stored + part).deinitialize(count: 1) }
            stored.deallocate()
        }
        if let moreBits {
            moreBits.deinitialize(count: columnCount / 64)
            moreBits.deallocate()
        }
    }

    var keys: FixedSegment { part(0).rowKeys }

    func column(_ c: Int) -> Segment { part(c + 1) }

    @inline(__always)
    private func isRead(_ part: Int) -> Bool {
        let bits = part < 64 ? readBits.load(ordering: .acquiring) : bitWord(part)[0].load(ordering: .acquiring)
        return bits & (1 << UInt64(part & 63)) != 0
    }

    private func bitWord(_ part: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        guard let moreBits else { fatalError("part \(part) of a block of \(columnCount + 1) parts") }
        return moreBits + (part >> 6 - 1)
    }

    @inline(__always)
    private func part(_ index: Int) -> Segment {
        if isRead(index), let stored = stored.load(ordering: .acquiring) { return stored[index] }
        return lock.withLock { _ in
            let stored: UnsafeMutablePointer<Segment>
            if let allocated = self.stored.load(ordering: .acquiring) {
                stored = allocated
            } else {
                stored = .allocate(capacity: columnCount + 1)
                self.stored.store(stored, ordering: .releasing)
            }
            if !isRead(index) {
                let segment: Segment
                switch source {
                case .stored(let block): segment = BlockCoding.read(index, of: block)
                case .function(let read): segment = read(index)
                }
                (stored + index).initialize(to: segment)
                let bit: UInt64 = 1 << UInt64(index & 63)
                if index < 64 {
                    readBits.bitwiseOr(bit, ordering: .releasing)
                } else {
                    bitWord(index)[0].bitwiseOr(bit, ordering: .releasing)
                }
            }
            return stored[index]
        }
    }

    /// Whether each part is read.
    var isRead: [Bool] { (0...columnCount).map { isRead($0) } }

    var readCount: Int { (0...columnCount).count { isRead($0) } }
}

extension Block {
    /// The block with all its arrays copied into one contiguous storage at aligned offsets and
    /// no spare capacity: what a bulk load produces and what phase 2 writes as a run of pages.
    func packed() -> Block { packedParts().block }

    /// `segment` of `count` rows copied into a storage of its own, as `packed()` lays it out.
    static func packed(_ segment: Segment, count: Int) -> Segment {
        var packer = Packer(storage: ByteStorage(capacity: Packer.size(of: segment, count: count), isPacked: true))
        return packer.pack(segment, count: count)
    }

    /// `packed()`, and where each part ends in its storage: the row keys' arrays, then each
    /// column's (a store file checksums each part on its own).
    func packedParts() -> (block: Block, partEnds: [Int]) {
        var size = Packer.size(of: keys, count: count)
        for segment in columns { size += Packer.size(of: segment, count: count) }
        var packer = Packer(storage: ByteStorage(capacity: size, isPacked: true))
        let packedKeys = packer.pack(keys, count: count)
        var ends = [packer.next]
        ends.reserveCapacity(columns.count + 1)
        let packedColumns = columns.map { segment in
            let packed = packer.pack(segment, count: count)
            ends.append(packer.next)
            return packed
        }
        return (Block(count: count, keys: packedKeys, columns: packedColumns), ends)
    }
}

/// Lays segments out in one storage, each array at the next aligned offset.
private struct Packer {
    let storage: ByteStorage
    var next = 0

    init(storage: ByteStorage) {
        self.storage = storage
    }

    static func aligned(_ bytes: Int) -> Int {
        (bytes + ByteStorage.alignment - 1) / ByteStorage.alignment * ByteStorage.alignment
    }

    static func size(of s: FixedSegment, count: Int) -> Int {
        aligned(count * s.type.stride) + (s.nulls == nil ? 0 : aligned(NullBits.wordCount(count) * 8))
    }

    static func size(of s: BytesSegment, count: Int) -> Int {
        aligned((count + 1) * 8) + aligned(s.offset(count))
            + (s.nulls == nil ? 0 : aligned(NullBits.wordCount(count) * 8))
    }

    static func size(of segment: Segment, count: Int) -> Int {
        switch segment {
        case .fixed(let s): size(of: s, count: count)
        case .bytes(let s): size(of: s, count: count)
        case .mixed(let s): size(of: s.encoded, count: count)
        case .collection(let s):
            aligned((count + 1) * 8) + size(of: s.elements, count: s.offset(count))
                + (s.keys.map { size(of: $0, count: s.offset(count)) } ?? 0)
        case .backlinks: 0
        }
    }

    mutating func copy(_ array: ByteArray, used: Int) -> ByteArray {
        let offset = next
        (storage.base + offset).copyMemory(from: array.pointer, byteCount: used)
        next += Packer.aligned(used)
        return ByteArray(storage: storage, offset: offset, capacity: used)
    }

    mutating func pack(_ s: FixedSegment, count: Int) -> FixedSegment {
        FixedSegment(
            type: s.type,
            values: copy(s.values, used: count * s.type.stride),
            nulls: s.nulls.map { copy($0, used: NullBits.wordCount(count) * 8) }
        )
    }

    mutating func pack(_ s: BytesSegment, count: Int) -> BytesSegment {
        BytesSegment(
            isString: s.isString,
            offsets: copy(s.offsets, used: (count + 1) * 8),
            bytes: copy(s.bytes, used: s.offset(count)),
            nulls: s.nulls.map { copy($0, used: NullBits.wordCount(count) * 8) }
        )
    }

    mutating func pack(_ segment: Segment, count: Int) -> Segment {
        switch segment {
        case .fixed(let s): return .fixed(pack(s, count: count))
        case .bytes(let s): return .bytes(pack(s, count: count))
        case .mixed(let s): return .mixed(MixedSegment(encoded: pack(s.encoded, count: count), cache: s.cache))
        case .collection(let s):
            let elementCount = s.offset(count)
            return .collection(
                CollectionSegment(
                    kind: s.kind,
                    offsets: copy(s.offsets, used: (count + 1) * 8),
                    elements: pack(s.elements, count: elementCount),
                    keys: s.keys.map { pack($0, count: elementCount) }
                )
            )
        case .backlinks: return .backlinks
        }
    }
}
