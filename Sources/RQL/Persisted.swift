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
    /// Declared first, so that its offset is 0 whatever `Value` is: schema discovery and
    /// managed objects read and set it without knowing `Value` (see `PersistedState.at`).
    @usableFromInline var state: PersistedState
    /// An unmanaged object's value (nil: not set yet, the type's default on first read); a
    /// managed object's live collection once made.
    @usableFromInline var value: Value?

    /// A property whose value starts as the type's default (`0`, `""`, `nil`, a new `ObjectId`,
    /// an empty `List`), created when first read.
    ///
    /// ```swift
    /// @Persisted var name: String   // ""
    /// ```
    @inlinable
    public init() {
        state = PersistedState(indexed: false, primary: false)
        value = nil
    }

    /// A property with an initial value.
    ///
    /// ```swift
    /// @Persisted var age = 3
    /// ```
    @inlinable
    public init(wrappedValue value: Value) {
        state = PersistedState(indexed: false, primary: false)
        self.value = value
    }

    @usableFromInline
    init(value: Value?, indexed: Bool, primary: Bool) {
        state = PersistedState(indexed: indexed, primary: primary)
        self.value = value
    }

    /// Not available: property access goes through the enclosing object.
    @available(*, unavailable, message: "@Persisted can only be used as a property on an Object or EmbeddedObject")
    public var wrappedValue: Value {
        get { fatalError("@Persisted is accessed through its enclosing object") }
        // swift-format-ignore
        set { fatalError("@Persisted is accessed through its enclosing object") }
    }

    /// Reads and writes the property of `observed`. Inlined into the model class, so that a
    /// managed read of a plain property is a state check and one call into the realm.
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted>
    ) -> Value {
        get {
            let state = observed[keyPath: storageKeyPath].state
            switch state.kind {
            case PersistedState.managed:
                if Value._rqlIsLiveCollection,
                    let live = Value._rqlLiveCollection(owner: observed, ordinal: state.ordinal)
                {
                    // A frozen object may be read by several threads at once, so it writes nothing.
                    if observed._rqlIsFrozen { return live }
                    // A collection is made once and kept, so that it is the same object each time.
                    observed[keyPath: storageKeyPath].value = live
                    observed[keyPath: storageKeyPath].state = PersistedState(managedCached: state.ordinal)
                    return live
                }
                return Value._rqlManagedRead(observed, state.ordinal)
            case PersistedState.managedCached:
                return observed[keyPath: storageKeyPath].value.unsafelyUnwrapped
            case PersistedState.recording:
                return observed._rqlRecordRead(state.ordinal, as: Value.self)
            default:
                if let value = observed[keyPath: storageKeyPath].value { return value }
                let value = Value._rlmDefaultValue()
                observed[keyPath: storageKeyPath].value = value
                return value
            }
        }
        set {
            let state = observed[keyPath: storageKeyPath].state
            switch state.kind {
            case PersistedState.managed, PersistedState.managedCached:
                observed._rqlSetManagedValue(newValue, state.ordinal)
            case PersistedState.recording:
                break
            default:
                observed[keyPath: storageKeyPath].value = newValue
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
        self.init(value: nil, indexed: indexed, primary: false)
    }

    /// An indexed property with an initial value: `@Persisted(indexed: true) var title = ""`.
    ///
    /// ```swift
    /// @Persisted(indexed: true) var title = ""
    /// ```
    public init(wrappedValue value: Value, indexed: Bool) {
        self.init(value: value, indexed: indexed, primary: false)
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
        self.init(value: nil, indexed: false, primary: primaryKey)
    }

    /// A primary key with an initial value: `@Persisted(primaryKey: true) var id = 0`.
    ///
    /// ```swift
    /// @Persisted(primaryKey: true) var id = 0
    /// ```
    public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(value: value, indexed: false, primary: primaryKey)
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
        self.init(value: Value(propertyName: originProperty), indexed: false, primary: false)
    }
}

extension Persisted: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        self.init(value: try decoder.singleValueContainer().decode(Value.self), indexed: false, primary: false)
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the value of an unmanaged object. A managed object's wrapper holds no value:
    /// encoding it throws, as in Realm Swift; `Results`, `List` and `MutableSet` encode managed
    /// objects property by property instead (see `ObjectBase._rqlEncode(to:)`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch state.kind {
        case PersistedState.managedCached:
            try container.encode(value.unsafelyUnwrapped)
        case PersistedState.managed:
            throw EncodingError.invalidValue(
                Value.self,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "Only unmanaged Realm objects can be encoded using automatic Codable synthesis; "
                        + "encode managed objects through Results, List or MutableSet, or define encode(to:)"
                )
            )
        default:
            try container.encode(value ?? Value._rlmDefaultValue())
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

/// Which state a `@Persisted` field is in, in one word: the kind (unmanaged, managed, managed
/// with its collection made, recording a key path), the property number for the last three,
/// and the declaration's index and primary-key flags while unmanaged.
///
/// ```swift
/// PersistedState(managed: 3).ordinal   // 3
/// ```
@usableFromInline
struct PersistedState {
    @usableFromInline let raw: Int

    @usableFromInline static let unmanaged = 0
    @usableFromInline static let managed = 1
    @usableFromInline static let managedCached = 2
    @usableFromInline static let recording = 3

    @inlinable
    init(indexed: Bool, primary: Bool) {
        raw = (indexed ? 4 : 0) | (primary ? 8 : 0)
    }

    init(managed ordinal: Int) { raw = Self.managed | ordinal << 8 }

    @usableFromInline
    init(managedCached ordinal: Int) { raw = Self.managedCached | ordinal << 8 }

    init(recording ordinal: Int) { raw = Self.recording | ordinal << 8 }

    @inlinable var kind: Int { raw & 3 }
    @inlinable var ordinal: Int { raw >> 8 }
    var indexed: Bool { raw & 4 != 0 }
    var primary: Bool { raw & 8 != 0 }

    /// The state of the `Persisted` field at `field`, whatever its value type.
    static func at(_ field: UnsafeRawPointer) -> PersistedState {
        field.load(as: PersistedState.self)
    }

    /// Sets the state of the `Persisted` field at `field`, whatever its value type.
    static func set(_ state: PersistedState, at field: UnsafeMutableRawPointer) {
        field.storeBytes(of: state, as: PersistedState.self)
    }
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
    /// The property's value on a managed object (a live collection for collection types).
    static func managedValue(of object: ObjectBase, ordinal: Int) -> Any
    /// The unmanaged value as `writer` stores it (the type's default when none was set).
    static func storedValue(at field: UnsafeMutableRawPointer, owner: ObjectBase, writer: _RQLWriter) -> RQLCore.Value
    /// The unmanaged value if one was set (collections copied, so that promoting the original
    /// leaves the copy's elements as they were); nil otherwise.
    static func unmanagedValue(at field: UnsafeMutableRawPointer) -> (any _Persistable)?
    /// The value of a property never set: what `add(_:update:)` writes over an existing
    /// object's value for it (an empty list, a nil link).
    static func defaultValue() -> any _Persistable
    /// Sets a managed object's property from the conversions of `Object(value:)`; false when
    /// `value` does not convert.
    static func setManagedValue(_ value: Any, of owner: ObjectBase, ordinal: Int) -> Bool
    /// `value` converted as `Object(value:)` converts it and stored by `writer`; nil when it
    /// does not convert (the dynamic API writes through it).
    static func storedValue(converting value: Any, writer: _RQLWriter) -> RQLCore.Value?
    /// Puts the field of an object that just became managed into the managed state: a
    /// collection it held becomes the live view of the stored one.
    static func promote(at field: UnsafeMutableRawPointer, ordinal: Int, owner: ObjectBase)
}

extension Persisted: PersistedField {
    static var schemaType: _RQLSchemaType { Value._rqlSchemaType }

    static func declaration(at field: UnsafeRawPointer) -> (indexed: Bool, primary: Bool, origin: String?) {
        let persisted = field.assumingMemoryBound(to: Persisted.self).pointee
        guard persisted.state.kind == PersistedState.unmanaged else { return (false, false, nil) }
        let origin = persisted.value.flatMap { ($0 as? any LinkingObjectsProtocol)?.propertyName }
        return (persisted.state.indexed, persisted.state.primary, origin)
    }

    static func value(at field: UnsafeMutableRawPointer) -> Any {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch pointer.pointee.state.kind {
        case PersistedState.unmanaged, PersistedState.managedCached:
            if let value = pointer.pointee.value { return value }
            let value = Value._rlmDefaultValue()
            pointer.pointee.value = value
            return value
        default:
            return Value._rlmDefaultValue()
        }
    }

    static func setValue(_ value: Any, at field: UnsafeMutableRawPointer) -> Bool {
        guard let converted = Value._rqlConvert(value) else { return false }
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        if pointer.pointee.state.kind != PersistedState.unmanaged {
            pointer.pointee.state = PersistedState(indexed: false, primary: false)
        }
        pointer.pointee.value = converted
        return true
    }

    static func managedValue(of object: ObjectBase, ordinal: Int) -> Any {
        Value._rqlLiveCollection(owner: object, ordinal: ordinal) ?? object._rqlManagedValue(ordinal, as: Value.self)
    }

    static func storedValue(at field: UnsafeMutableRawPointer, owner: ObjectBase, writer: _RQLWriter) -> RQLCore.Value {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        switch pointer.pointee.state.kind {
        case PersistedState.unmanaged, PersistedState.managedCached:
            if let value = pointer.pointee.value { return value._rqlStore(writer) }
            // Materialized now so that the object keeps the value it was stored with (a new
            // ObjectId, say) should it stay unmanaged after a failed write.
            let value = Value._rlmDefaultValue()
            pointer.pointee.value = value
            return value._rqlStore(writer)
        case PersistedState.managed:
            return owner._rqlManagedValue(pointer.pointee.state.ordinal, as: Value.self)._rqlStore(writer)
        default:
            return .null
        }
    }

    static func unmanagedValue(at field: UnsafeMutableRawPointer) -> (any _Persistable)? {
        let persisted = field.assumingMemoryBound(to: Persisted.self).pointee
        guard persisted.state.kind == PersistedState.unmanaged else { return nil }
        return persisted.value?._rqlUnmanagedCopy()
    }

    static func defaultValue() -> any _Persistable { Value._rlmDefaultValue() }

    static func setManagedValue(_ value: Any, of owner: ObjectBase, ordinal: Int) -> Bool {
        guard let converted = Value._rqlConvert(value) else { return false }
        owner._rqlSetManagedValue(converted, ordinal)
        return true
    }

    static func storedValue(converting value: Any, writer: _RQLWriter) -> RQLCore.Value? {
        Value._rqlConvert(value).map { $0._rqlStore(writer) }
    }

    static func promote(at field: UnsafeMutableRawPointer, ordinal: Int, owner: ObjectBase) {
        let pointer = field.assumingMemoryBound(to: Persisted.self)
        if pointer.pointee.state.kind == PersistedState.unmanaged, let value = pointer.pointee.value,
            value._rqlPromote(owner: owner, ordinal: ordinal)
        {
            pointer.pointee.state = PersistedState(managedCached: ordinal)
        } else {
            pointer.pointee.state = PersistedState(managed: ordinal)
            pointer.pointee.value = nil
        }
    }
}
