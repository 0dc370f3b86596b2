import Dispatch
import RQLCore
import Synchronization

/// The versioned block store: the newest committed `BlockSnapshot`, and the write lock that
/// lets one `WriteTransaction` at a time produce the next one.
///
/// ```swift
/// let store = BlockStore(schema: schema)
/// let transaction = store.beginWrite()            // waits while another transaction is open
/// let rex = try transaction.insert("Dog", ["name": .string("Rex"), "age": .int(3)])
/// let result = try transaction.commit()           // version 1, changes: Dog inserted [rex]
/// let snapshot = store.snapshot                   // any thread, never blocks
/// ```
///
/// # Design
///
/// **Layout.** A table (`TableData`) is an ordered list of blocks (`Block`) of at most
/// `TableBlock.capacity` rows in ascending `RowKey` order. Keys are assigned increasing and
/// never reused; an insert appends to the last block (a full one starts a new block); a deletion
/// removes the row from its block, an empty block is dropped and a block that fits with a
/// neighbour in half a block merges into it. The list (`BlockList`) is kept in chunks of 64
/// blocks, each knowing where its blocks' positions start, so position → block is two binary
/// searches and key → block one over the blocks' first keys, with no per-row map to maintain.
///
/// **Block memory.** A block is its row keys plus one `Segment` per property, and a segment is
/// one to three `ByteArray`s (values, offsets, bytes, null bitmap) inside a `ByteStorage`:
/// little-endian, every array 16-byte aligned, fixed-width values in the Swift memory layout of
/// the type `FixedWidthColumnView` exposes (`Int64`, `Double`, `Timestamp`, `Decimal128`, …;
/// links as `Int64` keys, -1 for none), strings and binaries as `count + 1` `Int` offsets and
/// their bytes, collections as `count + 1` offsets into an element segment (plus a key segment
/// for maps), null bitmaps as `UInt64` words. `ColumnView`s point straight into these arrays:
/// a scan decodes nothing. A bulk-built block is `packed()`: all its arrays in one storage at
/// aligned offsets, exactly the run of bytes phase 2 writes to (and maps from) the file.
///
/// **`mixed`.** Stored as `MixedCoding` bytes (a tag byte and a little-endian payload, nested
/// lists and maps included), item by item like a binary column. `value(at:)` decodes one item;
/// a view decodes the segment once into a cache owned by the segment (`MixedCache`), so
/// `ColumnView.mixed` keeps its `[Value]` shape. The cache lives as long as that segment
/// version; a changed segment starts a new one.
///
/// **Versions (copy on write).** A snapshot is a value: schema, version, one `TableData` per
/// class. A transaction starts from the newest snapshot's tables and changes its own copy:
/// a block, array, or index node is written in place only while `isKnownUniquelyReferenced`
/// says the transaction holds the only reference; otherwise it is copied first. So a commit
/// costs the touched blocks' touched arrays, the O(log n) index nodes on each changed path,
/// the touched chunk of the block list (at most 64 entries) and the short list of chunks;
/// everything else is shared.
/// One exception keeps inserts O(row): an array alone in its storage may be appended to in
/// place past its `watermark` (the bytes the newest version uses), because older snapshots
/// read only the rows they counted. A rolled-back append leaves the watermark ahead, so the
/// next append copies. Null bitmaps are never appended in place (they would change a word
/// older snapshots read); they are copied, at most 512 bytes a block.
///
/// **Indexes**, all `PersistentBTree`s (copy-on-write B+-trees, 64 entries a node) stored in
/// `TableData` and therefore versioned with their table, all keyed by `RowKey` (never by
/// position, which a deletion would shift) and updated per row as it changes:
/// - primary key and hash indexes: `PropertyIndex`, `(value, key)` in `ValueOrdering`, so the
///   same tree answers equality (`indexLookup`, `position(ofPrimaryKey:)`) and ranges
///   (`indexRange`, the sorted index); `int` properties use plain integer entries;
/// - full-text: `(token, key)` per distinct token of each row (`FullTextTree`);
/// - backlinks: `(target key, origin, source key)` per link, in the target's table
///   (`BacklinkIndex`), so `backlinks(at:)` is one range scan in origin order and a deletion
///   finds every incoming link; `linkingObjects` columns are built per block from it on demand
///   and cached for that table version (`TableCaches`).
///
/// **The file** (`Sources/RQLStorage/File`, `BlockStore.create` / `open(path:)`). A header
/// page with two checksummed slots, then pages appended by commits. A commit writes every block
/// and index node the file does not hold yet (each carries its `FilePlace` once written; every
/// change clears it), then the version's root (schema, per table the block list with each
/// block's offset, length, checksum and row count, the next key, each index tree's root), then
/// the slot of the other parity, and syncs once: the slot's checksum covers everything the
/// commit wrote, so open can tell a torn commit and fall back to the other slot (reporting it:
/// `fallback`; commits refuse it until `acceptOlderVersion()`). A block is its
/// `packed()` bytes, so opening maps the file read-only and builds `ByteArray`s pointing into
/// the mapping (`ByteStorage(mapped:)`, never written: writers copy) after checking every
/// offsets array; index trees are read lazily, a `BTreeNode` stub loading its node on first
/// visit, so open reads each tree's root and a lookup the nodes on its path. Blocks and nodes
/// are checked against the checksums their references carry when first read.
/// A commit frees what the version before it reached and it does not (tagged with its version,
/// in the root's free list) and reuses runs freed at a version no reader holds: snapshots pin
/// their version (`VersionPin`), each process publishes its oldest in `<path>.lock`
/// (`ReaderTable`), and the two newest versions are always kept. `flock` on the store file
/// serialises writers across processes; `compact(to:)` writes a fresh, minimal file.
///
/// **Concurrency.** One writer at a time: `beginWrite()` waits on a semaphore that the
/// transaction releases at `commit()` or `rollback()` (or when it is released unfinished).
/// Publishing swaps the newest snapshot under a mutex held for a pointer copy; readers take a
/// snapshot and then never synchronise again.
public final class BlockStore: Sendable {
    private let newest: Mutex<BlockSnapshot>
    private let writeLock = WriteLock()
    /// The file this store reads and commits to, or `nil` for a store in memory.
    let file: StoreFile?
    /// The change sets of other processes' commits that `refresh()` read from the commit log,
    /// ascending by version, the newest `refreshedChangesLimit` kept.
    let refreshedChanges = Mutex<[ChangeSet]>([])
    /// Called by `refresh()` between reading a newer version and publishing it: tests hold a
    /// refresh there to race it with a commit.
    let refreshWillPublish = Mutex<(@Sendable () -> Void)?>(nil)

    /// An empty store of `schema` at version 0.
    public init(schema: Schema) {
        newest = Mutex(BlockSnapshot(schema: schema))
        file = nil
    }

    /// A store over an open file, at the version read from it.
    init(file: StoreFile, snapshot: BlockSnapshot) {
        newest = Mutex(snapshot)
        self.file = file
    }

    deinit {
        checkpointOnClose()
    }

    /// A store holding every object of `source` (a dataset's snapshot, another store's
    /// snapshot…) at version 1, built block by block (see `WriteTransaction.importObjects`).
    ///
    /// ```swift
    /// let store = try BlockStore(importing: try DatasetLoader.load(json: text))
    /// ```
    public convenience init(importing source: some StoreReader) throws(WriteError) {
        self.init(schema: source.schema)
        let transaction = beginWrite()
        try transaction.importObjects(from: source)
        _ = try transaction.commit()
    }

    /// The newest committed version. Taking it is a pointer copy under a short lock; reading it
    /// never blocks anyone.
    public var snapshot: BlockSnapshot {
        newest.withLock { $0 }
    }

    /// Starts the one write transaction, waiting while another is open (on any thread).
    public func beginWrite() -> WriteTransaction {
        writeLock.acquire()
        startFileWrite()
        return WriteTransaction(store: self, base: snapshot)
    }

    /// Starts a write transaction if none is open, without waiting.
    public func tryBeginWrite() -> WriteTransaction? {
        guard writeLock.tryAcquire() else { return nil }
        startFileWrite()
        return WriteTransaction(store: self, base: snapshot)
    }

    /// Runs `body` in a write transaction and commits it; a thrown error rolls it back.
    ///
    /// ```swift
    /// let result = try store.write { try $0.insert("Dog", ["name": .string("Rex")]) }
    /// ```
    @discardableResult
    public func write<R>(_ body: (WriteTransaction) throws -> R) throws -> (value: R, commit: CommitResult) {
        let transaction = beginWrite()
        do {
            let value = try body(transaction)
            return (value, try transaction.commit())
        } catch {
            transaction.rollback()
            throw error
        }
    }

    func publish(_ snapshot: BlockSnapshot) {
        newest.withLock { $0 = snapshot }
    }

    /// Publishes a version `refresh()` read from the file, with the change sets of the commits
    /// it read (`refreshedChanges`), unless the store is already at that version or past it:
    /// a refresh reads without the write lock, so a commit of this process, or another
    /// refresh, may have published meanwhile, and the store's version never goes back. Returns
    /// whether it published.
    func publishRefreshed(_ snapshot: BlockSnapshot, changes: [ChangeSet]) -> Bool {
        newest.withLock { current in
            guard snapshot.version > current.version else { return false }
            // Only the commits after the version replaced: another refresh may have recorded
            // the earlier ones already.
            let passed = current.version
            let unknown = changes.filter { $0.version > passed }
            if !unknown.isEmpty {
                refreshedChanges.withLock { known in
                    known.append(contentsOf: unknown)
                    if known.count > Self.refreshedChangesLimit {
                        known.removeFirst(known.count - Self.refreshedChangesLimit)
                    }
                }
            }
            current = snapshot
            return true
        }
    }

    func endWrite() {
        file?.unlock()
        writeLock.release()
    }
}

/// A lock that any thread may release (a transaction may commit on another thread than began
/// it), so a semaphore rather than a mutex.
// Unchecked: its one field is a `DispatchSemaphore`, which any thread may wait on and signal.
private final class WriteLock: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)

    func acquire() { semaphore.wait() }
    func tryAcquire() -> Bool { semaphore.wait(timeout: .now()) == .success }
    func release() { semaphore.signal() }
}
