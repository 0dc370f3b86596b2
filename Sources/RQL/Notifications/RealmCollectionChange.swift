import Foundation

/// What changed in an observed collection, delivered to an `observe` block.
///
/// Deletions and modifications are indices in the collection as it was at the previous
/// delivery; insertions are indices in the collection as it is now. Removing the deleted
/// indices from the old collection (from the highest down) and then inserting the inserted ones
/// (from the lowest up) gives the new collection exactly. All three are ascending.
///
/// ```swift
/// let token = realm.objects(Dog.self).observe { change in
///     switch change {
///     case .initial(let dogs): print("\(dogs.count) dogs")
///     case .update(_, let deletions, let insertions, let modifications):
///         print(deletions, insertions, modifications)
///     case .error(let error): print(error)
///     }
/// }
/// ```
public enum RealmCollectionChange<CollectionType> {
    /// The collection as first evaluated.
    case initial(CollectionType)
    /// The collection now, with the indices removed (old), added (new) and changed (old).
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The observation failed (kept for source compatibility; RQL reports nothing here today).
    case error(Error)
}

/// A change to a `Sendable` collection (a `Results`) crosses as its collection does.
///
/// ```swift
/// let token = await dogs.observe(on: model) { model, change in model.apply(change) }
/// ```
extension RealmCollectionChange: Sendable where CollectionType: Sendable {}

/// What changed in an observed `Map`: the keys removed, added and whose value changed.
///
/// ```swift
/// let token = rex.nicknames.observe { change in
///     if case .update(_, let deletions, let insertions, let modifications) = change { … }
/// }
/// ```
public enum RealmMapChange<Collection> {
    /// The map as first read.
    case initial(Collection)
    /// The map now, with the keys removed, added, and whose value changed.
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    /// The observation failed (kept for source compatibility).
    case error(Error)
}

/// One property of an observed object that a commit changed.
///
/// ```swift
/// case .change(_, let changes):
///     for change in changes { print(change.name, change.oldValue ?? "nil", change.newValue ?? "nil") }
/// ```
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// The value before the change (RQL always knows it, unlike Realm Swift, which gives nil
    /// for changes made on the observing thread); nil when the value was nil.
    public let oldValue: Any?
    /// The value after the change; nil when the value is nil.
    public let newValue: Any?
}

/// What happened to an observed object.
///
/// ```swift
/// let token = rex.observe { change in
///     switch change {
///     case .change(let dog, let properties): print(dog.name, properties.map(\.name))
///     case .deleted: print("gone")
///     case .error(let error): print(error)
///     }
/// }
/// ```
public enum ObjectChange<T> {
    /// The observation failed (kept for source compatibility).
    case error(Error)
    /// The object as it is now, and the properties that changed.
    case change(T, [PropertyChange])
    /// The object was deleted; no further change is delivered.
    case deleted
}

extension Realm {
    /// What a `Realm.observe` block is told.
    ///
    /// ```swift
    /// let token = realm.observe { notification, realm in
    ///     if notification == .didChange { print(realm.objects(Dog.self).count) }
    /// }
    /// ```
    public enum Notification: String, Sendable {
        /// The realm moved to a newer version (its own commit, or a refresh).
        case didChange = "RLMRealmDidChangeNotification"
        /// Another realm of the same store committed and this realm has not refreshed yet.
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }

    /// The block a `Realm.observe` call registers.
    public typealias NotificationBlock = (_ notification: Notification, _ realm: Realm) -> Void
}
