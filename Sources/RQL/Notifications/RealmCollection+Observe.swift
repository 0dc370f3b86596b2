import Foundation
import RQLStorage

extension RealmCollection {
    /// Calls `block` with the collection as it is now (`.initial`), then after every commit
    /// that changes it, with the indices that changed (`.update`). Keep the token: releasing
    /// or invalidating it stops the calls. For `Results`, `List`, `MutableSet`,
    /// `LinkingObjects` alike.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).filter("age > 2").observe { change in
    ///     if case .update(let dogs, let deletions, let insertions, let modifications) = change {
    ///         print(dogs.count, deletions, insertions, modifications)
    ///     }
    /// }
    /// ```
    ///
    /// **Where the block runs.** With a `queue`, on that serial queue as soon as a commit is
    /// published (by any thread of this process, or by another process), with a frozen copy of
    /// the collection at the delivered version. With no queue (Linux programs seldom run a run
    /// loop), on this realm's thread, synchronously: `.initial` before `observe` returns, then
    /// at the end of each of this realm's write transactions and `refresh()` calls that move it
    /// to a newer version (a main-thread realm that autorefreshes also refreshes from the main
    /// queue when another thread or process commits). The block then gets the live collection.
    /// Commits between two deliveries arrive as one change.
    ///
    /// **What counts as a modification.** A change to any property of an element, or to any
    /// property of an object one of its link properties points at directly (one level);
    /// `keyPaths` narrows this to the paths named, and is the way to watch deeper links
    /// (`"toys.maker.name"`), at a cost proportional to the objects changed. Insertions and
    /// deletions are always reported. A key path naming no property stops the program with
    /// the reason, as in Realm Swift; so does observing inside a write transaction.
    public func observe(
        keyPaths: [String]? = nil,
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        let results = _rqlResults
        let live = results?.context
        return CollectionObservation.observe(
            results,
            keyPaths: keyPaths,
            queue: queue,
            make: { elements in
                if let same = elements as? Self { return same }
                if elements.context === live { return self }
                return (self as? any CollectionRebinding)?.reboundCollection(to: elements.context) as? Self ?? self
            },
            block: block
        )
    }

    /// `observe(keyPaths:on:_:)` with typed key paths.
    ///
    /// ```swift
    /// let token = dogs.observe(keyPaths: [\Dog.name, \Dog.favoriteToy?.name]) { change in … }
    /// ```
    public func observe(
        keyPaths: [PartialKeyPath<Element>],
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken where Element: ObjectBase {
        observe(keyPaths: ObservedKeyPaths.names(keyPaths), on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with
    /// frozen collections, in commit order, until the token is invalidated. The observation is
    /// registered in the caller's isolation (`_isolation`), which must be the live collection's:
    /// call it from the realm's actor, or from the main actor for a main-thread realm.
    ///
    /// ```swift
    /// let token = await dogs.observe(on: model) { model, change in model.apply(change) }
    /// ```
    public func observe<A: Actor>(
        keyPaths: [String]? = nil,
        on actor: A,
        _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void
    ) async -> NotificationToken {
        CollectionObservation.onActor(actor, { queue, sink in observe(keyPaths: keyPaths, on: queue, sink) }, block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`, with typed key paths.
    ///
    /// ```swift
    /// let token = await dogs.observe(keyPaths: [\Dog.name], on: model) { model, change in model.apply(change) }
    /// ```
    public func observe<A: Actor>(
        keyPaths: [PartialKeyPath<Element>],
        on actor: A,
        _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void
    ) async -> NotificationToken where Element: ObjectBase {
        let names = ObservedKeyPaths.names(keyPaths)
        return await observe(keyPaths: names, on: actor, block)
    }

    /// The collection's changes as an async sequence of frozen collections (safe on any
    /// thread): `.initial`, then one `.update` per delivery. The observation ends when the
    /// iteration does. (Realm Swift has none; its Combine publishers do not exist on Linux.)
    ///
    /// ```swift
    /// for await change in realm.objects(Dog.self).changesets() {
    ///     if case .update(let dogs, _, let insertions, _) = change { print(dogs.count, insertions) }
    /// }
    /// ```
    public func changesets(keyPaths: [String]? = nil) -> AsyncStream<RealmCollectionChange<Self>> {
        CollectionObservation.stream { queue, sink in observe(keyPaths: keyPaths, on: queue, sink) }
    }
}

/// A collection that can be rebuilt in another realm context (a frozen copy at a delivered
/// version), so that an observation on a queue hands out a collection safe to read there.
/// `Results` needs none (the observation hands out its own frozen results).
protocol CollectionRebinding {
    func reboundCollection(to context: RealmContext) -> Self?
}

extension List: CollectionRebinding {
    func reboundCollection(to context: RealmContext) -> List? {
        storage.owner.flatMap { ObservedKeyPaths.owner($0.accessor, in: context) }
            .flatMap { List._rqlLiveCollection(owner: $0, ordinal: storage.owner?.ordinal ?? 0) }
    }
}

extension MutableSet: CollectionRebinding {
    func reboundCollection(to context: RealmContext) -> MutableSet? {
        managedOwner.flatMap { owner in
            ObservedKeyPaths.owner(owner.accessor, in: context).flatMap {
                MutableSet._rqlLiveCollection(owner: $0, ordinal: owner.ordinal)
            }
        }
    }
}

extension LinkingObjects: CollectionRebinding {
    func reboundCollection(to context: RealmContext) -> LinkingObjects? {
        guard let owner = managedOwner else { return nil }
        let accessor = ObjectAccessor(
            context: context,
            classInfo: owner.classInfo,
            key: owner.key,
            classIndex: owner.classIndex
        )
        return LinkingObjects(propertyName: propertyName, owner: accessor)
    }
}

/// Typed key paths as the dotted names `observe` takes, and owners in other contexts.
enum ObservedKeyPaths {
    static func names<Root: ObjectBase>(_ keyPaths: [PartialKeyPath<Root>]) -> [String] {
        keyPaths.map { keyPath in
            guard let names = KeyPathRecording.names(of: keyPath, on: Root.self) else {
                realmStop(
                    "Key path \(keyPath) of \(Root.self) reads no persisted property, so it cannot be observed"
                )
            }
            return names.joined(separator: ".")
        }
    }

    /// The object `accessor` reads, as an instance bound to `context`.
    static func owner(_ accessor: ObjectAccessor, in context: RealmContext) -> ObjectBase? {
        accessor.classInfo.makeManaged(context: context, key: accessor.key, classIndex: accessor.classIndex)
    }
}
