import Foundation
import RQLCore
import RQLDSL
import RQLEngine

/// An enum stored as its raw value. Queries compare the raw value; `.rawValue` in a `where`
/// closure re-types the query for the raw type's operators.
///
/// ```swift
/// enum TaskStatus: String, PersistableEnum { case notStarted, inProgress, complete }
/// class Task: Object {
///     @Persisted var status = TaskStatus.notStarted
///     @Persisted var previous: TaskStatus?
/// }
/// tasks.where { $0.status == .complete }
/// ```
public protocol PersistableEnum: _RealmCollectionValueInsideOptional, RawRepresentable, CaseIterable, Comparable,
    MinMaxType, _QueryPersistableEnum, _QueryValue
where RawValue: _RealmCollectionValueInsideOptional & _QueryValue & Comparable, PersistedType == RawValue {}

extension PersistableEnum {
    public static var _rqlSchemaType: _RQLSchemaType {
        var type = RawValue._rqlSchemaType
        type.swiftName = "\(Self.self)"
        return type
    }

    /// The first case.
    public static func _rlmDefaultValue() -> Self {
        guard let first = allCases.first else { realmStop("\(Self.self) has no cases to default to") }
        return first
    }

    /// The enum itself, or the case of a raw value.
    public static func _rqlConvert(_ value: Any) -> Self? {
        if let value = value as? Self { return value }
        return RawValue._rqlConvert(value).flatMap(Self.init(rawValue:))
    }

    /// The case of the stored raw value; nil for a raw value that names no case.
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self? {
        RawValue._rqlRead(stored, owner: owner).flatMap(Self.init(rawValue:))
    }

    public var _rqlQueryConstant: UnboundExpression { rawValue._rqlQueryConstant }

    /// The raw value.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { rawValue._rqlStore(writer) }

    /// Cases order by raw value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A type stored as another, built-in type (a URL as a string, a point as an embedded object).
///
/// ```swift
/// extension URL: CustomPersistable {
///     public typealias PersistedType = String
///     public init(persistedValue: String) { self = URL(string: persistedValue)! }
///     public var persistableValue: String { absoluteString }
/// }
/// ```
public protocol CustomPersistable: _CustomPersistable {
    /// The value a stored value represents.
    init(persistedValue: PersistedType)
    /// The value to store.
    var persistableValue: PersistedType { get }
}

/// A `CustomPersistable` whose stored values need not all convert; one that does not reads as
/// nil from an optional property.
public protocol FailableCustomPersistable: _CustomPersistable {
    init?(persistedValue: PersistedType)
    var persistableValue: PersistedType { get }
}

/// What `CustomPersistable` and `FailableCustomPersistable` share.
public protocol _CustomPersistable: _RealmCollectionValueInsideOptional, _QueryValue
where PersistedType: _PersistableInsideOptional {
    /// The conversion from a stored value (failable for both kinds).
    static func _rqlFromPersisted(_ value: PersistedType) -> Self?
    var _rqlPersistable: PersistedType { get }
}

extension CustomPersistable {
    public static func _rqlFromPersisted(_ value: PersistedType) -> Self? { Self(persistedValue: value) }
    public var _rqlPersistable: PersistedType { persistableValue }
}

extension FailableCustomPersistable {
    public static func _rqlFromPersisted(_ value: PersistedType) -> Self? { Self(persistedValue: value) }
    public var _rqlPersistable: PersistedType { persistableValue }
}

extension _CustomPersistable {
    public static var _rqlSchemaType: _RQLSchemaType {
        var type = PersistedType._rqlSchemaType
        type.swiftName = "\(Self.self)"
        return type
    }

    public static func _rlmDefaultValue() -> Self {
        guard let value = _rqlFromPersisted(PersistedType._rlmDefaultValue()) else {
            realmStop(
                "\(Self.self) has no value for the default \(PersistedType.self); give the property an initial value"
            )
        }
        return value
    }

    public static func _rqlConvert(_ value: Any) -> Self? {
        if let value = value as? Self { return value }
        return PersistedType._rqlConvert(value).flatMap(_rqlFromPersisted)
    }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self? {
        PersistedType._rqlRead(stored, owner: owner).flatMap(_rqlFromPersisted)
    }

    /// The persisted value.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { _rqlPersistable._rqlStore(writer) }

    public var _rqlQueryConstant: UnboundExpression {
        (_rqlPersistable as? any _QueryValue)?._rqlQueryConstant
            ?? .invalid("a value of type '\(PersistedType.self)' cannot be used in a query")
    }
}
