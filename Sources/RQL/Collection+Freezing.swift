import Foundation

// Frozen collections: the same property of the owner as a frozen realm sees it (never changes,
// may be shared across threads), and back. Freezing an unmanaged collection stops the program,
// as in Realm Swift.

/// The owner of a managed collection in a frozen copy of its realm, or in this thread's live one.
enum CollectionOwner {
    static func frozen(_ accessor: ObjectAccessor) -> ObjectBase {
        accessor.classInfo.makeManaged(
            context: accessor.context.frozen(),
            key: accessor.key,
            classIndex: accessor.classIndex
        )
    }

    static func live(_ accessor: ObjectAccessor) -> ObjectBase? {
        guard let context = try? RealmContext.thawTarget(accessor.context.configuration) else { return nil }
        let owner = accessor.classInfo.makeManaged(context: context, key: accessor.key, classIndex: accessor.classIndex)
        return owner.isInvalidated ? nil : owner
    }
}

extension List {
    /// A frozen copy of a managed list.
    ///
    /// ```swift
    /// let snapshot = person.dogs.freeze()
    /// ```
    public func freeze() -> List<Element> {
        guard let (accessor, ordinal) = storage.owner else { realmStop("Unmanaged lists cannot be frozen") }
        if accessor.isFrozen { return self }
        return List._rqlLiveCollection(owner: CollectionOwner.frozen(accessor), ordinal: ordinal) ?? self
    }

    /// The live list of a frozen one, or nil when its object was deleted since.
    ///
    /// ```swift
    /// let live = person.dogs.freeze().thaw()
    /// ```
    public func thaw() -> List<Element>? {
        guard let (accessor, ordinal) = storage.owner else { realmStop("Unmanaged lists cannot be thawed") }
        guard accessor.isFrozen else { return self }
        return CollectionOwner.live(accessor).flatMap { List._rqlLiveCollection(owner: $0, ordinal: ordinal) }
    }
}

extension MutableSet {
    /// A frozen copy of a managed set.
    ///
    /// ```swift
    /// let snapshot = rex.tags.freeze()
    /// ```
    public func freeze() -> MutableSet<Element> {
        guard let (accessor, ordinal) = managedOwner else { realmStop("Unmanaged sets cannot be frozen") }
        if accessor.isFrozen { return self }
        return MutableSet._rqlLiveCollection(owner: CollectionOwner.frozen(accessor), ordinal: ordinal) ?? self
    }

    /// The live set of a frozen one, or nil when its object was deleted since.
    ///
    /// ```swift
    /// let live = rex.tags.freeze().thaw()
    /// ```
    public func thaw() -> MutableSet<Element>? {
        guard let (accessor, ordinal) = managedOwner else { realmStop("Unmanaged sets cannot be thawed") }
        guard accessor.isFrozen else { return self }
        return CollectionOwner.live(accessor).flatMap { MutableSet._rqlLiveCollection(owner: $0, ordinal: ordinal) }
    }
}

extension Map {
    /// A frozen copy of a managed map.
    ///
    /// ```swift
    /// let snapshot = rex.nicknames.freeze()
    /// ```
    public func freeze() -> Map<Key, Value> {
        guard let (accessor, ordinal) = managedOwner else { realmStop("Unmanaged maps cannot be frozen") }
        if accessor.isFrozen { return self }
        return Map._rqlLiveCollection(owner: CollectionOwner.frozen(accessor), ordinal: ordinal) ?? self
    }

    /// The live map of a frozen one, or nil when its object was deleted since.
    ///
    /// ```swift
    /// let live = rex.nicknames.freeze().thaw()
    /// ```
    public func thaw() -> Map<Key, Value>? {
        guard let (accessor, ordinal) = managedOwner else { realmStop("Unmanaged maps cannot be thawed") }
        guard accessor.isFrozen else { return self }
        return CollectionOwner.live(accessor).flatMap { Map._rqlLiveCollection(owner: $0, ordinal: ordinal) }
    }
}
