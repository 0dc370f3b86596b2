import Foundation
import RQLCore
import RQLDSL
import RQLEngine

// The built-in scalar types: how each is stored, its default, and its conversions.

/// Reading numbers out of `Any` the way `Object(value:)` accepts them: any integer width, a
/// float or double holding an integer, an `NSNumber` (what `JSONSerialization` produces).
enum NumberConversion {
    static func integer(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: Int64(v)
        case let v as Int8: Int64(v)
        case let v as Int16: Int64(v)
        case let v as Int32: Int64(v)
        case let v as Int64: v
        case let v as UInt8: Int64(v)
        case let v as UInt16: Int64(v)
        case let v as UInt32: Int64(v)
        case let v as UInt: Int64(exactly: v)
        case let v as UInt64: Int64(exactly: v)
        case let v as Double: Int64(exactly: v)
        case let v as Float: Int64(exactly: v)
        case is Bool: nil
        case let v as NSNumber: Int64(exactly: v.doubleValue).map { _ in v.int64Value }
        default: nil
        }
    }

    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: v
        case let v as Float: Double(v)
        case is Bool: nil
        case let v as NSNumber: v.doubleValue
        default: integer(value).map(Double.init)
        }
    }
}

extension Bool: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, _PrimaryKey {
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.bool, "Bool") }
    public static func _rlmDefaultValue() -> Bool { false }
    public static func _rqlConvert(_ value: Any) -> Bool? {
        if let v = value as? Bool { return v }
        if let v = value as? NSNumber, v.doubleValue == 0 || v.doubleValue == 1 { return v.boolValue }
        return nil
    }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .bool(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Bool {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Bool.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Bool? {
        if case .bool(let v) = stored { return v }
        return nil
    }
}

/// The integer types share everything but their width; Realm stores them all as 64 bits.
public protocol _RQLStoredInteger: FixedWidthInteger, _PersistableInsideOptional, _RealmCollectionValueInsideOptional {}

extension _RQLStoredInteger {
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.int, "\(Self.self)") }
    public static func _rlmDefaultValue() -> Self { 0 }
    public static func _rqlConvert(_ value: Any) -> Self? {
        NumberConversion.integer(value).flatMap { Self(exactly: $0) }
    }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .int(Int64(self)) }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Self? {
        if case .int(let v) = stored { return Self(truncatingIfNeeded: v) }
        return nil
    }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Self {
        guard let value = object._rqlStoredInt(ordinal) else { object._rqlMismatch(ordinal, Self.self) }
        return Self(truncatingIfNeeded: value)
    }
}

extension Int: _RQLStoredInteger, _Indexable, _PrimaryKey, MinMaxType, AddableType, SortableType {}
extension Int8: _RQLStoredInteger, _Indexable, _PrimaryKey, MinMaxType, AddableType, SortableType {}
extension Int16: _RQLStoredInteger, _Indexable, _PrimaryKey, MinMaxType, AddableType, SortableType {}
extension Int32: _RQLStoredInteger, _Indexable, _PrimaryKey, MinMaxType, AddableType, SortableType {}
extension Int64: _RQLStoredInteger, _Indexable, _PrimaryKey, MinMaxType, AddableType, SortableType {}

extension Float: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType, SortableType
{
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.float, "Float") }
    public static func _rlmDefaultValue() -> Float { 0 }
    public static func _rqlConvert(_ value: Any) -> Float? { NumberConversion.double(value).map(Float.init) }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .float(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Float {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Float.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Float? {
        if case .float(let v) = stored { return v }
        return nil
    }
}

extension Double: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType, SortableType
{
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.double, "Double") }
    public static func _rlmDefaultValue() -> Double { 0 }
    public static func _rqlConvert(_ value: Any) -> Double? { NumberConversion.double(value) }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .double(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Double {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Double.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Double? {
        if case .double(let v) = stored { return v }
        return nil
    }
}

extension String: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, _PrimaryKey, SortableType
{
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.string, "String") }
    public static func _rlmDefaultValue() -> String { "" }
    public static func _rqlConvert(_ value: Any) -> String? {
        switch value {
        case let v as String: v
        case let v as Substring: String(v)
        default: nil
        }
    }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .string(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> String {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, String.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> String? {
        if case .string(let v) = stored { return v }
        return nil
    }
}

extension Data: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, SortableType {
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.data, "Data") }
    public static func _rlmDefaultValue() -> Data { Data() }
    public static func _rqlConvert(_ value: Any) -> Data? {
        switch value {
        case let v as Data: v
        case let v as [UInt8]: Data(v)
        default: nil
        }
    }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .data([UInt8](self)) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Data {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Data.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Data? {
        if case .data(let v) = stored { return Data(v) }
        return nil
    }
}

extension Date: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, MinMaxType, SortableType {
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.date, "Date") }
    /// The current time, as Realm Swift's default.
    public static func _rlmDefaultValue() -> Date { Date() }
    public static func _rqlConvert(_ value: Any) -> Date? { value as? Date }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { writer.date(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Date {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Date.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Date? {
        if case .date(let v) = stored { return Date(timeIntervalSince1970: v.timeIntervalSince1970) }
        return nil
    }
}

extension UUID: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, _PrimaryKey {
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.uuid, "UUID") }
    /// A new random UUID.
    public static func _rlmDefaultValue() -> UUID { UUID() }
    public static func _rqlConvert(_ value: Any) -> UUID? { value as? UUID }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .uuid(self) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> UUID {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, UUID.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> UUID? {
        if case .uuid(let v) = stored { return v }
        return nil
    }
}

extension ObjectId: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, _PrimaryKey,
    _HasPersistedType, _QueryValue
{
    public typealias PersistedType = ObjectId
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.objectId, "ObjectId") }
    /// A newly generated id, as Realm Swift's default.
    public static func _rlmDefaultValue() -> ObjectId { .generate() }
    public static func _rqlConvert(_ value: Any) -> ObjectId? { value as? ObjectId }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .objectId(core) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> ObjectId {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, ObjectId.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> ObjectId? {
        if case .objectId(let v) = stored { return ObjectId(v) }
        return nil
    }
    public var _rqlQueryConstant: UnboundExpression { .constant(.objectId(core)) }
}

extension Decimal128: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType,
    SortableType, _HasPersistedType, _QueryNumeric, _QueryValue
{
    public typealias PersistedType = Decimal128
    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.decimal128, "Decimal128") }
    public static func _rlmDefaultValue() -> Decimal128 { Decimal128() }
    public static func _rqlConvert(_ value: Any) -> Decimal128? { Decimal128.converting(value) }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value { .decimal(core) }
    public static func _rqlManagedRead(_ object: ObjectBase, _ ordinal: Int) -> Decimal128 {
        guard let value = _rqlRead(object._rqlStoredValue(ordinal), owner: object) else {
            object._rqlMismatch(ordinal, Decimal128.self)
        }
        return value
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Decimal128? {
        if case .decimal(let v) = stored { return Decimal128(v) }
        return nil
    }
    public var _rqlQueryConstant: UnboundExpression { .constant(.decimal(core)) }
}

extension Optional: _RealmSchemaDiscoverable where Wrapped: _PersistableInsideOptional {
    public static var _rqlSchemaType: _RQLSchemaType {
        var type = Wrapped._rqlSchemaType
        type.isOptional = true
        type.swiftName += "?"
        return type
    }
}

extension Optional: _Persistable where Wrapped: _PersistableInsideOptional {
    public static func _rlmDefaultValue() -> Wrapped? { nil }
    public static func _rqlConvert(_ value: Any) -> Wrapped?? {
        if let optional = value as? any _RQLOptionalBox {
            guard let wrapped = optional._rqlWrapped else { return .some(nil) }
            return Wrapped._rqlConvert(wrapped).map { .some($0) }
        }
        if value is NSNull { return .some(nil) }
        return Wrapped._rqlConvert(value).map { .some($0) }
    }
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped._rqlStore(writer)
        }
    }
    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Wrapped?? {
        if case .null = stored { return .some(nil) }
        return Wrapped._rqlRead(stored, owner: owner).map { .some($0) }
    }
}

extension Optional: RealmCollectionValue where Wrapped: _RealmCollectionValueInsideOptional {}
extension Optional: _Indexable where Wrapped: _Indexable {}
extension Optional: _PrimaryKey where Wrapped: _PrimaryKey {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}
extension Optional: AddableType where Wrapped: AddableType {}
extension Optional: SortableType where Wrapped: SortableType {}

/// `Optional` without its `Wrapped` type, to see through optionals held in `Any`.
protocol _RQLOptionalBox {
    var _rqlWrapped: Any? { get }
}

extension Optional: _RQLOptionalBox {
    var _rqlWrapped: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): wrapped
        }
    }
}
