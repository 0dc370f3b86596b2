import RQLCore
import RQLIR

// An enum is stored as its raw value, so a query over it is a query over the raw value; these
// re-type the same key path so that the raw type's operators apply.

extension Query where T: _QueryPersistableEnum {
    /// The enum's raw value, for operators the enum lacks.
    ///
    /// ```swift
    /// tasks.where { $0.status.rawValue.starts(with: "in") }
    /// ```
    public var rawValue: Query<T.RawValue> { with(node) }
}

extension Query where T: OptionalProtocol, T.Wrapped: _QueryPersistableEnum {
    /// The optional enum's raw value.
    public var rawValue: Query<T.Wrapped.RawValue?> { with(node) }
}

extension Query where T: _QueryCollection, T.Element: _QueryPersistableEnum {
    /// The raw values of a collection of enums.
    public var rawValue: Query<_QueryCollectionOf<T.Element.RawValue>> { with(node) }
}

extension Query where T: _QueryCollection, T.Element: OptionalProtocol, T.Element.Wrapped: _QueryPersistableEnum {
    /// The raw values of a collection of optional enums.
    public var rawValue: Query<_QueryCollectionOf<T.Element.Wrapped.RawValue?>> { with(node) }
}

extension Query where T: _QueryKeyedCollection, T.Value: _QueryPersistableEnum {
    /// The raw values of a map of enums.
    public var rawValue: Query<_QueryMapOf<T.Key, T.Value.RawValue>> { with(node) }
}

extension Query where T: _QueryKeyedCollection, T.Value: OptionalProtocol, T.Value.Wrapped: _QueryPersistableEnum {
    /// The raw values of a map of optional enums.
    public var rawValue: Query<_QueryMapOf<T.Key, T.Value.Wrapped.RawValue?>> { with(node) }
}

extension Query where T: _HasPersistedType {
    /// The value as it is stored (an enum's raw value, a custom type's persisted form).
    ///
    /// ```swift
    /// dogs.where { $0.size.persistableValue == "large" }
    /// ```
    public var persistableValue: Query<T.PersistedType> { with(node) }
}

/// The type of a re-typed collection query (`$0.enums.rawValue`): it only selects which
/// operators apply; no value of it ever exists.
public struct _QueryCollectionOf<Element>: _QueryCollection {}

/// The type of a re-typed map query (`$0.enumMap.rawValue`).
public struct _QueryMapOf<Key: Hashable, Value>: _QueryKeyedCollection {}
