import Dispatch
import Foundation
import RQLStorage

extension Realm {
    /// The realm of `configuration`, confined to `actor`: usable from code isolated to it, on
    /// whichever thread the actor runs. Call it from the actor (`Realm(actor: self)`); each call
    /// opens a realm of its own.
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
        context = try RealmContext.open(configuration, confinement: .actor(actor))
    }

    /// The realm of `configuration`, confined to the calling actor (the main actor included).
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
        Realm(context: try RealmContext.open(configuration, confinement: .actor(actor)))
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
        case .actor(let owner) where owner === actor: break
        case .thread where actor === MainActor.shared: break
        default: realmStop("asyncWrite() can only be called on main thread or actor-isolated Realms")
        }
        if context.isInWriteTransaction {
            realmStop("The Realm is already in a write transaction")
        }
        await RealmContext.waitForWriteLock(of: context.coordinator.store)
        return try write(block)
    }
}

extension RealmContext {
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
