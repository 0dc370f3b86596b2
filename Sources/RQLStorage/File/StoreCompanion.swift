/// A file beside a store file: named by the store's path with symbolic links resolved and a
/// suffix, so that every path reaching the store through symbolic links finds the same ones.
/// A hard link under another name does not (`FileHeader` says how a store tells).
///
/// ```swift
/// StoreCompanion.log.path(forStore: "dogs.rql")   // "/abs/dogs.rql.log"
/// StoreCompanion.allCases                         // the log and the lock file, in removal order
/// ```
public enum StoreCompanion: String, CaseIterable, Sendable {
    /// The commit log: the commits after the newest checkpoint (`CommitLog`).
    case log
    /// The lock file: this store's reader table (`ReaderTable`).
    case lock

    /// The companion of the store file at `storePath`, or beside `storePath` as given when no
    /// file is there yet.
    public func path(forStore storePath: String) -> String {
        path(besideResolved: FileSystem.resolved(storePath))
    }

    /// The companion beside `resolved`, a store's path already resolved (`FileSystem.resolved`):
    /// a store opening both its companions resolves its path once.
    func path(besideResolved resolved: String) -> String {
        resolved + "." + rawValue
    }
}
