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

    /// The file's size in pages of `FileHeader.pageSize` bytes.
    public var pages: UInt64 { (fileSize + 4095) / 4096 }

    public static func == (a: StoreFileInfo, b: StoreFileInfo) -> Bool {
        a.formatVersion == b.formatVersion && a.version == b.version && a.fileSize == b.fileSize
            && a.reachableBytes == b.reachableBytes && a.freeBytes == b.freeBytes
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
    /// and read in place; a damaged file gives a `StoreFileError` naming the problem (or, when
    /// only the newest commit is damaged, the version before it).
    ///
    /// ```swift
    /// let store = try BlockStore.open(path: "dogs.rql", readOnly: true)
    /// store.snapshot.table(named: "Dog")?.rowCount
    /// ```
    public static func open(path: String, readOnly: Bool = false) throws(StoreFileError) -> BlockStore {
        let (file, snapshot) = try StoreFile.open(path: path, readOnly: readOnly)
        return BlockStore(file: file, snapshot: snapshot)
    }

    /// Whether `prefix` (the first bytes of a file) is the start of a store file.
    ///
    /// ```swift
    /// BlockStore.isStoreFile(prefix: Array(try Data(contentsOf: url).prefix(8)))
    /// ```
    public static func isStoreFile(prefix: some Sequence<UInt8>) -> Bool {
        FileHeader.hasMagic(prefix)
    }

    /// Checks the whole newest valid version of the file at `path`: both checksums, every block
    /// (offsets, lengths, keys ascending), every index node (order, counts, entries pointing at
    /// rows), the free list (no free page reachable). Returns what it found, or throws the first problem.
    ///
    /// ```swift
    /// let info = try BlockStore.verify(path: "dogs.rql")   // info.version, info.classes
    /// ```
    public static func verify(path: String) throws(StoreFileError) -> StoreFileInfo {
        let (file, _) = try StoreFile.open(path: path, readOnly: true)
        let result = try file.readNewestVersion(thorough: true)
        return StoreFileInfo(
            formatVersion: FileHeader.formatVersion,
            version: result.snapshot.version,
            classes: result.snapshot.schema.classes.indices.map {
                (result.snapshot.schema.classes[$0].name, result.snapshot.tables[$0].rowCount)
            },
            fileSize: result.fileSize,
            reachableBytes: result.reachableBytes,
            freeBytes: result.freeList.freeBytes
                + (result.fileSize - Swift.min(result.fileSize, result.freeList.fileEnd))
        )
    }

    /// The file this store reads and writes, or `nil` in memory.
    public var path: String? { file?.path }

    /// Checks this store's file (see `verify(path:)`).
    public func verify() throws(StoreFileError) -> StoreFileInfo? {
        guard let path else { return nil }
        return try Self.verify(path: path)
    }

    /// Reads a newer version that another process committed to the file, if any, and makes it
    /// the newest; true when it did. Snapshots taken before keep reading their version.
    @discardableResult
    public func refresh() throws(StoreFileError) -> Bool {
        guard let file else { return false }
        guard let onDisk = try file.newestSlotOnDisk(), onDisk.version > snapshot.version else { return false }
        let fresh = try file.readNewestVersion(thorough: false)
        guard fresh.snapshot.version > snapshot.version else { return false }
        file.adopt(fresh)
        publish(fresh.snapshot)
        return true
    }

    /// Whether another process committed a version newer than this store's newest: one read of
    /// the file's header (false in memory, or when the header cannot be read now).
    ///
    /// ```swift
    /// if store.hasNewerVersionOnDisk() { … }   // then refresh under the write lock
    /// ```
    public func hasNewerVersionOnDisk() -> Bool {
        guard let file, let onDisk = try? file.newestSlotOnDisk() else { return false }
        return onDisk.version > snapshot.version
    }

    /// Writes the newest version to a fresh file at `path` (which must not exist): only what
    /// that version reaches, with no older versions' pages.
    public func compact(to path: String) throws(StoreFileError) {
        let source = snapshot
        let target = try BlockStore.create(path: path, schema: source.schema)
        guard let file = target.file else { return }
        let copy = BlockSnapshot(schema: source.schema, version: 1, tables: source.tables)
        file.lock()
        defer { file.unlock() }
        _ = try file.commit(copy, base: target.snapshot)
    }

    /// At the start of a write transaction on a file: take the cross-process lock and catch up
    /// with any version another process committed meanwhile.
    func startFileWrite() {
        guard let file, !file.isReadOnly else { return }
        file.lock()
        _ = try? refresh()
    }
}
