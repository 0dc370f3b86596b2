import Foundation
import RQLCore
@_spi(RQL) import RQLDSL

/// What `Results`, `List`, `MutableSet` and `LinkingObjects` share: a random-access collection
/// of a realm's values or objects that can be queried, sorted and aggregated. A managed
/// collection is queried by the engine, over its elements in its order: objects by their
/// properties, plain values as `self` (`scores.filter("self > 5")`).
///
/// ```swift
/// func oldest<C: RealmCollection>(_ dogs: C) -> Dog? where C.Element == Dog {
///     dogs.sorted(byKeyPath: "age", ascending: false).first
/// }
/// let olderDogs = person.dogs.filter("age > %@", 5)
/// let names = person.dogs.sorted(by: \.name).map(\.name)
///
/// // Any of them, stored as one type:
/// let shown: any RealmCollection<Dog> = person.dogs
/// shown.filter("age > 5").count
/// ```
public protocol RealmCollection<Element>: RandomAccessCollection, CustomStringConvertible
where Index == Int, Element: RealmCollectionValue {
    /// What the collection holds: objects, or plain values.
    associatedtype Element
    /// The realm the collection belongs to; nil while unmanaged.
    var realm: Realm? { get }
    /// Whether the object the collection belongs to was deleted.
    var isInvalidated: Bool { get }
    /// Whether the collection is a frozen snapshot.
    var isFrozen: Bool { get }
    /// A frozen snapshot of the collection (the program stops for an unmanaged one).
    func freeze() -> Self
    /// The live collection of a frozen one; nil when its object was deleted since.
    func thaw() -> Self?
    /// The collection's elements as results, for querying; nil while unmanaged.
    var _rqlResults: Results<Element>? { get }
}

extension RealmCollection {
    /// The results of a query over the collection's elements; the program stops for an
    /// unmanaged collection, as in Realm Swift.
    var _rqlQueryable: Results<Element> {
        guard let results = _rqlResults else {
            realmStop("This method may only be called on managed collections (of an object in a realm)")
        }
        return results
    }

    /// The collection's elements that match `predicateFormat` (NSPredicate format or RQL), in
    /// the collection's order. For plain values, `self` is the element.
    ///
    /// ```swift
    /// person.dogs.filter("age > %@", 5)
    /// dog.scores.filter("self > 5")           // List<Int>
    /// dog.tags.filter("self BEGINSWITH 'a'")  // MutableSet<String>
    /// ```
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do {
            return try _rqlQueryable.query(predicateFormat, arguments: args)
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
    }

    /// The checked twin of `filter(_:_:)`: throws `Realm.QueryError` instead of stopping.
    ///
    /// ```swift
    /// let old = try person.dogs.query("age > $0", 5)
    /// let high = try dog.scores.query("self > $0", 5)
    /// ```
    public func query(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try _rqlQueryable.query(predicateFormat, arguments: args)
    }

    /// The collection's elements that match a type-safe query (for plain values, `$0` is the
    /// element).
    ///
    /// ```swift
    /// person.dogs.where { $0.age > 5 }
    /// dog.scores.where { $0 > 5 }
    /// ```
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        _rqlQueryable.where(isIncluded)
    }

    /// The collection's elements sorted by each descriptor in turn (`"self"` for plain values).
    ///
    /// ```swift
    /// let sorted = person.dogs.sorted(by: [SortDescriptor(keyPath: "name", caseInsensitive: true)])
    /// ```
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        _rqlQueryable.sorted(by: sortDescriptors)
    }

    /// The first element of each distinct combination of the key paths' values.
    ///
    /// ```swift
    /// let oneDogPerAge = person.dogs.distinct(by: ["age"])
    /// ```
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        _rqlQueryable.distinct(by: keyPaths)
    }

    /// The position of the first element that matches the query.
    ///
    /// ```swift
    /// person.dogs.index(matching: "name == %@", "Rex")  // 0
    /// dog.scores.index(matching: "self > 5")
    /// ```
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        if _rqlResults == nil, let table = PlainValueTable(Element.self) {
            // Unmanaged plain values are tested one by one, as Realm Swift evaluates the predicate.
            do {
                let bound = try QueryText.bind(predicateFormat, arguments: args, target: .elements(table))
                return table.firstIndex(of: PlainValues.values(of: self), matching: bound.predicate)
            } catch {
                realmStop("Invalid query:\n\(error.description)")
            }
        }
        let matching: Results<Element>
        do {
            matching = try _rqlQueryable.query(predicateFormat, arguments: args)
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
        let found = Set(matching.evaluate().keys)
        return _rqlQueryable.evaluate().keys.firstIndex { found.contains($0) }
    }

    /// The position of the first element that matches a type-safe query.
    ///
    /// ```swift
    /// person.dogs.index(matching: { $0.age > 5 })
    /// dog.scores.index(matching: { $0 == 7 })
    /// ```
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        if _rqlResults == nil, let table = PlainValueTable(Element.self) {
            let predicate = isIncluded(Query<Element>(isPrimitive: true))._rqlPredicate
            do {
                let bound = try QueryText.bind(predicate, target: .elements(table))
                return table.firstIndex(of: PlainValues.values(of: self), matching: bound.predicate)
            } catch {
                realmStop("Invalid query:\n\(error.description)")
            }
        }
        return _rqlQueryable.index(matching: isIncluded)
    }

    /// The least value of `property` among the objects.
    ///
    /// ```swift
    /// let youngest: Int? = person.dogs.min(ofProperty: "age")
    /// ```
    public func min<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        _rqlQueryable.min(ofProperty: property)
    }

    /// The greatest value of `property` among the objects.
    ///
    /// ```swift
    /// let oldest: Int? = person.dogs.max(ofProperty: "age")
    /// ```
    public func max<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        _rqlQueryable.max(ofProperty: property)
    }

    /// The sum of `property` over the objects.
    ///
    /// ```swift
    /// let total: Int = person.dogs.sum(ofProperty: "age")
    /// ```
    public func sum<T: _Persistable>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        _rqlQueryable.sum(ofProperty: property)
    }

    /// The mean of `property` over the objects.
    ///
    /// ```swift
    /// let mean: Double? = person.dogs.average(ofProperty: "age")
    /// ```
    public func average<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        _rqlQueryable.average(ofProperty: property)
    }

    /// How the engine runs a query over the collection.
    ///
    /// ```swift
    /// print(person.dogs.filter("age > 2").explain())
    /// ```
    public func explain() -> String { _rqlQueryable.explain() }
}

extension RealmCollection where Element: RealmFetchable {
    /// The collection's objects sorted by a key path.
    ///
    /// ```swift
    /// let byAge = person.dogs.sorted(byKeyPath: "age", ascending: false)
    /// ```
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        _rqlQueryable.sorted(byKeyPath: keyPath, ascending: ascending)
    }
}

extension RealmCollection where Element: ObjectBase {
    /// The collection's objects sorted by a typed key path.
    ///
    /// ```swift
    /// person.dogs.sorted(by: \.age, ascending: false)
    /// ```
    public func sorted<T>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }

    /// The least value of a typed key path among the objects.
    ///
    /// ```swift
    /// let youngest = person.dogs.min(of: \.age)
    /// ```
    public func min<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: _name(for: keyPath))
    }

    /// The greatest value of a typed key path among the objects.
    ///
    /// ```swift
    /// let oldest = person.dogs.max(of: \.age)
    /// ```
    public func max<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: _name(for: keyPath))
    }

    /// The sum of a typed key path over the objects.
    ///
    /// ```swift
    /// let total = person.dogs.sum(of: \.age)
    /// ```
    public func sum<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: _name(for: keyPath))
    }

    /// The mean of a typed key path over the objects.
    ///
    /// ```swift
    /// let mean = person.dogs.average(of: \.weight)
    /// ```
    public func average<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: _name(for: keyPath))
    }
}

extension RealmCollection where Element: Encodable {
    /// The elements as an unkeyed container, what `List`, `MutableSet` and `Results` encode:
    /// a managed object property by property (`ObjectBase._rqlEncode(to:)`), any other element
    /// through its own conformance.
    func encodeElements(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self {
            if let object = element as? ObjectBase {
                try object._rqlEncode(to: container.superEncoder())
            } else {
                try container.encode(element)
            }
        }
    }
}

extension RealmCollection {
    /// The description of the collection called `name`: its count and its first elements'
    /// descriptions, bounded as `Object.description` is (nesting depth, and the first 100).
    func describeElements(_ name: String, depth: Int) -> String {
        let shown = prefix(ObjectDescription.maximumElements).map { $0 as Any }
        return ObjectDescription.describe(collection: name, count: count, shown: shown, depth: depth)
    }
}

// MARK: Collections of plain values

extension RealmCollection where Element.PersistedType: MinMaxType {
    /// The least element (nulls ignored), or nil when there is none.
    ///
    /// ```swift
    /// dog.scores.min()   // List<Int>
    /// ```
    public func min() -> Element? {
        PlainValues.aggregate(self, .min, as: Element.self)
    }

    /// The greatest element (nulls ignored), or nil when there is none.
    ///
    /// ```swift
    /// rex.scores.max()  // the largest score
    /// ```
    public func max() -> Element? {
        PlainValues.aggregate(self, .max, as: Element.self)
    }
}

extension RealmCollection where Element.PersistedType: AddableType {
    /// The sum of the elements (0 when there are none).
    ///
    /// ```swift
    /// rex.scores.sum()
    /// ```
    public func sum() -> Element {
        PlainValues.aggregate(self, .sum, as: Element.self) ?? Element._rlmDefaultValue()
    }

    /// The mean of the elements, or nil when there are none.
    ///
    /// ```swift
    /// let mean: Double? = dog.scores.average()
    /// ```
    public func average<T: _Persistable>() -> T? {
        PlainValues.aggregate(self, .average, as: T.self)
    }
}

/// Plain values of a collection as the engine's `Value`s, for aggregates.
enum PlainValues {
    /// The owner `_rqlRead` is given when bridging a plain value (which never uses it).
    nonisolated(unsafe) static let owner = ObjectBase()

    static func values<C: Collection>(of collection: C) -> [RQLCore.Value] {
        collection.map { element in
            guard let mixed = AnyRealmValue._rqlConvert(element),
                case .constant(let value) = mixed._rqlQueryConstant
            else { return .null }
            return value
        }
    }

    /// Whether elements of `type` are mixed values, whose numbers an aggregate adds as decimals.
    static func areMixed<Element>(_ type: Element.Type) -> Bool { type == AnyRealmValue.self }

    /// `method` over the collection's elements, as `T`.
    static func aggregate<C: Collection, T: _Persistable>(
        _ collection: C,
        _ method: AggregateMethod,
        as type: T.Type
    ) -> T? where C.Element: _Persistable {
        let result = method.apply(to: values(of: collection), overMixed: areMixed(C.Element.self))
        return AggregateConversion.convert(result, to: T.self, owner: owner)
    }
}

// MARK: Conformances

extension Results: RealmCollection {
    public var _rqlResults: Results<Element>? { self }
}

extension List: RealmCollection {
    /// The realm of the object the list belongs to; nil while unmanaged.
    public var realm: Realm? { storage.owner.map { Realm(context: $0.accessor.context) } }

    /// Whether the list is a frozen snapshot.
    public var isFrozen: Bool { storage.owner?.accessor.isFrozen ?? false }

    public var _rqlResults: Results<Element>? {
        guard let (accessor, ordinal) = storage.owner else { return nil }
        return CollectionResults.results(owner: accessor, ordinal: ordinal)
    }
}

extension MutableSet: RealmCollection {
    /// The realm of the object the set belongs to; nil while unmanaged.
    public var realm: Realm? { managedOwner.map { Realm(context: $0.accessor.context) } }

    /// Whether the set is a frozen snapshot.
    public var isFrozen: Bool { managedOwner?.accessor.isFrozen ?? false }

    public var _rqlResults: Results<Element>? {
        guard let (accessor, ordinal) = managedOwner else { return nil }
        return CollectionResults.results(owner: accessor, ordinal: ordinal)
    }
}

extension LinkingObjects: RealmCollection {
    /// The realm of the object the linking objects point at; nil while unmanaged.
    public var realm: Realm? { managedOwner.map { Realm(context: $0.context) } }

    /// Whether the linking objects are a frozen snapshot.
    public var isFrozen: Bool { managedOwner?.isFrozen ?? false }

    public var _rqlResults: Results<Element>? {
        guard let owner = managedOwner,
            let ordinal = owner.classInfo.properties.firstIndex(where: {
                if case .linkingObjects(_, let property) = $0.core.type, property == propertyName,
                    $0.target == Element.self
                {
                    return true
                }
                return false
            })
        else { return nil }
        return CollectionResults.results(owner: owner, ordinal: ordinal)
    }
}

/// Results over the objects or plain values a collection property holds.
enum CollectionResults {
    static func results<Element: RealmCollectionValue>(owner: ObjectAccessor, ordinal: Int) -> Results<Element>? {
        if let table = PlainValueTable(Element.self) {
            return Results(
                context: owner.context,
                source: .values(table, owner: owner, ordinal: ordinal),
                make: { _ in realmStop("Results of plain values make no objects") }
            )
        }
        guard let fetchable = Element.self as? any RealmFetchable.Type,
            let info = owner.context.classInfo(named: fetchable._rqlObjectType.className())
        else { return nil }
        return Results(
            context: owner.context,
            source: .collection(info, owner: owner, ordinal: ordinal),
            make: { fetchable._rqlMake($0) as! Element }
        )
    }
}
