import Dispatch
import Foundation

/// The id of an async write or of an async commit's completion, for `cancelAsyncWrite(_:)`.
public typealias AsyncTransactionId = UInt32

extension Realm {
    /// Runs `block` in a write transaction once no other write is open, without blocking the
    /// realm's queue, actor or main thread meanwhile, and commits it; `onComplete` then gets
    /// the commit's error or nil. Both run where the realm is used: on its queue, its actor, or
    /// the main queue for a main-thread realm (a realm of another thread cannot schedule them:
    /// the program stops, as realm-core's does without a run loop). Async writes of one realm
    /// run in the order they were asked for.
    ///
    /// ```swift
    /// queue.async {
    ///     let realm = try! Realm(configuration: configuration, queue: queue)
    ///     realm.writeAsync({ realm.add(Dog(value: ["name": "Rex"])) }, onComplete: { error in
    ///         print(error ?? "committed")
    ///     })
    /// }
    /// ```
    @discardableResult
    public func writeAsync(
        _ block: @escaping () -> Void,
        onComplete: ((Swift.Error?) -> Void)? = nil
    )
        -> AsyncTransactionId
    {
        beginAsyncWrite {
            block()
            if isInWriteTransaction {
                commitAsyncWrite(onComplete)
            } else if let onComplete {
                // The block cancelled its transaction: nothing to commit, nothing failed.
                context.confinement.schedule { onComplete(nil) }
            }
        }
    }

    /// Runs `block` in a write transaction once no other write is open (see `writeAsync`). The
    /// block ends the transaction with `commitAsyncWrite`, `commitWrite` or `cancelWrite`;
    /// until it does, the transaction stays open.
    ///
    /// ```swift
    /// let id = realm.beginAsyncWrite {
    ///     realm.add(Dog(value: ["name": "Rex"]))
    ///     realm.commitAsyncWrite()
    /// }
    /// ```
    @discardableResult
    public func beginAsyncWrite(_ block: @escaping () -> Void) -> AsyncTransactionId {
        context.verifyThread()
        if isFrozen { realmStop("Can't perform transactions on a frozen Realm") }
        if configuration.readOnly { realmStop("Can't perform transactions on read-only Realms.") }
        let writes = context.asyncWrites ?? AsyncWrites()
        context.asyncWrites = writes
        let id = writes.nextId()
        writes.begins.append((id, block))
        writes.waitForLock(for: context)
        return id
    }

    /// Commits the open write transaction now and calls `onComplete` with its error or nil
    /// afterwards, where the realm is used. Every commit is durable when it returns, so
    /// `allowGrouping` (realm-core's batching of syncs to disk) changes nothing.
    ///
    /// ```swift
    /// realm.beginWrite()
    /// realm.add(Dog(value: ["name": "Rex"]))
    /// realm.commitAsyncWrite { error in print(error ?? "committed") }
    /// ```
    @discardableResult
    public func commitAsyncWrite(
        allowGrouping: Bool = false,
        _ onComplete: ((Swift.Error?) -> Void)? = nil
    ) -> AsyncTransactionId {
        guard isInWriteTransaction else { realmStop("Can't commit a non-existing write transaction") }
        let writes = context.asyncWrites ?? AsyncWrites()
        context.asyncWrites = writes
        let id = writes.nextId()
        var failure: Swift.Error?
        do {
            try commitWrite()
        } catch {
            failure = error
        }
        writes.completions.insert(id)
        context.confinement.schedule {
            guard writes.completions.remove(id) != nil else { return }
            onComplete?(failure)
        }
        return id
    }

    /// Cancels an async write that has not begun (its block never runs), or the completion
    /// callback of an async commit (the commit stands). An id that already ran is ignored.
    ///
    /// ```swift
    /// let id = realm.writeAsync { realm.add(Dog()) }
    /// try realm.cancelAsyncWrite(id)  // if it has not begun yet, nothing is added
    /// ```
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        context.verifyThread()
        guard let writes = context.asyncWrites else { return }
        writes.begins.removeAll { $0.id == asyncTransactionId }
        writes.completions.remove(asyncTransactionId)
    }

    /// Whether an async write waits to begin, or an async commit's completion waits to be called.
    ///
    /// ```swift
    /// realm.writeAsync { realm.add(Dog()) }
    /// realm.isPerformingAsynchronousWriteOperations  // true
    /// ```
    public var isPerformingAsynchronousWriteOperations: Bool {
        context.verifyThread()
        guard let writes = context.asyncWrites else { return false }
        return !writes.begins.isEmpty || !writes.completions.isEmpty
    }
}

/// One live realm's async writes: the blocks waiting to begin, in order, and the commits whose
/// completion is not yet delivered. Used only where the realm is (every method runs there,
/// directly or through `RealmConfinement.schedule`). Nothing holds the write lock while waiting
/// to run there, so a synchronous write on the realm's own queue never waits for an async one.
final class AsyncWrites {
    /// Async writes not begun yet, in the order they were asked for.
    var begins: [(id: AsyncTransactionId, block: () -> Void)] = []
    /// Async commits whose completion callback has not run.
    var completions: Set<AsyncTransactionId> = []
    /// Whether a thread is waiting for the write lock on the realm's behalf.
    private var isWaiting = false
    private var lastId: AsyncTransactionId = 0

    func nextId() -> AsyncTransactionId {
        lastId &+= 1
        return lastId
    }

    /// Has a thread wait until no write is open, then begins the first waiting write where the
    /// realm is used.
    func waitForLock(for context: RealmContext) {
        guard !isWaiting, !begins.isEmpty else { return }
        isWaiting = true
        let store = context.coordinator.store
        let confinement = context.confinement
        let handoff = Handoff((self, context))
        DispatchQueue.global().async {
            store.beginWrite().rollback()
            confinement.schedule {
                let (writes, context) = handoff.value
                writes.isWaiting = false
                writes.beginNext(in: context)
            }
        }
    }

    private func beginNext(in context: RealmContext) {
        guard !begins.isEmpty else { return }
        // The realm wrote meanwhile (a synchronous write, or the previous block has not committed
        // yet): wait for that to end.
        guard !context.isInWriteTransaction else { return waitForLock(for: context) }
        let (_, block) = begins.removeFirst()
        do {
            try context.beginWrite()
        } catch {
            realmStop(error.description)
        }
        block()
        waitForLock(for: context)
    }
}
