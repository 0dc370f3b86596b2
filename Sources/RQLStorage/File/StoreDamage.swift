import Synchronization

/// What one open store file is known to have lost: the first damaged block or index node this
/// process met, and whether opening found the file's newest version unreadable and read the
/// intact one before it (a fallback).
///
/// A damaged block reads as rows of empty values, so nothing traps; but those rows are not
/// data, so every throwing reader checks `error` after reading and throws it (a fast wrong
/// answer is a bug). Blocks are read from any thread: the first error wins under the mutex.
///
/// A fallback leaves readable, intact data, but older than the file's newest version: commits
/// refuse it (`commitRefusal`) until the caller accepts the older version, since a commit on top
/// of it overwrites the newest version for good.
///
/// ```swift
/// let rows = engine.run(query, on: snapshot)
/// if let damage = snapshot.fileDamage { throw damage }  // block 0 of 'Item': …
/// ```
final class StoreDamage: Sendable {
    let path: String
    private struct State {
        var first: StoreFileError?
        var fallback: StoreFileError?
        /// The header slot of the unreadable newest version (nil: the slot itself is unreadable).
        var unreadableSlot: HeaderSlot?
        var accepted = false
    }

    private let state = Mutex(State())

    init(path: String) {
        self.path = path
    }

    /// Keeps `problem` unless an earlier one is kept.
    func record(_ problem: StoreFileError.Problem) {
        state.withLock { state in
            if state.first == nil { state.first = StoreFileError(path: path, problem: problem) }
        }
    }

    /// The first damage met, or nil while every block read was sound.
    var error: StoreFileError? { state.withLock { $0.first } }

    /// Records that the version read is older than the file's newest, which `problem` (a
    /// `.newestVersionUnreadable`) describes; `slot` is the unreadable version's header slot.
    func recordFallback(_ problem: StoreFileError.Problem, slot: HeaderSlot?) {
        state.withLock { state in
            state.fallback = StoreFileError(path: path, problem: problem)
            state.unreadableSlot = slot
            state.accepted = false
        }
    }

    /// The fallback open made, or nil when it read the newest version.
    var fallback: StoreFileError? { state.withLock { $0.fallback } }

    /// Whether `slot` is the unreadable newest version's (a commit does not count it as newer).
    func isUnreadable(_ slot: HeaderSlot) -> Bool { state.withLock { $0.unreadableSlot == slot } }

    /// The caller consents to commit on top of the older version.
    func acceptFallback() { state.withLock { $0.accepted = true } }

    /// A commit has made a new newest version: the fallback is over.
    func clearFallback() {
        state.withLock { state in
            state.fallback = nil
            state.unreadableSlot = nil
            state.accepted = false
        }
    }

    /// Why a commit may not proceed: the first damaged block met, or a fallback not accepted.
    var commitRefusal: StoreFileError? {
        state.withLock { state in state.first ?? (state.accepted ? nil : state.fallback) }
    }
}
