import Foundation

// `observe` on objects and realms. Declared on `RealmCollectionValue where Self: ObjectBase`
// (every object class) so that the block's change names the object's own class
// (`ObjectChange<Dog>`) without a type annotation.

extension RealmCollectionValue where Self: ObjectBase {
    /// Calls `block` after each commit that changes the object (`.change` with the properties
    /// that changed, their old and new values), and once when it is deleted (`.deleted`). No
    /// call is made at registration. Where it runs, and what counts as a change (`keyPaths`),
    /// is as for collections (`RealmCollection.observe(keyPaths:on:_:)`): with no queue, on
    /// this realm's thread when it commits or refreshes, with the live object; with a queue,
    /// there, with a frozen copy.
    ///
    /// ```swift
    /// let token = rex.observe(keyPaths: ["age"]) { change in
    ///     if case .change(let dog, let properties) = change {
    ///         print(dog.name, properties.map { "\($0.name): \($0.oldValue ?? "nil") → \($0.newValue ?? "nil")" })
    ///     }
    /// }
    /// ```
    public func observe(
        keyPaths: [String]? = nil,
        on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        guard let accessor = _rqlAccessor else {
            realmStop("Only objects which are managed by a Realm support change notifications")
        }
        realmPrecondition(!accessor.isInvalidated, "Object has been deleted or invalidated.")
        let delivery = CollectionObservation.delivery(for: accessor.context, queue: queue)
        return CollectionObservation.start {
            try ObjectNotifier(object: self, accessor: accessor, keyPaths: keyPaths, delivery: delivery, block: block)
        }
    }

    /// `observe(keyPaths:on:_:)` with typed key paths.
    ///
    /// ```swift
    /// let token = rex.observe(keyPaths: [\Dog.age, \Dog.favoriteToy?.name]) { change in … }
    /// ```
    public func observe(
        keyPaths: [PartialKeyPath<Self>],
        on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: ObservedKeyPaths.names(keyPaths), on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`, with frozen copies, in commit order.
    ///
    /// ```swift
    /// let token = await rex.observe(on: model) { model, change in model.apply(change) }
    /// ```
    public func observe<A: Actor>(
        keyPaths: [String]? = nil,
        on actor: A,
        _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void
    ) async -> NotificationToken {
        CollectionObservation.onActor(actor, { queue, sink in observe(keyPaths: keyPaths, on: queue, sink) }, block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`, with typed key paths.
    ///
    /// ```swift
    /// let token = await rex.observe(keyPaths: [\Dog.age], on: model) { model, change in model.apply(change) }
    /// ```
    public func observe<A: Actor>(
        keyPaths: [PartialKeyPath<Self>],
        on actor: A,
        _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void
    ) async -> NotificationToken {
        let names = ObservedKeyPaths.names(keyPaths)
        return await observe(keyPaths: names, on: actor, block)
    }
}

extension Realm {
    /// Calls `block` with `.didChange` each time this realm moves to a newer version: at the
    /// end of its own write transactions and of `refresh()` calls that found a newer version
    /// (on this realm's thread, synchronously). While `autorefresh` is off, a realm confined to
    /// a queue, an actor or the main thread is also told `.refreshRequired` there when another
    /// realm of the store commits; a realm of another thread is not (`RealmNotifier`).
    ///
    /// ```swift
    /// let token = realm.observe { notification, realm in
    ///     print(notification, realm.objects(Dog.self).count)
    /// }
    /// ```
    public func observe(_ block: @escaping NotificationBlock) -> NotificationToken {
        realmPrecondition(!context.isFrozen, "Frozen Realms do not change and do not have change notifications.")
        return CollectionObservation.start { RealmNotifier(context: context, block: block) }
    }
}
