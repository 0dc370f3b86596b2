import Foundation
import RQLCore
@_spi(RQL) import RQLDSL

// Querying a map's values: a map of (optional) objects is queried by the engine over the objects
// it holds, in key order, skipping null values; a map of plain values over its values (nulls
// included), in key order, with `self` the value.

extension Map {
    /// The realm of the object the map belongs to; nil while unmanaged.
    ///
    /// ```swift
    /// rex.nicknames.realm == realm  // true
    /// ```
    public var realm: Realm? { managedOwner.map { Realm(context: $0.accessor.context) } }

    /// Whether the map is a frozen snapshot.
    ///
    /// ```swift
    /// rex.nicknames.freeze().isFrozen  // true
    /// ```
    public var isFrozen: Bool { managedOwner?.accessor.isFrozen ?? false }

    /// The map's values (for objects, the objects they link to) as results; nil while unmanaged.
    var _rqlValueResults: Results<Value>? {
        guard let (accessor, ordinal) = managedOwner else { return nil }
        if let table = PlainValueTable(Value.self) {
            return Results(
                context: accessor.context,
                source: .values(table, owner: accessor, ordinal: ordinal),
                make: { _ in realmStop("Results of plain values make no objects") }
            )
        }
        guard let optional = Value.self as? any _RQLOptionalObject.Type,
            let info = accessor.context.classInfo(named: optional._rqlObjectType.className())
        else { return nil }
        return Results(
            context: accessor.context,
            source: .collection(info, owner: accessor, ordinal: ordinal),
            make: { optional._rqlWrap($0) as! Value }
        )
    }

    private var queryableValues: Results<Value> {
        guard let results = _rqlValueResults else {
            realmStop("This method may only be called on managed maps (of an object in a realm)")
        }
        return results
    }

    /// The objects among the map's values that match `predicateFormat`, in key order; for plain
    /// values, the values (`self`) that match.
    ///
    /// ```swift
    /// toyBox.toysByRoom.filter("name BEGINSWITH %@", "T")
    /// rex.scoresByGame.filter("self >= 10")   // Map<String, Int>: Results<Int>
    /// ```
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value> {
        do {
            return try queryableValues.query(predicateFormat, arguments: args)
        } catch {
            realmStop("Invalid query:\n\(error.description)")
        }
    }

    /// The checked twin of `filter(_:_:)`: throws `Realm.QueryError` instead of stopping.
    ///
    /// ```swift
    /// let high = try rex.scoresByGame.query("self >= $0", 10)
    /// ```
    public func query(_ predicateFormat: String, _ args: Any...) throws -> Results<Value> {
        try queryableValues.query(predicateFormat, arguments: args)
    }

    /// The objects among the map's values that match a type-safe query (for plain values, `$0`
    /// is the value).
    ///
    /// ```swift
    /// toyBox.toysByRoom.where { $0.name == "Rope" }
    /// rex.scoresByGame.where { $0 >= 10 }
    /// ```
    public func `where`(_ isIncluded: (Query<Value>) -> Query<Bool>) -> Results<Value> {
        queryableValues.where(isIncluded)
    }

    /// The objects among the map's values, sorted by a key path.
    ///
    /// ```swift
    /// let byAge = person.dogsByName.sorted(byKeyPath: "age")
    /// ```
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Value> {
        queryableValues.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The map's values sorted by themselves (nulls first ascending), as results.
    ///
    /// ```swift
    /// rex.scoresByGame.sorted(ascending: false).first  // the best score
    /// ```
    public func sorted(ascending: Bool = true) -> Results<Value> where Value.PersistedType: SortableType {
        sorted(by: [SortDescriptor(keyPath: PlainValueTable.propertyName, ascending: ascending)])
    }

    /// The objects among the map's values (or the plain values, by `"self"`), sorted by each
    /// descriptor in turn.
    ///
    /// ```swift
    /// let sorted = person.dogsByName.sorted(by: ["name"])
    /// ```
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Value> where S.Element == SortDescriptor {
        queryableValues.sorted(by: sortDescriptors)
    }

    /// The least value of `property` among the map's objects.
    ///
    /// ```swift
    /// let youngest: Int? = person.dogsByName.min(ofProperty: "age")
    /// ```
    public func min<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        queryableValues.min(ofProperty: property)
    }

    /// The greatest value of `property` among the map's objects.
    ///
    /// ```swift
    /// let oldest: Int? = person.dogsByName.max(ofProperty: "age")
    /// ```
    public func max<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        queryableValues.max(ofProperty: property)
    }

    /// The sum of `property` over the map's objects.
    ///
    /// ```swift
    /// let total: Int = person.dogsByName.sum(ofProperty: "age")
    /// ```
    public func sum<T: _Persistable>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        queryableValues.sum(ofProperty: property)
    }

    /// The mean of `property` over the map's objects.
    ///
    /// ```swift
    /// let mean: Double? = person.dogsByName.average(ofProperty: "age")
    /// ```
    public func average<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        queryableValues.average(ofProperty: property)
    }
}

extension Map where Value.PersistedType: MinMaxType {
    /// The least value (nulls ignored), or nil when there is none.
    ///
    /// ```swift
    /// scores.totals.min()   // Map<String, Int>
    /// ```
    public func min() -> Value? {
        PlainValues.aggregate(values, .min, as: Value.self)
    }

    /// The greatest value (nulls ignored), or nil when there is none.
    ///
    /// ```swift
    /// rex.scoresByGame.max()
    /// ```
    public func max() -> Value? {
        PlainValues.aggregate(values, .max, as: Value.self)
    }
}

extension Map where Value.PersistedType: AddableType {
    /// The sum of the values (0 when there are none).
    ///
    /// ```swift
    /// rex.scoresByGame.sum()
    /// ```
    public func sum() -> Value {
        PlainValues.aggregate(values, .sum, as: Value.self) ?? Value._rlmDefaultValue()
    }

    /// The mean of the values, or nil when there are none.
    ///
    /// ```swift
    /// let mean: Double? = rex.scoresByGame.average()
    /// ```
    public func average<T: _Persistable>() -> T? {
        PlainValues.aggregate(values, .average, as: T.self)
    }
}

/// `Optional<Object>`, the value type of a map of objects, with what results of it need.
protocol _RQLOptionalObject {
    static var _rqlObjectType: ObjectBase.Type { get }
    static func _rqlWrap(_ object: ObjectBase) -> Any
}

extension Optional: _RQLOptionalObject where Wrapped: RealmFetchable {
    static var _rqlObjectType: ObjectBase.Type { Wrapped._rqlObjectType }
    static func _rqlWrap(_ object: ObjectBase) -> Any { Wrapped?.some(Wrapped._rqlMake(object)) as Any }
}
