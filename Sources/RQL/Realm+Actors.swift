import Dispatch
import Foundation
import RQLStorage
import Synchronization

extension Realm {
    /// The realm of `configuration`, confined to `actor`: usable from code isolated to it, on
    /// whichever thread the actor runs. Call it from the actor (`Realm(actor: self)`). The
    /// store is opened and migrated on a thread of its own, so the actor runs other work
    /// meanwhile. As on a thread, the same actor and configuration give the same realm while it
    /// is in use; the realm does not keep its actor, so an actor that keeps its realm lets go
    /// of both when it goes. The main actor's realm is the main thread's: the one `Realm()`
    /// gives there, usable from any code on the main thread, as in realm-swift.
    ///
    /// ```swift
    /// actor DogStore {
    ///     var realm: Realm!
    ///     func open(_ configuration: Realm.Configuration) async throws {
    ///         realm = try await Realm(configuration: configuration, actor: self)
    ///     }
    ///     func count() -> Int { realm.objects(Dog.self).count }
    /// }
    /// ```
    public init<A: Actor>(configuration: Configuration = .defaultConfiguration, actor: isolated A) async throws {
        context = try await RealmContext.open(configuration, on: actor)
    }

    /// The realm of `configuration`, confined to the calling actor (the main actor included),
    /// opened and migrated off the actor as `init(configuration:actor:)` is.
    ///
    /// ```swift
    /// @MainActor func load() async throws {
    ///     let realm = try await Realm.open(configuration: configuration)
    ///     print(realm.objects(Dog.self).count)
    /// }
    /// ```
    public static func open(
        configuration: Configuration = .defaultConfiguration,
        _isolation actor: isolated any Actor = #isolation
    ) async throws -> Realm {
        Realm(context: try await RealmContext.open(configuration, on: actor))
    }

    /// Opens the realm of `configuration` on a background thread (creating the file, running
    /// the migration and the compaction it asks for there), then calls `callback` on
    /// `callbackQueue` with the realm confined to that queue (to the main thread for the main
    /// queue), or with the error that stopped it. After `cancel()` on the returned task the
    /// callback is not called.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "dogs")
    /// Realm.asyncOpen(configuration: configuration, callbackQueue: queue) { result in
    ///     if case .success(let realm) = result { print(realm.objects(Dog.self).count) }
    /// }
    /// ```
    @discardableResult
    public static func asyncOpen(
        configuration: Configuration = .defaultConfiguration,
        callbackQueue: DispatchQueue = .main,
        callback: @escaping @Sendable (Result<Realm, Swift.Error>) -> Void
    ) -> AsyncOpenTask {
        let task = AsyncOpenTask()
        task.state.running.enter()
        DispatchQueue.global().async {
            let prepared = RealmContext.prepare(configuration)
            callbackQueue.async {
                defer { task.state.running.leave() }
                guard !task.state.isCancelled else { return }
                let result = prepared.flatMap { coordinator in
                    withExtendedLifetime(coordinator) {
                        Result { () throws(Realm.Error) in
                            let queue = callbackQueue.isMainQueue ? nil : callbackQueue
                            return try Realm(configuration: configuration, opening: queue)
                        }
                    }
                }
                callback(result.mapError { $0 as Swift.Error })
            }
        }
        return task
    }

    /// Moves the realm to the newest version (as `refresh()` does), from the realm's actor or
    /// thread. Returns whether there was a newer version.
    ///
    /// ```swift
    /// // another thread committed meanwhile:
    /// await realm.asyncRefresh()  // true
    /// ```
    @discardableResult
    public func asyncRefresh(_isolation actor: isolated (any Actor)? = #isolation) async -> Bool {
        refresh()
    }

    /// Runs `block` in a write transaction on a realm confined to the calling actor (or opened
    /// on the main thread, from the main actor) and commits it; returns what `block` returns.
    /// The wait for another writer to finish happens off the actor, which meanwhile runs other
    /// work. Errors are those of `write(_:)`.
    ///
    /// ```swift
    /// actor DogStore {
    ///     let realm: Realm
    ///     func birthday(_ name: String) async throws {
    ///         try await realm.asyncWrite {
    ///             realm.objects(Dog.self).where { $0.name == name }.first?.age += 1
    ///         }
    ///     }
    /// }
    /// ```
    @discardableResult
    public func asyncWrite<Result>(
        _isolation actor: isolated any Actor = #isolation,
        _ block: () throws -> Result
    ) async throws -> Result {
        context.verifyThread()
        switch context.confinement {
        case .actor(let owner) where owner.actor === actor: break
        case .main where actor === MainActor.shared: break
        default: realmStop("asyncWrite() can only be called on main thread or actor-isolated Realms")
        }
        if context.isInWriteTransaction {
            realmStop("The Realm is already in a write transaction")
        }
        await RealmContext.waitForWriteLock(of: context.coordinator.store)
        return try write(block)
    }
}

/// A realm being opened by `Realm.asyncOpen`; `cancel()` stops its callback from being called
/// (the file may still be opened and migrated).
///
/// ```swift
/// let task = Realm.asyncOpen(configuration: configuration) { _ in print("not called") }
/// task.cancel()
/// ```
public struct AsyncOpenTask: Sendable {
    final class State: Sendable {
        private let cancelled = Atomic<Bool>(false)
        /// Entered while the open has not reached its callback queue (tests wait on it).
        let running = DispatchGroup()

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
    }

    let state = State()

    /// Stops the callback from being called, unless it already runs.
    public func cancel() { state.cancel() }
}

extension Realm {
    /// The realm of `configuration` on this thread, or confined to `queue` (which the caller
    /// runs on).
    fileprivate init(configuration: Configuration, opening queue: DispatchQueue?) throws(Realm.Error) {
        guard let queue else {
            context = try RealmContext.open(configuration)
            return
        }
        let mark = RealmQueueMark.mark(queue)
        context = try RealmContext.open(configuration, confinement: .queue(queue, mark))
    }
}

extension RealmContext {
    /// The store of `configuration` opened and brought to its schema, as opening a realm does
    /// before it reads: the coordinator, which keeps the store open while it is held.
    static func prepare(_ configuration: Realm.Configuration) -> Result<RealmCoordinator, Realm.Error> {
        Result { () throws(Realm.Error) in
            let coordinator = try StoreRegistry.coordinator(for: configuration)
            coordinator.catchUp()
            try SchemaMigration.prepare(configuration, coordinator: coordinator)
            return coordinator
        }
    }

    /// The context of `configuration` confined to `actor`: the one the actor has open, or a
    /// new one whose store was prepared on a thread of its own (the actor is free meanwhile).
    /// The main actor's realm is the main one (`RealmConfinement.main`), as in realm-swift, where
    /// the main thread, the main queue and the main actor share one realm: code isolated to the
    /// main actor runs on the main queue, and a second realm there would be a second writer on
    /// one queue.
    static func open(
        _ configuration: Realm.Configuration,
        on actor: isolated any Actor
    ) async throws(Realm.Error)
        -> RealmContext
    {
        let confinement: RealmConfinement
        let contexts: ThreadContexts.Table
        if actor === MainActor.shared {
            // Isolated to the main actor, so on the main queue (or the main thread).
            confinement = .main
            contexts = ThreadContexts.main
        } else {
            let reference = ActorReference.of(actor)
            confinement = .actor(reference)
            contexts = reference.contexts
        }
        if contexts.context(for: configuration.storeKey) != nil {
            return try open(configuration, confinement: confinement)
        }
        let prepared = await withCheckedContinuation {
            (done: CheckedContinuation<Handoff<Result<RealmCoordinator, Realm.Error>>, Never>) in
            DispatchQueue.global().async { done.resume(returning: Handoff(prepare(configuration))) }
        }
        let coordinator = try prepared.value.get()
        return try withExtendedLifetime(coordinator) { () throws(Realm.Error) in
            try open(configuration, confinement: confinement)
        }
    }

    /// Returns once no write transaction of `store` is open (in this or another process),
    /// having waited on a thread of its own, so that the caller's thread, queue or actor is free
    /// meanwhile. Another writer may still begin first; `beginWrite` then waits for it.
    static func waitForWriteLock(of store: BlockStore) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                store.beginWrite().rollback()
                done.resume()
            }
        }
    }
}
