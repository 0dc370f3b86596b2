import Foundation
import RQLCore
import RQLStorage

/// The observation of a `Map`: the owner's stored map is compared key by key between the
/// delivered version and the new one (only when the owner's class changed); a key whose value
/// is an object that the commit modified (along the observed paths) is a modification too.
// Unchecked: as `Notifier`; the fields it adds are `let`s or delivery state.
final class MapNotifier<Key: _MapKey, Value: RealmCollectionValue>: Notifier, @unchecked Sendable {
    private let map: Map<Key, Value>
    private let accessor: ObjectAccessor
    private let ordinal: Int
    private let paths: ObservedPaths?
    private let block: (RealmMapChange<Map<Key, Value>>) -> Void
    private var entries: [String: RQLCore.Value] = [:]

    init(
        map: Map<Key, Value>,
        accessor: ObjectAccessor,
        ordinal: Int,
        keyPaths: [String]?,
        delivery: Delivery,
        block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void
    ) throws(Realm.Error) {
        let version = accessor.context.current
        self.map = map
        self.accessor = accessor
        self.ordinal = ordinal
        self.block = block
        if let object = Value.self as? any _RQLOptionalObject.Type {
            paths = try ObservedPaths(keyPaths, className: object._rqlObjectType.className(), schema: version.schema)
        } else {
            paths = nil
        }
        let hub = accessor.context.coordinator.notifiers
        super.init(hub: hub, delivery: delivery, at: delivery.isThread ? version : hub.newest)
    }

    /// The stored map at `version` (empty once the owner is gone).
    private func entries(at version: StoreVersion) -> [String: RQLCore.Value] {
        guard case .map(let stored)? = version.value(of: accessor.link, property: ordinal) else { return [:] }
        return Dictionary(zip(stored.keys, stored.values), uniquingKeysWith: { _, last in last })
    }

    /// The map handed to the block at `version`: the live one, or a frozen copy.
    private func map(at version: StoreVersion) -> Map<Key, Value> {
        if case .thread(let context, _) = delivery, context.current === version { return map }
        let frozen = accessor.context.frozen(at: version)
        guard let owner = ObservedKeyPaths.owner(accessor, in: frozen),
            let copy = Map<Key, Value>._rqlLiveCollection(owner: owner, ordinal: ordinal)
        else { return map }
        return copy
    }

    override func begin() {
        entries = entries(at: delivered)
        guard !isInvalidated else { return }
        block(.initial(map(at: delivered)))
    }

    override func step(to version: StoreVersion, notify: Bool) {
        let owner = accessor.classInfo.className
        let changes = changes(to: version, classes: (paths?.classes ?? []).union([owner]))
        let ownerChanged = changes.schemaChanged || changes.classes[owner] != nil
        let modified = paths?.modified(by: changes, in: version.snapshot) ?? [:]
        guard ownerChanged || !modified.isEmpty else {
            moved(to: version)
            return
        }
        let old = entries
        entries = entries(at: version)
        moved(to: version)
        let deletions = old.keys.filter { entries[$0] == nil }.sorted()
        let insertions = entries.keys.filter { old[$0] == nil }.sorted()
        let modifications = entries.keys.filter { key in
            guard let before = old[key], let after = entries[key] else { return false }
            if before != after { return true }
            if case .link(let link) = after { return modified[link.key] != nil }
            return false
        }.sorted()
        guard notify, !isInvalidated, !(deletions.isEmpty && insertions.isEmpty && modifications.isEmpty) else {
            return
        }
        block(.update(map(at: version), deletions: deletions, insertions: insertions, modifications: modifications))
    }
}

extension Map {
    /// Calls `block` with the map (`.initial`), then after each commit that changes it with the
    /// keys removed, added, and whose value changed (an object value modified counts, as for
    /// collections' elements). Delivery, key paths and the token are as for
    /// `RealmCollection.observe(keyPaths:on:_:)`.
    ///
    /// ```swift
    /// let token = rex.favoriteParksByCity.observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change {
    ///         print(deletions, insertions, modifications)   // keys
    ///     }
    /// }
    /// ```
    public func observe(
        keyPaths: [String]? = nil,
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void
    ) -> NotificationToken {
        guard let (accessor, ordinal) = managedOwner else {
            realmStop("Only managed collections can be observed: this one belongs to no realm")
        }
        let delivery = CollectionObservation.delivery(for: accessor.context, queue: queue)
        return CollectionObservation.start {
            try MapNotifier(
                map: self,
                accessor: accessor,
                ordinal: ordinal,
                keyPaths: keyPaths,
                delivery: delivery,
                block: block
            )
        }
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`, with frozen maps, in commit order.
    ///
    /// ```swift
    /// let token = await rex.favoriteParksByCity.observe(on: model) { model, change in model.apply(change) }
    /// ```
    public func observe<A: Actor>(
        keyPaths: [String]? = nil,
        on actor: A,
        _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void
    ) async -> NotificationToken {
        CollectionObservation.onActor(actor, { queue, sink in observe(keyPaths: keyPaths, on: queue, sink) }, block)
    }

    /// The map's changes as an async sequence of frozen maps; it ends with the iteration.
    ///
    /// ```swift
    /// for await change in rex.favoriteParksByCity.changesets() { print(change) }
    /// ```
    public func changesets(keyPaths: [String]? = nil) -> AsyncStream<RealmMapChange<Map<Key, Value>>> {
        CollectionObservation.stream { queue, sink in observe(keyPaths: keyPaths, on: queue, sink) }
    }
}
