import Synchronization

/// Whether a stub's contents (a `Block`'s parts, a `BTreeNode`'s elements) are read, and the
/// lock that serialises reading them: readers of one snapshot share stubs across threads. A
/// reader tests `isDone` (one acquiring load, all a read costs once the contents are there); the
/// first one to find it unset reads the contents through `run`.
struct LoadOnce: ~Copyable, Sendable {
    private let done: Atomic<Bool>
    private let lock = Mutex<Void>(())

    init(done: Bool) {
        self.done = Atomic(done)
    }

    /// Whether the contents are read.
    var isDone: Bool {
        @inline(__always) get { done.load(ordering: .acquiring) }
    }

    /// Runs `load` under the lock unless the contents are read already (by another thread while
    /// this one waited); they are once `load` returns true (false: there was nothing to read).
    @inline(never)
    func run(_ load: () -> Bool) {
        lock.withLock { _ in
            guard !done.load(ordering: .acquiring), load() else { return }
            done.store(true, ordering: .releasing)
        }
    }
}
