import Foundation
import RQLCore

/// Declares a property of an `Object` or `EmbeddedObject` that Realm stores. Properties without
/// it are ignored.
///
/// ```swift
/// class Dog: Object {
///     @Persisted(primaryKey: true) var _id: ObjectId
///     @Persisted(indexed: true) var name = ""
///     @Persisted var age = 0
///     @Persisted var favoriteToy: DogToy?                 // to-one links are optional
///     @Persisted var toys: List<DogToy>
///     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
///     var ignored = 0
/// }
/// ```
///
/// An unmanaged object keeps the value in the wrapper; a managed one reads and writes its realm
/// (the wrapper then only records which property it is). Access goes through the enclosing
/// object, so `@Persisted` is only usable in `Object` and `EmbeddedObject` subclasses.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    var storage: PersistedStorage<Value>

    /// A property whose value starts as the type's default (`0`, `""`, `nil`, a new `ObjectId`,
    /// an empty `List`), created when first read.
    public init() {
        storage = .unmanagedNoDefault(indexed: false, primary: false)
    }

    /// A property with an initial value.
    public init(wrappedValue value: Value) {
        storage = .unmanaged(value, indexed: false, primary: false)
    }

    /// Not available: property access goes through the enclosing object.
    @available(*, unavailable, message: "@Persisted can only be used as a property on an Object or EmbeddedObject")
    public var wrappedValue: Value {
        get { fatalError("@Persisted is accessed through its enclosing object") }
        // swift-format-ignore
        set { fatalError("@Persisted is accessed through its enclosing object") }
    }

    /// Reads and writes the property of `observed`.
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted>
    ) -> Value {
        get {
            switch observed[keyPath: storageKeyPath].storage {
            case .unmanaged(let value, _, _):
                return value
            case .unmanagedNoDefault(let indexed, let primary):
                let value = Value._rlmDefaultValue()
                observed[keyPath: storageKeyPath].storage = .unmanaged(value, indexed: indexed, primary: primary)
                return value
            case .managed(let ordinal):
                if let live = Value._rqlLiveCollection(owner: observed, ordinal: ordinal) {
                    observed[keyPath: storageKeyPath].storage = .managedCached(live, ordinal: ordinal)
                    return live
                }
                return observed._rqlManagedValue(ordinal, as: Value.self)
            case .managedCached(let value, _):
                return value
            case .recording(let ordinal):
                return observed._rqlRecordRead(ordinal, as: Value.self)
            }
        }
        set {
            switch observed[keyPath: storageKeyPath].storage {
            case .unmanaged(_, let indexed, let primary), .unmanagedNoDefault(let indexed, let primary):
                observed[keyPath: storageKeyPath].storage = .unmanaged(newValue, indexed: indexed, primary: primary)
            case .managed(let ordinal), .managedCached(_, let ordinal):
                observed._rqlSetManagedValue(newValue, ordinal)
            case .recording:
                break
            }
        }
    }
}

extension Persisted where Value.PersistedType: _Indexable {
    /// A property with a search index, which speeds up `==` and `IN` queries on it.
    ///
    /// ```swift
    /// @Persisted(indexed: true) var title = ""
    /// ```
    public init(indexed: Bool) {
        storage = .unmanagedNoDefault(indexed: indexed, primary: false)
    }

    public init(wrappedValue value: Value, indexed: Bool) {
        storage = .unmanaged(value, indexed: indexed, primary: false)
    }
}

extension Persisted where Value.PersistedType: _PrimaryKey {
    /// The class's primary key: unique among its objects, looked up by
    /// `realm.object(ofType:forPrimaryKey:)`; `Int`, `String`, `ObjectId` or `UUID`.
    ///
    /// ```swift
    /// @Persisted(primaryKey: true) var _id: ObjectId
    /// ```
    public init(primaryKey: Bool) {
        storage = .unmanagedNoDefault(indexed: false, primary: primaryKey)
    }

    public init(wrappedValue value: Value, primaryKey: Bool) {
        storage = .unmanaged(value, indexed: false, primary: primaryKey)
    }
}

extension Persisted where Value: LinkingObjectsProtocol {
    /// The objects of another class whose `originProperty` (a link or list of links) points at
    /// this object.
    ///
    /// ```swift
    /// @Persisted(originProperty: "members") var clubs: LinkingObjects<DogClub>
    /// ```
    public init(originProperty: String) {
        storage = .unmanaged(Value(propertyName: originProperty), indexed: false, primary: false)
    }
}

extension Persisted: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        storage = .unmanaged(try decoder.singleValueContainer().decode(Value.self), indexed: false, primary: false)
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the value of an unmanaged object (a managed object's wrapper holds no value).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch storage {
        case .unmanaged(let value, _, _), .managedCached(let value, _):
            try container.encode(value)
        case .unmanagedNoDefault, .managed, .recording:
            try container.encode(Value._rlmDefaultValue())
        }
    }
}

extension KeyedDecodingContainer {
    /// A `@Persisted` property missing from the encoded object takes its default instead of
    /// failing the decode, as in Realm Swift.
    public func decode<Value: _Persistable & Decodable>(
        _ type: Persisted<Value>.Type,
        forKey key: Key
    ) throws -> Persisted<Value> {
        try decodeIfPresent(type, forKey: key) ?? Persisted()
    }
}

/// Where a `@Persisted` property's value is.
enum PersistedStorage<Value> {
    /// An unmanaged object's value, with the declaration's index and primary-key flags.
    case unmanaged(Value, indexed: Bool, primary: Bool)
    /// An unmanaged object's value not read or set yet: the type's default on first read.
    case unmanagedNoDefault(indexed: Bool, primary: Bool)
    /// A managed object's property number `ordinal`: reads and writes go to the realm.
    case managed(ordinal: Int)
    /// A managed object's collection property: the live `List`/`MutableSet`/`Map`, made once.
    case managedCached(Value, ordinal: Int)
    /// A property of the key-path recording prototype: reading it records its name.
    case recording(ordinal: Int)
}

/// What schema discovery and the dynamic accessors need from a `Persisted<Value>` field found in
/// an object's memory, without knowing `Value` statically.
protocol PersistedField {
    /// How the field's value type is stored.
    static var schemaType: _RQLSchemaType { get }
    /// The declaration's flags and, for backlinks, the origin property.
    static func declaration(at field: UnsafeRawPointer) -> (indexed: Bool, primary: Bool, origin: String?)
    /// The unmanaged value (materializing the default).
    static func value(at field: UnsafeMutableRawPointer) -> Any
    /// Sets an unmanaged value from the conversions of `Object(value:)`; false when `value`
    /// does not convert.
    static func setValue(_ value: Any, at field: UnsafeMutableRawPointer) -> Bool
    /// Puts the field into a managed or recording state.
    static func setState(_ state: FieldState, at field: UnsafeMutableRawPointer)
    /// The property's value on a managed object (a live collection for collection types).
    static func managedValue(of object: ObjectBase, ordinal: Int) -> Any
    /// The unmanaged value as `writer` stores it (the type's default when none was set).
    static func storedValue(at field: UnsafeMutableRawPointer, owner: ObjectBase, writer: _RQLWriter) -> RQLCore.Value
    /// The unmanaged value if one was set (collections copied, so that promoting the original
    /// leaves the copy's elements as they were); nil otherwise.
    static func unmanagedValue(at field: UnsafeMutableRawPointer) -> (any _Persistable)?
    /// Sets a managed object's property from the conversions of `Object(value:)`; false when
    /// `value` does not convert.
    static func setManagedValue(_ value: Any, of owner: ObjectBase, ordinal: Int) -> Bool
    /// Puts the field of an object that just became managed into the managed state: a
    /// collection it held becomes the live view of the stored one.
    static func promote(at field: UnsafeMutableRawPointer, ordinal: Int, owner: ObjectBase)
}

/// The states `PersistedField.setState` can put a field in.
enum FieldState {
    case managed(ordinal: Int)
    case recording(ordinal: Int)
}

extension Persisted: PersistedField {
    static var schemaType: _RQLSchemaType { Value._rqlSchemaType }

    static func declaration(at field: UnsafeRawPointer) -> (indexed: Bool, primary: Bool, origin: String?) {
        switch field.assumingMemoryBound(to: Persisted.self).pointee.storage {
        case .unmanaged(let value, let indexed, let primary):
            return (indexed, primary, (value as? any LinkingObjectsProtocol)?.propertyName)
        case .unmanagedNoDefault(let indexed, let primary):
            return (indexed, primary, nil)
        case .managed, .managedCached, .recording:
            return (false, false, nil)
        }
    }

    static func value(at field: UnsafeMutableRawPointer) -> Any {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch pointer.pointee.storage {
        case .unmanaged(let value, _, _), .managedCached(let value, _):
            return value
        case .unmanagedNoDefault(let indexed, let primary):
            let value = Value._rlmDefaultValue()
            pointer.pointee.storage = .unmanaged(value, indexed: indexed, primary: primary)
            return value
        case .managed, .recording:
            return Value._rlmDefaultValue()
        }
    }

    static func setValue(_ value: Any, at field: UnsafeMutableRawPointer) -> Bool {
        guard let converted = Value._rqlConvert(value) else { return false }
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch pointer.pointee.storage {
        case .unmanaged(_, let indexed, let primary), .unmanagedNoDefault(let indexed, let primary):
            pointer.pointee.storage = .unmanaged(converted, indexed: indexed, primary: primary)
        case .managed, .managedCached, .recording:
            pointer.pointee.storage = .unmanaged(converted, indexed: false, primary: false)
        }
        return true
    }

    static func managedValue(of object: ObjectBase, ordinal: Int) -> Any {
        Value._rqlLiveCollection(owner: object, ordinal: ordinal) ?? object._rqlManagedValue(ordinal, as: Value.self)
    }

    static func storedValue(at field: UnsafeMutableRawPointer, owner: ObjectBase, writer: _RQLWriter) -> RQLCore.Value {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch pointer.pointee.storage {
        case .unmanaged(let value, _, _), .managedCached(let value, _):
            return value._rqlStore(writer)
        case .unmanagedNoDefault(let indexed, let primary):
            // Materialized now so that the object keeps the value it was stored with (a new
            // ObjectId, say) should it stay unmanaged after a failed write.
            let value = Value._rlmDefaultValue()
            pointer.pointee.storage = .unmanaged(value, indexed: indexed, primary: primary)
            return value._rqlStore(writer)
        case .managed(let ordinal):
            return owner._rqlManagedValue(ordinal, as: Value.self)._rqlStore(writer)
        case .recording:
            return .null
        }
    }

    static func unmanagedValue(at field: UnsafeMutableRawPointer) -> (any _Persistable)? {
        if case .unmanaged(let value, _, _) = field.assumingMemoryBound(to: Persisted.self).pointee.storage {
            return value._rqlUnmanagedCopy()
        }
        return nil
    }

    static func setManagedValue(_ value: Any, of owner: ObjectBase, ordinal: Int) -> Bool {
        guard let converted = Value._rqlConvert(value) else { return false }
        owner._rqlSetManagedValue(converted, ordinal)
        return true
    }

    static func promote(at field: UnsafeMutableRawPointer, ordinal: Int, owner: ObjectBase) {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        if case .unmanaged(let value, _, _) = pointer.pointee.storage, value._rqlPromote(owner: owner, ordinal: ordinal)
        {
            pointer.pointee.storage = .managedCached(value, ordinal: ordinal)
        } else {
            pointer.pointee.storage = .managed(ordinal: ordinal)
        }
    }

    static func setState(_ state: FieldState, at field: UnsafeMutableRawPointer) {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch state {
        case .managed(let ordinal): pointer.pointee.storage = .managed(ordinal: ordinal)
        case .recording(let ordinal): pointer.pointee.storage = .recording(ordinal: ordinal)
        }
    }
}
