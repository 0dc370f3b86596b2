import Foundation

extension BlockStore {
    /// Removes the store file at `path`, then its commit log and its lock file; returns whether
    /// there was a store file. A missing log or lock file is no error: a store has them only once
    /// opened or logged to. `path` a symbolic link: the link goes, and the store it names stays
    /// whole with its log and lock file (both are named by the store's resolved path, so removing
    /// them would leave a store whose checkpoint names a log that is gone). Whether another
    /// process has the file open is the caller's to ask (`isOpenElsewhere`) beforehand.
    ///
    /// ```swift
    /// try BlockStore.removeFiles(path: "dogs.rql")   // true: dogs.rql, dogs.rql.log and dogs.rql.lock are gone
    /// ```
    @discardableResult
    public static func removeFiles(path: String) throws(StoreFileError) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            guard unlink(path) == 0 else { throw FileSystem.failure(path, "unlink") }
            return true
        }
        // Both names follow the directories' symbolic links: find them while the file is there.
        let companions = StoreCompanion.allCases.map { $0.path(forStore: path) }
        var existed = true
        if unlink(path) != 0 {
            guard errno == ENOENT else { throw FileSystem.failure(path, "unlink") }
            existed = false
        }
        // After the file: a log without its file is never read as another file's.
        for companion in companions where unlink(companion) != 0 && errno != ENOENT {
            throw FileSystem.failure(companion, "unlink")
        }
        return existed
    }
}
