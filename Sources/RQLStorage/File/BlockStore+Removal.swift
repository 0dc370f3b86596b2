import Foundation

extension BlockStore {
    /// Removes the store file at `path`, then its commit log and its lock file; returns whether
    /// there was a store file. A missing log or lock file is no error: a store has them only once
    /// opened or logged to. Whether another process has the file open is the caller's to ask
    /// (`isOpenElsewhere`) beforehand.
    ///
    /// ```swift
    /// try BlockStore.removeFiles(path: "dogs.rql")   // true: dogs.rql, dogs.rql.log and dogs.rql.lock are gone
    /// ```
    @discardableResult
    public static func removeFiles(path: String) throws(StoreFileError) -> Bool {
        // The lock file's name follows the file's symbolic links: find it while the file is there.
        let lock = ReaderTable.path(forStore: path)
        var existed = true
        if unlink(path) != 0 {
            guard errno == ENOENT else { throw FileSystem.failure(path, "unlink") }
            existed = false
        }
        // After the file: a log without its file is never read as another file's.
        for companion in [CommitLog.path(forStore: path), lock] where unlink(companion) != 0 && errno != ENOENT {
            throw FileSystem.failure(companion, "unlink")
        }
        return existed
    }
}
