import Foundation
import RQLCore
import RQLIR

// The protocols below are what `Query<T>`'s constrained extensions test `T` against. RQLDSL
// cannot see the object model (RQL imports RQLDSL, not the other way round), so it names the
// roles here and RQL's types take them: `Object` is a `_QueryObjectBase`, `List` a
// `_QueryCollection`, `Map` a `_QueryKeyedCollection`, `AnyRealmValue` a `_QueryMixedValue`.
// Names that realm-swift also exports (`_QueryNumeric`, `OptionalProtocol`, …) keep its names.

/// An object class whose persisted properties queries can name (`Object`, `EmbeddedObject`).
public protocol _QueryObjectBase: AnyObject {
    /// The name of the persisted property that the one-step key path `keyPath` reads, or nil when
    /// it reads something that is not persisted (a computed or ignored property).
    static func _rqlQueryPropertyName(for keyPath: AnyKeyPath) -> String?
}

/// An embedded object class; a GeoJSON-shaped one is what `geoWithin` tests.
public protocol _QueryEmbeddedObjectBase: _QueryObjectBase {}

/// A collection property queries treat as many values (`List`, `MutableSet`, `LinkingObjects`,
/// `Results`): comparisons through it mean ANY unless an aggregate or `count` says otherwise.
public protocol _QueryCollection {
    associatedtype Element
}

/// A map property (`Map<String, Value>`): values by key, `keys`, `values`.
public protocol _QueryKeyedCollection {
    associatedtype Key: Hashable
    associatedtype Value
}

/// The mixed type (`AnyRealmValue`), which can be subscripted into when it holds a collection.
public protocol _QueryMixedValue {}

/// A `PersistableEnum`: queries compare its raw value, and `.rawValue` re-types the query.
public protocol _QueryPersistableEnum: RawRepresentable {}

/// `Optional`, so that extensions can constrain on what it wraps.
public protocol OptionalProtocol {
    associatedtype Wrapped
    /// The wrapped value, or nil.
    var _rlmInferWrappedType: Wrapped? { get }
}

extension Optional: OptionalProtocol {
    public var _rlmInferWrappedType: Wrapped? { self }
}

/// A type stored as another type (an enum as its raw value, a custom type as its persisted
/// form); built-in types are stored as themselves.
public protocol _HasPersistedType {
    associatedtype PersistedType
}

/// Types compared by value with `<`, `>`, `min`, `sum`, … in queries.
public protocol _QueryNumeric {}
/// Types that the string operators (`contains`, `starts(with:)`, …) apply to: strings and data.
public protocol _QueryBinary {}
/// Strings, which add `like`.
public protocol _QueryString: _QueryBinary {}

extension Optional: _HasPersistedType where Wrapped: _HasPersistedType {
    public typealias PersistedType = Wrapped.PersistedType
}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}
extension Optional: _QueryBinary where Wrapped: _QueryBinary {}
extension Optional: _QueryString where Wrapped: _QueryString {}

extension Bool: _HasPersistedType { public typealias PersistedType = Bool }
extension Int: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Int }
extension Int8: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Int8 }
extension Int16: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Int16 }
extension Int32: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Int32 }
extension Int64: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Int64 }
extension Float: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Float }
extension Double: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Double }
extension Date: _HasPersistedType, _QueryNumeric { public typealias PersistedType = Date }
extension String: _HasPersistedType, _QueryString { public typealias PersistedType = String }
extension Data: _HasPersistedType, _QueryBinary { public typealias PersistedType = Data }
extension UUID: _HasPersistedType { public typealias PersistedType = UUID }
