import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension BlockStore {
    /// Makes an empty commit log where the checkpoint of the store file at `path` looks for
    /// its lost one, so that the store opens at that checkpoint; the commits after it were in
    /// the lost log alone and are gone. Returns the version the store now opens at, or nil when
    /// no log was missing (nothing is done). Opening never does this by itself: it reports the
    /// missing log (`.commitLogMissing`) until this is asked for.
    ///
    /// Refused (`.io`) while the store file has other names (hard links): its log may be beside
    /// one of them, and an empty one here would hide the commits logged there. A log of another
    /// store file in the place is refused as opening refuses it (`.commitLogMissing`): move it
    /// aside first.
    ///
    /// ```swift
    /// try BlockStore.replaceLostLog(path: "dogs.rql")   // 12: opens at version 12
    /// try BlockStore.replaceLostLog(path: "dogs.rql")   // nil: the log is there
    /// ```
    public static func replaceLostLog(path: String) throws(StoreFileError) -> UInt64? {
        let log: String
        do {
            _ = try open(path: path, readOnly: true)
            return nil
        } catch {
            guard case .commitLogMissing(let missing, _, foreign: false) = error.problem else { throw error }
            log = missing
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileSystem.failure(path, "stat") }
        guard info.st_nlink == 1 else {
            throw StoreFileError(
                path: path,
                problem: .io(
                    operation: "replace the lost commit log",
                    reason: "the store file has \(info.st_nlink) names, and its log may be beside another of them"
                )
            )
        }
        // Never over a log that appeared meanwhile.
        let descriptor = Glibc.open(log, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystem.failure(log, "open") }
        close(descriptor)
        try CommitLog.syncDirectory(of: log)
        return try open(path: path, readOnly: true).snapshot.version
    }
}
