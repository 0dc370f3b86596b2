import Foundation
import RQLCore

/// What `BlockStore.verify(path:)` and `rqlc info` report about a store file.
public struct StoreFileInfo: Sendable, Equatable {
    /// The file format version in the header.
    public let formatVersion: UInt32
    /// The newest valid version.
    public let version: UInt64
    /// Every class and its number of objects, in schema order.
    public let classes: [(name: String, objects: Int)]
    /// The file's size in bytes.
    public let fileSize: UInt64
    /// The bytes the newest version reaches (root, blocks, index nodes).
    public let reachableBytes: UInt64
    /// Bytes free for reuse: the newest version's free list (pages older versions reached,
    /// reused by commits once no reader holds those versions) and any space past its end.
    public let freeBytes: UInt64
    /// Set when the file's newest version is unreadable and this describes the intact version
    /// before it (`verify(path:acceptingOlderVersion: true)` only; see `BlockStore.fallback`).
    public let fallback: StoreFileError?
    /// Commits read from the commit log after the newest checkpoint (`<path>.log`).
    public let logRecords: Int

    /// The file's size in pages of `FileHeader.pageSize` bytes.
    public var pages: UInt64 { (fileSize + 4095) / 4096 }

    public static func == (a: StoreFileInfo, b: StoreFileInfo) -> Bool {
        a.formatVersion == b.formatVersion && a.version == b.version && a.fileSize == b.fileSize
            && a.reachableBytes == b.reachableBytes && a.freeBytes == b.freeBytes && a.fallback == b.fallback
            && a.logRecords == b.logRecords
            && a.classes.map(\.name) == b.classes.map(\.name)
            && a.classes.map(\.objects) == b.classes.map(\.objects)
    }
}

extension BlockStore {
    /// Creates a store file at `path` (which must not exist) holding an empty store of `schema`
    /// at version 0, and opens it. Commits write to the file: `commit()` returns once the new
    /// version is durable (one disk sync for a small commit).
    ///
    /// ```swift
    /// let store = try BlockStore.create(path: "dogs.rql", schema: schema)
    /// try store.write { try $0.insert("Dog", ["name": .string("Rex")]) }
    /// let again = try BlockStore.open(path: "dogs.rql")   // version 1, Rex
    /// ```
    public static func create(path: String, schema: Schema) throws(StoreFileError) -> BlockStore {
        let (file, snapshot) = try StoreFile.create(path: path, schema: schema)
        return BlockStore(file: file, snapshot: snapshot)
    }

    /// Opens the store file at `path` at its newest valid version. Blocks are mapped read-only
    /// and read in place; a damaged file gives a `StoreFileError` naming the problem. When only
    /// the newest commit is damaged (or was cut short), the store opens at the intact version
    /// before it and says so in `fallback`; commits then throw until `acceptOlderVersion()`. A
    /// path that is not a regular file is `.notRegularFile`; an empty file opened read-write
    /// becomes an empty store (version 0, no classes), read-only it is `.emptyFile`.
    ///
    /// ```swift
    /// let store = try BlockStore.open(path: "dogs.rql", readOnly: true)
    /// store.snapshot.table(named: "Dog")?.rowCount
    /// ```
    public static func open(path: String, readOnly: Bool = false) throws(StoreFileError) -> BlockStore {
        let (file, snapshot) = try StoreFile.open(path: path, readOnly: readOnly)
        return BlockStore(file: file, snapshot: snapshot)
    }

    /// Opens the store file at `path` for writing, or creates it as an empty store of `schema`
    /// (also when the file is empty). Safe against other processes doing the same at once: one
    /// creates the file, whole, and the others open what it made.
    ///
    /// ```swift
    /// let store = try BlockStore.open(path: "dogs.rql", creatingWith: schema)
    /// ```
    public static func open(path: String, creatingWith schema: Schema) throws(StoreFileError) -> BlockStore {
        let (file, snapshot) = try StoreFile.openOrCreate(path: path, schema: schema)
        return BlockStore(file: file, snapshot: snapshot)
    }

    /// Throws `.notRegularFile` when `path` names something that cannot hold a store (a
    /// directory, a FIFO, a device); a missing path passes (opening it reports it).
    ///
    /// ```swift
    /// try BlockStore.checkRegularFile(path: "/dev/zero")  // not a regular file: it is a character device
    /// ```
    public static func checkRegularFile(path: String) throws(StoreFileError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return }
        throw StoreFileError(path: path, problem: .notRegularFile(kind: FileSystem.kind(of: info.st_mode)))
    }

    /// Whether `prefix` (the first bytes of a file) is the start of a store file.
    ///
    /// ```swift
    /// BlockStore.isStoreFile(prefix: Array(try Data(contentsOf: url).prefix(8)))
    /// ```
    public static func isStoreFile(prefix: [UInt8]) -> Bool {
        FileHeader.hasMagic(prefix)
    }

    /// Checks the whole newest version of the file at `path`: both checksums, every block
    /// (checksum, offsets, lengths, keys ascending), every index node (checksum, order, counts,
    /// entries pointing at rows), the free list (no free page reachable). Returns what it found,
    /// or throws the first problem. When the newest version is unreadable and the one before it
    /// checks out, throws `.newestVersionUnreadable` naming both, unless `acceptingOlderVersion`:
    /// then the info describes the intact version and its `fallback` says what was not read.
    ///
    /// ```swift
    /// let info = try BlockStore.verify(path: "dogs.rql")   // info.version, info.classes
    /// ```
    public static func verify(
        path: String,
        acceptingOlderVersion: Bool = false
    ) throws(StoreFileError) -> StoreFileInfo {
        let (file, _) = try StoreFile.open(path: path, readOnly: true)
        return try describe(file, path: path, thorough: true, acceptingOlderVersion: acceptingOlderVersion)
    }

    /// What `verify(path:acceptingOlderVersion:)` reports, from the header, the root and the
    /// table directory alone: no block or index node is read or checked, so it takes the same
    /// time whatever the file's size. The version is the one `open` reads; `reachableBytes`
    /// counts the root and the blocks (index nodes are not visited).
    ///
    /// ```swift
    /// let info = try BlockStore.info(path: "dogs.rql")   // info.version, info.classes
    /// ```
    public static func info(
        path: String,
        acceptingOlderVersion: Bool = false
    ) throws(StoreFileError) -> StoreFileInfo {
        let (file, _) = try StoreFile.open(path: path, readOnly: true)
        return try describe(file, path: path, thorough: false, acceptingOlderVersion: acceptingOlderVersion)
    }

    private static func describe(
        _ file: StoreFile,
        path: String,
        thorough: Bool,
        acceptingOlderVersion: Bool
    ) throws(StoreFileError) -> StoreFileInfo {
        let newest = try file.readNewest(current: nil, thorough: thorough)
        if let fallback = newest.fallback, !acceptingOlderVersion { throw fallback }
        guard let result = newest.checkpoint else { throw StoreFileError(path: path, problem: .headerChecksum) }
        return StoreFileInfo(
            formatVersion: try file.formatVersion(),
            version: newest.snapshot.version,
            classes: newest.snapshot.schema.classes.indices.map {
                (newest.snapshot.schema.classes[$0].name, newest.snapshot.tables[$0].rowCount)
            },
            fileSize: result.fileSize,
            reachableBytes: result.reachableBytes,
            freeBytes: result.freeList.freeBytes
                + (result.fileSize - Swift.min(result.fileSize, result.freeList.fileEnd)),
            fallback: newest.fallback,
            logRecords: newest.logRecords
        )
    }

    /// The file this store reads and writes, or `nil` in memory.
    public var path: String? { file?.path }

    /// Which file this store reads and writes (device and inode), whatever path opened it; `nil`
    /// in memory. Two paths to one file (a symbolic or hard link) give the same identity.
    public var fileIdentity: FileIdentity? {
        file.flatMap { FileIdentity(descriptor: $0.descriptor) }
    }

    /// Set when the file's newest version could not be read and the store read the intact
    /// version before it: a `StoreFileError` whose problem is `.newestVersionUnreadable` (the
    /// version numbers and why). Nil when the store is at the file's newest version, and again
    /// once a commit lands.
    ///
    /// ```swift
    /// let store = try BlockStore.open(path: "dogs.rql")
    /// if let fallback = store.fallback {
    ///     print(fallback)  // … the newest version 4 could not be read (…); version 3 is intact …
    ///     store.acceptOlderVersion()  // the next commit builds on version 3, replacing 4
    /// }
    /// ```
    public var fallback: StoreFileError? { file?.pins.damage.fallback }

    /// Consents to commit on top of the older version a `fallback` opened: until this is
    /// called, every commit to the file throws the fallback (and writes nothing), because it
    /// would replace the unreadable newest version for good.
    ///
    /// ```swift
    /// store.acceptOlderVersion()
    /// try store.write { try $0.insert("Dog", ["name": .string("Rex")]) }
    /// ```
    public func acceptOlderVersion() { file?.pins.damage.acceptFallback() }

    /// Checks this store's file (see `verify(path:)`).
    public func verify() throws(StoreFileError) -> StoreFileInfo? {
        guard let path else { return nil }
        return try Self.verify(path: path)
    }

    /// Reads a newer version that another process committed to the file, if any, and makes it
    /// the newest; true when it did. Snapshots taken before keep reading their version.
    @discardableResult
    public func refresh() throws(StoreFileError) -> Bool {
        try refreshed().moved
    }

    /// `refresh()`, also giving the newest version on disk when the store is now at it.
    private func refreshed() throws(StoreFileError) -> (moved: Bool, newest: UInt64?) {
        guard let file, let onDisk = try file.newestVersionOnDisk() else { return (false, nil) }
        let current = snapshot
        guard onDisk > current.version else { return (false, onDisk == current.version ? onDisk : nil) }
        let fresh = try file.readNewest(current: current, thorough: false)
        guard fresh.snapshot.version > current.version else { return (false, nil) }
        refreshWillPublish.withLock { $0 }?()
        // No write lock here: a commit may have published a newer version since `current`.
        guard publishRefreshed(fresh.snapshot, changes: fresh.changes) else { return (false, nil) }
        return (true, fresh.snapshot.version == onDisk && fresh.fallback == nil ? onDisk : nil)
    }

    /// How many change sets of other processes' commits a store keeps (`refreshedChanges(after:through:)`).
    static let refreshedChangesLimit = 4096

    /// The change sets of the commits after version `from` up to `to`, one per commit, when
    /// another process made them and `refresh()` read them from the commit log: the
    /// descriptions their writers' transactions gave (`CommitResult.changes`), written once.
    /// Nil when one of them is not known (a checkpoint read instead of records, a commit of
    /// this process, or one older than the last `refreshedChangesLimit`).
    ///
    /// ```swift
    /// if store.refresh(), let changes = store.refreshedChanges(after: 4, through: store.snapshot.version) { … }
    /// ```
    public func refreshedChanges(after from: UInt64, through to: UInt64) -> [ChangeSet]? {
        guard to > from else { return [] }
        return refreshedChanges.withLock { known in
            guard let first = known.firstIndex(where: { $0.version == from + 1 }),
                known.count - first >= Int(to - from), known[first + Int(to - from) - 1].version == to
            else { return nil }
            return Array(known[first..<(first + Int(to - from))])
        }
    }

    /// Whether another open store of the same file (in any process, through any path) holds a
    /// version of it now: one its reader table shows, or one only its `ReaderMark` shows (a
    /// store opened through a hard link, which publishes in another lock file, or one that
    /// could not open the lock file). True too when neither can be read, so callers that need
    /// the file to themselves (`Realm.deleteFiles`, compaction) hold back.
    ///
    /// ```swift
    /// let store = try BlockStore.open(path: "dogs.rql")
    /// store.isOpenElsewhere  // true while another process has dogs.rql (or a link to it) open
    /// ```
    public var isOpenElsewhere: Bool {
        guard let file else { return false }
        return file.hasOtherReaders
    }

    /// Whether another process committed a version newer than this store's newest: one read of
    /// the file's header (false in memory, or when the header cannot be read now).
    ///
    /// ```swift
    /// if store.hasNewerVersionOnDisk() { … }   // then refresh under the write lock
    /// ```
    public func hasNewerVersionOnDisk() -> Bool {
        guard let file, let onDisk = try? file.newestVersionOnDisk() else { return false }
        return onDisk > snapshot.version
    }

    /// Whether commits append to the commit log beside the file (`<path>.log`): one record and
    /// one sync each, with a checkpoint (the blocks written copy-on-write, as every commit
    /// does without the log) once the log passes `checkpointThreshold` bytes, on `checkpoint()`,
    /// and when the store closes. On by default; off, every commit is a checkpoint. Every
    /// store reads the log whatever this says. A commit that changes the schema, or whose
    /// record would be large, is a checkpoint either way.
    ///
    /// ```swift
    /// try store.write { try $0.insert("Dog", ["name": .string("Rex")]) }   // one log record
    /// store.logsCommits = false   // from now on each commit writes its blocks
    /// ```
    public var logsCommits: Bool {
        get { file?.state.withLock { $0.logging } ?? false }
        set { file?.state.withLock { $0.logging = newValue } }
    }

    /// The commit log's size in bytes past which a commit also writes a checkpoint (4 MiB).
    public var checkpointThreshold: Int {
        get { file?.state.withLock { $0.checkpointThreshold } ?? 0 }
        set { file?.state.withLock { $0.checkpointThreshold = Swift.max(newValue, 0) } }
    }

    /// Writes the newest version as a checkpoint when the commit log holds commits after the
    /// last one (the log then starts a new generation after it); waits for the write lock.
    /// Returns whether it wrote one.
    @discardableResult
    public func checkpoint() throws(StoreFileError) -> Bool {
        guard let file, !file.isReadOnly else { return false }
        let transaction = beginWrite()
        defer { transaction.rollback() }
        let current = snapshot
        guard file.hasLogRecords, current.version > file.newestSlot.version else { return false }
        if let refusal = file.pins.damage.commitRefusal { throw refusal }
        // The catch-up above may have failed: never checkpoint a version older than the log's.
        if let onDisk = try file.newestVersionOnDisk(), onDisk != current.version {
            throw StoreFileError(path: file.path, problem: .conflict(expected: current.version, found: onDisk))
        }
        publish(try file.checkpoint(current))
        return true
    }

    /// On close: a writer that leaves commits in the log writes them as a checkpoint, unless
    /// another process holds the writer lock (it checkpoints in turn).
    func checkpointOnClose() {
        guard let file, !file.isReadOnly, file.hasLogRecords, file.pins.damage.commitRefusal == nil,
            file.tryLock()
        else { return }
        defer { file.unlock() }
        guard let fresh = try? file.readNewest(current: snapshot, thorough: false),
            fresh.snapshot.version > file.newestSlot.version, fresh.fallback == nil
        else { return }
        _ = try? file.checkpoint(fresh.snapshot)
    }

    /// Writes the newest version to a fresh file at `path` (which must not exist): only what
    /// that version reaches, with no older versions' pages, and the commits the log holds
    /// written into it; the copy has no log of its own.
    public func compact(to path: String) throws(StoreFileError) {
        try compact(to: path, format: FileHeader.formatVersion)
    }

    /// `compact(to:)` into a file of `format`: tests make files of the formats this build reads.
    func compact(to path: String, format: UInt32) throws(StoreFileError) {
        let source = snapshot
        let (created, version0) = try StoreFile.create(path: path, schema: source.schema, logs: false, format: format)
        let target = BlockStore(file: created, snapshot: version0)
        guard let file = target.file else { return }
        file.state.withLock { $0.makesLog = false }
        let copy = BlockSnapshot(schema: source.schema, version: 1, tables: source.tables)
        file.lock()
        defer { file.unlock() }
        _ = try file.commit(copy, base: target.snapshot)
    }

    /// At the start of a write transaction on a file: take the cross-process lock and catch up
    /// with any version another process committed meanwhile. Caught up, the commit need not
    /// look at the disk again: no other writer can commit until the lock is released.
    func startFileWrite() {
        guard let file, !file.isReadOnly else { return }
        file.lock()
        if let newest = (try? refreshed())?.newest {
            file.state.withLock { $0.newestWhileLocked = newest }
        }
    }
}
