import Synchronization

/// The first damaged block this process met in one open store file, kept so a reader that
/// cannot throw (a scan, a lookup) leaves the error for the next one that can.
///
/// A damaged block reads as rows of empty values, so nothing traps; but those rows are not
/// data, so every throwing reader checks `error` after reading and throws it (a fast wrong
/// answer is a bug). Blocks are read from any thread: the first error wins under the mutex.
///
/// ```swift
/// let rows = engine.run(query, on: snapshot)
/// if let damage = snapshot.fileDamage { throw damage }  // block 0 of 'Item': …
/// ```
final class StoreDamage: Sendable {
    let path: String
    private let first = Mutex<StoreFileError?>(nil)

    init(path: String) {
        self.path = path
    }

    /// Keeps `problem` unless an earlier one is kept.
    func record(_ problem: StoreFileError.Problem) {
        first.withLock { first in
            if first == nil { first = StoreFileError(path: path, problem: problem) }
        }
    }

    /// The first damage met, or nil while every block read was sound.
    var error: StoreFileError? { first.withLock { $0 } }
}
