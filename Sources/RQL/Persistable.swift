import Foundation
import RQLCore
import RQLDSL

/// A type whose schema discovery can describe: the stored type, optionality, collection kind,
/// link target. Every `@Persisted` value type is one.
public protocol _RealmSchemaDiscoverable {
    /// How the type is stored.
    static var _rqlSchemaType: _RQLSchemaType { get }
}

/// A type a `@Persisted` property can hold: it has a default value, converts from the values
/// `Object(value:)` accepts, and reads from a stored `Value` once its object is managed.
public protocol _Persistable: _RealmSchemaDiscoverable, _HasPersistedType {
    /// The value of a property declared without one (`@Persisted var age: Int` is 0; an
    /// `ObjectId` is a new one, a `UUID` a random one, an optional nil, a collection empty).
    static func _rlmDefaultValue() -> Self
    /// `value` as this type, or nil: the conversions of `Object(value:)` and `create(_:value:)`
    /// (numbers across widths, nested dictionaries and arrays for objects and collections).
    static func _rqlConvert(_ value: Any) -> Self?
    /// A stored value read from the store for a managed object `owner` (links become objects of
    /// `owner`'s realm); nil when the stored value does not fit the type.
    static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self?
    /// For collection types, the live collection of a managed object's property `ordinal`
    /// (made once and cached by `Persisted`); nil for every other type.
    static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> Self?
    /// What reading the property on the key-path recording prototype returns: for links the
    /// target's prototype, recording into `names`; otherwise any value.
    static func _rqlRecordingValue(_ names: AnyObject) -> Self
    /// The value to store for this Swift value in `writer`'s realm: objects linked to are added
    /// first, embedded objects are given by their values.
    func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value
    /// For collection types, makes this unmanaged collection a live view of `owner`'s property
    /// `ordinal` (when `owner` becomes managed); false for every other type.
    func _rqlPromote(owner: ObjectBase, ordinal: Int) -> Bool
    /// An unmanaged copy for collection types (sharing the elements); the value itself otherwise.
    func _rqlUnmanagedCopy() -> Self
    /// Whether the type is a collection whose managed value is a live view (`List`,
    /// `MutableSet`, `Map`, `LinkingObjects`).
    static var _rqlIsLiveCollection: Bool { get }
    /// Property `ordinal` of the managed object `object`. The built-in scalar types implement it
    /// without generic code, since `@Persisted` reads call it from the model class.
    static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Self
}

extension _Persistable {
    public static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> Self? { nil }
    public func _rqlPromote(owner: ObjectBase, ordinal: Int) -> Bool { false }
    public func _rqlUnmanagedCopy() -> Self { self }
    @inlinable public static var _rqlIsLiveCollection: Bool { false }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Self {
        object._rqlManagedValue(ordinal, as: Self.self)
    }
}

/// A `_Persistable` that may be wrapped in an `Optional` (everything except `AnyRealmValue`,
/// whose `.none` is its null, and collections).
public protocol _PersistableInsideOptional: _Persistable {}

/// A type a `List`, `MutableSet` or `Map` can hold.
public protocol RealmCollectionValue: Hashable, _Persistable {}

/// A collection element type that may also be held as an optional (`List<Int?>`).
public protocol _RealmCollectionValueInsideOptional: RealmCollectionValue, _PersistableInsideOptional {}

/// Types a `@Persisted(indexed: true)` property may have: integers, `Bool`, `String`, `Date`,
/// `ObjectId`, `UUID` (and optionals and enums of them).
public protocol _Indexable {}

/// Types a primary key may have: integers, `String`, `ObjectId`, `UUID` (and optionals).
public protocol _PrimaryKey {}

/// Types `min`/`max` aggregate: numbers, `Date`, `Decimal128`, `AnyRealmValue`.
public protocol MinMaxType {}

/// Types `sum`/`average` aggregate: numbers, `Decimal128`, `AnyRealmValue`.
public protocol AddableType {}

/// Types `sorted(by:)` accepts: numbers, strings, data, dates, `Decimal128`, `AnyRealmValue`.
public protocol SortableType {}

/// The key type of a `Map`: `String`.
public protocol _MapKey: Hashable, Comparable {}
extension String: _MapKey {}

/// How a `@Persisted` value type is stored, as schema discovery reads it.
public struct _RQLSchemaType: Sendable {
    /// The stored element type.
    enum Element: Sendable {
        /// A scalar of the engine's type (`mixed` for `AnyRealmValue`).
        case scalar(RQLCore.PropertyType)
        /// A link to (or the embedding of) an object of the class.
        case object(ObjectBase.Type)
        /// A type that cannot be stored; the payload says why.
        case unsupported(String)
    }

    var element: Element
    var isOptional: Bool
    var collection: CollectionKind
    var isBacklink: Bool
    /// The Swift spelling, for messages.
    var swiftName: String

    init(
        _ element: Element,
        isOptional: Bool = false,
        collection: CollectionKind = .single,
        isBacklink: Bool = false,
        swiftName: String
    ) {
        self.element = element
        self.isOptional = isOptional
        self.collection = collection
        self.isBacklink = isBacklink
        self.swiftName = swiftName
    }

    static func scalar(_ type: RQLCore.PropertyType, _ swiftName: String) -> _RQLSchemaType {
        _RQLSchemaType(.scalar(type), isOptional: type == .mixed, swiftName: swiftName)
    }

    /// The type of each element of a collection of `element`.
    func collected(_ kind: CollectionKind, swiftName: String) -> _RQLSchemaType {
        var result = self
        result.swiftName = swiftName
        if collection != .single {
            result.element = .unsupported("a collection cannot hold collections ('\(swiftName)')")
        }
        result.collection = kind
        return result
    }
}
