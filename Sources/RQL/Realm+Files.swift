import Foundation
import RQLCore
import RQLStorage

// A realm's files: whether they exist, deleting them, a compacted copy, and compacting on the
// first open in a process (`Realm.Configuration.shouldCompactOnLaunch`).

extension Realm {
    /// Whether the file of `configuration` exists (false for an in-memory realm).
    ///
    /// ```swift
    /// Realm.fileExists(for: Realm.Configuration(fileURL: url))  // false before the first open
    /// ```
    public static func fileExists(for configuration: Configuration) -> Bool {
        guard case .file(let path) = configuration.storeKey else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    /// Deletes the file of `configuration`, its commit log and its lock file; returns whether
    /// there was a file.
    /// A realm of the file still open in this process, or the file open in another process,
    /// is an error (`.fileAccess`) and nothing is deleted.
    ///
    /// ```swift
    /// try Realm.deleteFiles(for: Realm.Configuration(fileURL: url))  // true
    /// ```
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        guard case .file(let path) = configuration.storeKey else { return false }
        try StoreRegistry.close(path: path)
        if FileManager.default.fileExists(atPath: path),
            let other = try? BlockStore.open(path: path, readOnly: true), other.isOpenElsewhere
        {
            throw Realm.Error(.fileAccess, "Cannot delete the realm at '\(path)': another process has it open")
        }
        do {
            return try BlockStore.removeFiles(path: path)
        } catch {
            throw Realm.Error(.fileAccess, "Cannot delete the realm at '\(path)': \(error.problem.description)")
        }
    }

    /// Opens the file of `configuration` again after its commit log was lost, at the file's
    /// checkpoint: puts an empty `<name>.log` beside it and returns the version the file now
    /// opens at, or `nil` when the file opens as it is (its log is there, or it names none).
    /// The commits the lost log held are gone; this runs only when asked, never on its own.
    /// A file with other hard links is an error (`.fileAccess`), since its log may be beside
    /// another of its names; so is a file open in this process.
    ///
    /// ```swift
    /// let configuration = Realm.Configuration(fileURL: url)
    /// // try Realm(configuration: configuration) throws .invalidDatabase: 'dogs.realm.log' is missing
    /// try Realm.replaceLostCommitLog(for: configuration)  // 12: the checkpoint's version
    /// let realm = try Realm(configuration: configuration)
    /// ```
    @discardableResult
    public static func replaceLostCommitLog(for configuration: Configuration) throws -> UInt64? {
        guard case .file(let path) = configuration.storeKey else { return nil }
        try StoreRegistry.close(path: path, toDo: "replace the lost commit log of the realm")
        do {
            return try BlockStore.replaceLostLog(path: path)
        } catch {
            throw Realm.Error(
                .fileAccess,
                "Cannot replace the lost commit log of the realm at '\(path)': \(error.problem.description)"
            )
        }
    }

    /// Writes a compacted copy of the realm's newest version to a new file at `fileURL` (which
    /// must not exist): only what that version reaches, none of the space older versions left,
    /// in one file (the commits of the realm's log are in it; the copy has no log).
    /// Encryption is not supported: `encryptionKey` must be nil.
    ///
    /// ```swift
    /// try realm.writeCopy(toFile: URL(fileURLWithPath: "/tmp/backup.realm"))
    /// let backup = try Realm(fileURL: URL(fileURLWithPath: "/tmp/backup.realm"))
    /// ```
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        guard encryptionKey == nil else {
            throw Realm.Error(.fail, "Encrypted realms are not supported (encryptionKey must be nil)")
        }
        let path = fileURL.standardizedFileURL.path
        guard !FileManager.default.fileExists(atPath: path) else {
            throw Realm.Error(.fileAccess, "Cannot write a copy to '\(path)': a file exists there")
        }
        do {
            try context.coordinator.store.compact(to: path)
        } catch {
            throw Realm.Error(.fileAccess, "Cannot write a copy to '\(path)': \(error.problem.description)")
        }
    }
}

/// `shouldCompactOnLaunch`: on the first open of a file in this process, the block is asked
/// with the file's size and the size of its compacted copy; when it says yes and no other
/// process has the file open, the copy replaces the file and the file's commit log goes.
enum LaunchCompaction {
    /// Compacts the file at `path` if `configuration` asks; returns whether it did.
    @discardableResult
    static func compactIfAsked(path: String, _ configuration: Realm.Configuration) throws(Realm.Error) -> Bool {
        guard let ask = configuration.shouldCompactOnLaunch, !configuration.readOnly,
            FileManager.default.fileExists(atPath: path)
        else { return false }
        let store: BlockStore
        do {
            store = try BlockStore.open(path: path)
        } catch {
            throw Realm.Error(.fileAccess, "Unable to open a realm at path '\(path)': \(error.problem.description)")
        }
        guard !store.isOpenElsewhere else { return false }
        // The log's commits go into the file first: once the copy replaces it, the log (another
        // file's) must hold no record, or a crash before it is deleted would leave it read as damage.
        do {
            try store.checkpoint()
        } catch {
            throw Realm.Error(.fileAccess, "Cannot compact the realm at '\(path)': \(error.problem.description)")
        }
        // Through a symbolic link, the file it names is compacted: renaming over the link would
        // leave that file whole and the link a file of its own.
        let file = FileSystem.resolved(path)
        let copy = file + ".compact"
        try? FileManager.default.removeItem(atPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        // The write lock keeps other processes' writers out while the copy is made and swapped.
        let transaction = store.beginWrite()
        defer { transaction.rollback() }
        do {
            try store.compact(to: copy)
        } catch {
            throw Realm.Error(.fileAccess, "Cannot compact the realm at '\(path)': \(error.problem.description)")
        }
        let total = Self.size(file)
        let used = Self.size(copy)
        guard ask(total, used), !store.isOpenElsewhere else { return false }
        guard rename(copy, file) == 0 else {
            throw Realm.Error(.fileAccess, "Cannot compact the realm at '\(path)': rename failed (errno \(errno))")
        }
        unlink(StoreCompanion.log.path(forStore: file))
        return true
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
