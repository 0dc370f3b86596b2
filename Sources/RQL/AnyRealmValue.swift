import Foundation
import RQLCore
import RQLDSL
import RQLEngine

/// A value of any type Realm stores, including nested lists and dictionaries of such values:
/// the type of a mixed (`AnyRealmValue`) property. `.none` is its null; it is never optional.
///
/// ```swift
/// class Dog: Object { @Persisted var companion: AnyRealmValue }
/// dog.companion = .string("Fluffy the Cat")
/// if case let .string(name) = dog.companion { print(name) }
/// dog.companion = AnyRealmValue.fromArray([.int(1), .string("two")])
/// ```
///
/// In queries, numbers compare by value across int, float, double and decimal (and bool),
/// strings never equal numbers, and `==` matches value and type family (rql-semantics.md).
public enum AnyRealmValue {
    /// Null.
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    /// A link to an object (not an embedded one).
    case object(Object)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    /// A nested dictionary of mixed values.
    case dictionary(Map<String, AnyRealmValue>)
    /// A nested list of mixed values.
    case list(List<AnyRealmValue>)

    /// `.none`.
    ///
    /// ```swift
    /// AnyRealmValue() == .none  // true
    /// ```
    public init() {
        self = .none
    }

    /// The `Int`, if the value is `.int` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.int(3).intValue  // 3
    /// ```
    public var intValue: Int? {
        if case .int(let v) = self { return v }
        return nil
    }
    /// The `Bool`, if the value is `.bool` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.bool(true).boolValue  // true
    /// ```
    public var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }
    /// The `Float`, if the value is `.float` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.float(1.5).floatValue  // 1.5
    /// ```
    public var floatValue: Float? {
        if case .float(let v) = self { return v }
        return nil
    }
    /// The `Double`, if the value is `.double` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.double(2.5).doubleValue  // 2.5; .int(2).doubleValue is nil
    /// ```
    public var doubleValue: Double? {
        if case .double(let v) = self { return v }
        return nil
    }
    /// The `String`, if the value is `.string` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.string("Rex").stringValue  // "Rex"
    /// ```
    public var stringValue: String? {
        if case .string(let v) = self { return v }
        return nil
    }
    /// The `Data`, if the value is `.data` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.data(Data([1, 2])).dataValue?.count  // 2
    /// ```
    public var dataValue: Data? {
        if case .data(let v) = self { return v }
        return nil
    }
    /// The `Date`, if the value is `.date` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.date(Date(timeIntervalSince1970: 0)).dateValue
    /// ```
    public var dateValue: Date? {
        if case .date(let v) = self { return v }
        return nil
    }
    /// The `ObjectId`, if the value is `.objectId` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.objectId(id).objectIdValue == id  // true
    /// ```
    public var objectIdValue: ObjectId? {
        if case .objectId(let v) = self { return v }
        return nil
    }
    /// The `Decimal128`, if the value is `.decimal128` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.decimal128(1.5).decimal128Value  // 1.5
    /// ```
    public var decimal128Value: Decimal128? {
        if case .decimal128(let v) = self { return v }
        return nil
    }
    /// The `UUID`, if the value is `.uuid` (no conversion between cases).
    ///
    /// ```swift
    /// AnyRealmValue.uuid(uuid).uuidValue == uuid  // true
    /// ```
    public var uuidValue: UUID? {
        if case .uuid(let v) = self { return v }
        return nil
    }
    /// The nested dictionary, if the value is one.
    ///
    /// ```swift
    /// dog.companion.dictionaryValue?["name"]?.stringValue
    /// ```
    public var dictionaryValue: Map<String, AnyRealmValue>? {
        if case .dictionary(let v) = self { return v }
        return nil
    }
    /// The nested list, if the value is one.
    ///
    /// ```swift
    /// dog.companion.listValue?.count
    /// ```
    public var listValue: List<AnyRealmValue>? {
        if case .list(let v) = self { return v }
        return nil
    }

    /// The linked object as `objectType`, if the value is a link to one.
    ///
    /// ```swift
    /// let toy = dog.companion.object(DogToy.self)
    /// ```
    public func object<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let v) = self { return v as? T }
        return nil
    }

    /// A nested dictionary holding `dictionary`'s entries.
    ///
    /// ```swift
    /// dog.companion = .fromDictionary(["name": .string("Rex"), "age": .int(3)])
    /// ```
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        // In key order, each insert lands at the end of the map's sorted entries.
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) { map[key] = value }
        return .dictionary(map)
    }

    /// A nested list holding `array`'s elements.
    ///
    /// ```swift
    /// dog.companion = .fromArray([.int(1), .string("two")])
    /// ```
    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(objectsIn: array)
        return .list(list)
    }
}

extension AnyRealmValue: Hashable {
    /// Same case and equal payload; nested collections compare by identity, objects as objects.
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.float(let a), .float(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.objectId(let a), .objectId(let b)): a == b
        case (.decimal128(let a), .decimal128(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a === b
        case (.list(let a), .list(let b)): a === b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(0)
        case .int(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .float(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .data(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v)
        case .object(let v): hasher.combine(v)
        case .objectId(let v): hasher.combine(v)
        case .decimal128(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .dictionary(let v): hasher.combine(ObjectIdentifier(v))
        case .list(let v): hasher.combine(ObjectIdentifier(v))
        }
    }
}

extension AnyRealmValue: RealmCollectionValue, _HasPersistedType, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = AnyRealmValue

    public static var _rqlSchemaType: _RQLSchemaType { .scalar(.mixed, "AnyRealmValue") }

    public static func _rlmDefaultValue() -> AnyRealmValue { .none }

    /// A mixed value from any storable Swift value (`3` is `.int(3)`, an array a nested list).
    public static func _rqlConvert(_ value: Any) -> AnyRealmValue? {
        switch value {
        case let v as AnyRealmValue: return v
        case is NSNull: return AnyRealmValue.none
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(v)
        case let v as Float: return .float(v)
        case let v as Double: return .double(v)
        case let v as String: return .string(v)
        case let v as Data: return .data(v)
        case let v as Date: return .date(v)
        case let v as Object: return .object(v)
        case let v as ObjectId: return .objectId(v)
        case let v as Decimal128: return .decimal128(v)
        case let v as UUID: return .uuid(v)
        case let v as [String: Any]:
            return Map<String, AnyRealmValue>._rqlConvert(v).map { .dictionary($0) }
        case let v as [Any]:
            return List<AnyRealmValue>._rqlConvert(v).map { .list($0) }
        default:
            return NumberConversion.integer(value).map { .int(Int($0)) }
        }
    }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> AnyRealmValue? {
        switch stored {
        case .null: AnyRealmValue.none
        case .bool(let v): .bool(v)
        case .int(let v): .int(Int(truncatingIfNeeded: v))
        case .float(let v): .float(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .data(let v): .data(Data(v))
        case .date(let v): .date(Date(timeIntervalSince1970: v.timeIntervalSince1970))
        case .decimal(let v): .decimal128(Decimal128(v))
        case .objectId(let v): .objectId(ObjectId(v))
        case .uuid(let v): .uuid(v)
        case .link(let link): (owner._rqlAccessor?.object(for: link) as? Object).map { .object($0) }
        case .list: List<AnyRealmValue>._rqlRead(stored, owner: owner).map { .list($0) }
        case .map: Map<String, AnyRealmValue>._rqlRead(stored, owner: owner).map { .dictionary($0) }
        }
    }
}

extension AnyRealmValue {
    /// The stored mixed value: nested collections as `.list` / `.map`, objects as links.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value {
        switch self {
        case .none: .null
        case .int(let v): .int(Int64(v))
        case .bool(let v): .bool(v)
        case .float(let v): .float(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .data(let v): .data([UInt8](v))
        case .date(let v): writer.date(v)
        case .object(let v): writer.store(v)
        case .objectId(let v): .objectId(v.core)
        case .decimal128(let v): .decimal(v.core)
        case .uuid(let v): .uuid(v)
        case .list(let list): .list(list.map { $0._rqlStore(writer) })
        case .dictionary(let map): .map(MixedMap(map.asKeyValueSequence().map { ($0.key, $0.value._rqlStore(writer)) }))
        }
    }
}

extension AnyRealmValue: _QueryValue, _QueryNumeric, _QueryMixedValue {
    public var _rqlQueryConstant: UnboundExpression {
        do {
            return .constant(try queryValue())
        } catch {
            return .invalid(error.message)
        }
    }

    private func queryValue() throws(QueryConstantError) -> RQLCore.Value {
        func constant(_ expression: UnboundExpression) throws(QueryConstantError) -> RQLCore.Value {
            switch expression {
            case .constant(let value): return value
            case .invalid(let message): throw QueryConstantError(message: message)
            default: throw QueryConstantError(message: "not a constant")
            }
        }
        switch self {
        case .none: return .null
        case .int(let v): return .int(Int64(v))
        case .bool(let v): return .bool(v)
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .data(let v): return .data([UInt8](v))
        case .date(let v): return try constant(v._rqlQueryConstant)
        case .object(let v): return try constant(v._rqlQueryConstant)
        case .objectId(let v): return .objectId(v.core)
        case .decimal128(let v): return .decimal(v.core)
        case .uuid(let v): return .uuid(v)
        case .list(let list):
            var values: [RQLCore.Value] = []
            for element in list { values.append(try element.queryValue()) }
            return .list(values)
        case .dictionary(let map):
            var pairs: [(String, RQLCore.Value)] = []
            for entry in map { pairs.append((entry.key, try entry.value.queryValue())) }
            return .map(MixedMap(pairs))
        }
    }
}

/// A mixed value that cannot be a query constant (an unmanaged object inside it).
struct QueryConstantError: Error {
    var message: String
}
