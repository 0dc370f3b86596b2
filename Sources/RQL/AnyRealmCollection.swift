/// Any realm collection of `Element` (results, a list, a set, linking objects) behind one type,
/// as Realm Swift's `AnyRealmCollection`: for a property or a parameter that takes whichever
/// collection a screen shows. Every operation goes to the wrapped collection, so the wrapper
/// reads, queries and freezes exactly as its base does.
///
/// ```swift
/// final class DogListModel {
///     var dogs: AnyRealmCollection<Dog>
///     init(_ dogs: AnyRealmCollection<Dog>) { self.dogs = dogs }
/// }
/// let all = DogListModel(AnyRealmCollection(realm.objects(Dog.self)))
/// let owned = DogListModel(AnyRealmCollection(person.dogs))
/// owned.dogs.filter("age > 5").count
/// ```
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    /// The wrapped collection. Kept whole (not reduced to its results) so that what only the
    /// base knows, such as its notifications, can be forwarded to it.
    public let base: any RealmCollection<Element>

    /// Wraps `base`.
    ///
    /// ```swift
    /// let dogs = AnyRealmCollection(person.dogs)
    /// ```
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        if let wrapped = base as? AnyRealmCollection<Element> {
            self.base = wrapped.base
        } else {
            self.base = base
        }
    }

    private init(wrapping base: any RealmCollection<Element>) {
        self.base = base
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { base.count }
    public var count: Int { base.count }

    /// The element at `position` of the base collection.
    public subscript(position: Int) -> Element { base[base.startIndex + position] }

    public var realm: Realm? { base.realm }
    public var isInvalidated: Bool { base.isInvalidated }
    public var isFrozen: Bool { base.isFrozen }

    /// A frozen snapshot of the base collection, wrapped.
    ///
    /// ```swift
    /// let snapshot = AnyRealmCollection(person.dogs).freeze()
    /// ```
    public func freeze() -> AnyRealmCollection<Element> {
        AnyRealmCollection(wrapping: base.freeze())
    }

    /// The live collection of a frozen one, wrapped; nil when its object was deleted since.
    public func thaw() -> AnyRealmCollection<Element>? {
        base.thaw().map { AnyRealmCollection(wrapping: $0) }
    }

    public var _rqlResults: Results<Element>? { base._rqlResults }

    public var description: String { base.description }
}

extension AnyRealmCollection: Equatable where Element: Equatable {
    /// Collections are equal when their elements are, in order.
    public static func == (lhs: AnyRealmCollection<Element>, rhs: AnyRealmCollection<Element>) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
