import Foundation
import RQLCore
import RQLDSL
import RQLEngine
import RQLStorage

/// The common base of `Object` and `EmbeddedObject`: what every model object has, managed or
/// not. Subclass `Object` or `EmbeddedObject`, never this class directly.
///
/// ```swift
/// func describe(_ object: ObjectBase) -> String {
///     "\(type(of: object).className()): \(object.objectSchema.properties.map(\.name))"
/// }
/// ```
open class ObjectBase: CustomStringConvertible, Hashable {
    // A managed object's place in its realm, inline so that making a managed object (one per
    // result when iterating) is one allocation and reading a property follows no other object:
    // the context (nil while unmanaged), the class, the row key, the class's index in the
    // store's schema, and the row as found in one version.
    final var _rqlContext: RealmContext?
    /// Not retained: a class's info lives as long as the process (`ClassInfo.info(for:)` caches it).
    final unowned(unsafe) var _rqlInfo: ClassInfo?
    final var _rqlKey = RowKey(-1)
    final var _rqlClassIndex = 0
    /// The version `_rqlRow` was found in (held: the row does not retain its block), and its serial.
    final var _rqlVersion: StoreVersion?
    final var _rqlSerial: UInt64 = 0
    final var _rqlRow: BlockRow?
    /// The context's epoch when the object was bound (see `RealmContext.invalidate()`).
    final var _rqlEpoch: UInt32 = 0
    /// The accessor, made on first request (collections and writes keep it).
    private final var _rqlAccessorCache: ObjectAccessor?
    /// Set on the key-path recording prototype while a key path is being recorded.
    var _rqlRecording: KeyPathRecording?

    /// An unmanaged object with every property at its declared initial value.
    ///
    /// ```swift
    /// let dog = Dog()  // unmanaged, every property at its default
    /// ```
    public required init() {}

    /// The persisted properties, one per line (`Dog {\n\tname = Rex;\n\tage = 10;\n}`).
    open var description: String { ObjectDescription.describe(object: self, depth: ObjectDescription.maximumDepth) }

    // MARK: Class-level declarations

    /// The name of the class in the schema: the Swift class name without its module.
    ///
    /// ```swift
    /// override class func className() -> String { "Animal" }  // a stored name of its own
    /// ```
    open class func className() -> String {
        _realmObjectName() ?? String(describing: self)
    }

    /// The name the class is stored under, as realm-swift's hook spells it; nil for the class
    /// name. `className()` reads it.
    ///
    /// ```swift
    /// override class func _realmObjectName() -> String? { "Animal" }
    /// ```
    open class func _realmObjectName() -> String? { nil }

    /// The primary key property's name, as an alternative to `@Persisted(primaryKey: true)`.
    ///
    /// ```swift
    /// override class func primaryKey() -> String? { "id" }
    /// ```
    open class func primaryKey() -> String? { nil }

    /// Properties to give a search index, as an alternative to `@Persisted(indexed: true)`.
    ///
    /// ```swift
    /// override class func indexedProperties() -> [String] { ["title"] }
    /// ```
    open class func indexedProperties() -> [String] { [] }

    /// `@Persisted` properties to leave out of the schema after all.
    ///
    /// ```swift
    /// override class func ignoredProperties() -> [String] { ["cache"] }  // without @Persisted it is ignored anyway
    /// ```
    open class func ignoredProperties() -> [String] { [] }

    /// Public property name → name of the stored column, for properties stored under another name.
    ///
    /// ```swift
    /// override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    /// ```
    open class func propertiesMapping() -> [String: String] { [:] }

    /// Whether objects of the class live only inside a parent object.
    class var _rqlIsEmbedded: Bool { false }

    // MARK: Identity

    /// Unmanaged objects are equal only to themselves; managed ones to any accessor of the same
    /// object in the same realm.
    public static func == (lhs: ObjectBase, rhs: ObjectBase) -> Bool {
        if lhs === rhs { return true }
        guard let left = lhs._rqlAccessor, let right = rhs._rqlAccessor else { return false }
        return left.isSameObject(as: right)
    }

    public func hash(into hasher: inout Hasher) {
        if let accessor = _rqlAccessor {
            accessor.hash(into: &hasher)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    /// Whether `object` is this object: the same instance, or the same stored object.
    ///
    /// ```swift
    /// rex.isSameObject(as: realm.objects(Dog.self).first)  // true when both are the same row
    /// ```
    public func isSameObject(as object: ObjectBase?) -> Bool {
        guard let object else { return false }
        return self == object
    }

    /// Whether the object has been deleted from its realm (always false while unmanaged).
    public var isInvalidated: Bool { _rqlContext != nil && _rqlCurrentRow() == nil }

    /// Frozen objects are a snapshot that never changes; unmanaged objects are never frozen.
    public var isFrozen: Bool { _rqlAccessor?.isFrozen ?? false }

    /// The realm the object belongs to; nil while it is unmanaged.
    public var realm: Realm? { _rqlAccessor.map { Realm(context: $0.context) } }

    /// A frozen copy of a managed object: it reads the realm's current version forever and can
    /// be shared across threads. Freezing an unmanaged object stops the program, as in Realm Swift.
    ///
    /// ```swift
    /// let snapshot = dog.freeze()
    /// try realm.write { dog.age = 11 }
    /// snapshot.age   // still 10
    /// ```
    public func freeze() -> Self {
        guard let accessor = _rqlAccessor else { realmStop("Unmanaged objects cannot be frozen.") }
        if accessor.isFrozen { return self }
        let frozen = accessor.context.frozen()
        return accessor.classInfo.makeManaged(context: frozen, key: accessor.key, classIndex: accessor.classIndex)
            as! Self
    }

    /// The live object of a frozen one (in this thread's realm), or nil if it was deleted since.
    ///
    /// ```swift
    /// let live = rex.freeze().thaw()
    /// ```
    public func thaw() -> Self? {
        guard let accessor = _rqlAccessor else { realmStop("Unmanaged objects cannot be thawed.") }
        guard accessor.isFrozen else { return self }
        guard let live = try? RealmContext.thawTarget(accessor.context.configuration) else { return nil }
        let object = accessor.classInfo.makeManaged(context: live, key: accessor.key, classIndex: accessor.classIndex)
        return object.isInvalidated ? nil : object as? Self
    }

    // MARK: Managed and recording access (called by `Persisted`)

    /// A managed object's place in its realm as an object of its own; nil while unmanaged.
    /// Setting it makes the object managed (or unmanaged again, for nil).
    var _rqlAccessor: ObjectAccessor? {
        get {
            if let cached = _rqlAccessorCache { return cached }
            guard let context = _rqlContext, let info = _rqlInfo else { return nil }
            let accessor = ObjectAccessor(
                context: context,
                classInfo: info,
                key: _rqlKey,
                classIndex: _rqlClassIndex,
                epoch: _rqlEpoch
            )
            _rqlAccessorCache = accessor
            return accessor
        }
        set {
            _rqlAccessorCache = newValue
            _rqlContext = newValue?.context
            _rqlInfo = newValue?.classInfo
            _rqlKey = newValue?.key ?? RowKey(-1)
            _rqlClassIndex = newValue?.classIndex ?? 0
            _rqlEpoch = newValue?.epoch ?? 0
            _rqlVersion = nil
            _rqlSerial = 0
            _rqlRow = nil
        }
    }

    /// Makes the object managed: the row `key` of `info`'s class, found in `version` at `row`.
    final func _rqlBind(
        context: RealmContext,
        info: ClassInfo,
        key: RowKey,
        classIndex: Int,
        version: StoreVersion?,
        row: BlockRow?
    ) {
        _rqlContext = context
        _rqlInfo = info
        _rqlKey = key
        _rqlClassIndex = classIndex
        _rqlEpoch = context.epoch
        _rqlVersion = version
        _rqlSerial = version?.serial ?? 0
        _rqlRow = row
    }

    /// Whether the object is managed by a frozen realm (read by the inlined property accessors).
    @usableFromInline
    final var _rqlIsFrozen: Bool { _rqlContext?.isFrozen ?? false }

    /// Fills a frozen object's caches (its accessor, its row) before it is handed out: its
    /// version never moves, so reads never write them again, and threads may share it.
    final func _rqlPrimeFrozen() {
        _ = _rqlCurrentRow()
        _ = _rqlAccessor?.isInvalidated
    }

    /// The object's row in its context's current version; nil when it no longer exists there.
    @inline(__always)
    final func _rqlCurrentRow() -> BlockRow? {
        if _rqlContext.unsafelyUnwrapped.currentSerial == _rqlSerial { return _rqlRow }
        return _rqlRelocate(in: _rqlContext.unsafelyUnwrapped.current)
    }

    private final func _rqlRelocate(in version: StoreVersion) -> BlockRow? {
        _rqlVersion = version
        _rqlSerial = version.serial
        let detached = _rqlAccessorCache?.isDetached ?? false
        let invalidated = _rqlEpoch != _rqlContext.unsafelyUnwrapped.epoch
        _rqlRow = detached || invalidated ? nil : version.row(of: _rqlKey, classIndex: _rqlClassIndex)
        return _rqlRow
    }

    /// Stops the program: a deleted object was read, as in Realm Swift.
    final func _rqlInvalidated() -> Never {
        realmStop(
            "Object has been deleted or invalidated: \(_rqlInfo?.className ?? "?") \(_rqlKey) no longer exists in its realm"
        )
    }

    /// Stored `int` property `ordinal` of this managed object, straight from its column.
    @inline(__always)
    final func _rqlStoredInt(_ ordinal: Int) -> Int64? {
        guard let row = _rqlCurrentRow() else { _rqlInvalidated() }
        return row.int(ordinal)
    }

    /// The value of property `ordinal` of this managed object.
    func _rqlManagedValue<Value: _Persistable>(_ ordinal: Int, as type: Value.Type) -> Value {
        let stored = _rqlStoredValue(ordinal)
        guard let value = Value._rqlRead(stored, owner: self) else { _rqlMismatch(ordinal, Value.self) }
        return value
    }

    /// The stored value of property `ordinal` of this managed object (the program stops when it
    /// was deleted).
    final func _rqlStoredValue(_ ordinal: Int) -> RQLCore.Value {
        guard let info = _rqlInfo else {
            realmStop("a managed property was read on an object that is not managed")
        }
        guard let row = _rqlCurrentRow() else { _rqlInvalidated() }
        if info.isBacklink[ordinal] {
            // Linking objects are computed by the table from its backlink index.
            let link = ObjectLink(className: info.className, key: _rqlKey)
            return _rqlContext.unsafelyUnwrapped.current.value(of: link, property: ordinal) ?? .list([])
        }
        return row.value(ordinal)
    }

    /// Stops the program: a stored value that does not fit the property's Swift type.
    func _rqlMismatch(_ ordinal: Int, _ type: Any.Type) -> Never {
        let info = _rqlClassInfo
        realmStop(
            "\(info.className).\(info.properties[ordinal].name) holds \(_rqlStoredValue(ordinal).kind), not \(type)"
        )
    }

    @usableFromInline
    func _rqlSetManagedValue<Value: _Persistable>(_ value: Value, _ ordinal: Int) {
        guard let accessor = _rqlAccessor else {
            realmStop("a managed property was written on an object that is not managed")
        }
        accessor.setValue(value, ordinal, of: self)
    }

    @usableFromInline
    func _rqlRecordRead<Value: _Persistable>(_ ordinal: Int, as type: Value.Type) -> Value {
        guard let recording = _rqlRecording else { return Value._rlmDefaultValue() }
        return recording.record(ordinal, as: type)
    }
}

/// A class of objects Realm stores, queries and links to.
///
/// ```swift
/// class Dog: Object {
///     @Persisted var name = ""
///     @Persisted var age = 0
///     @Persisted var favoriteToy: DogToy?
/// }
/// let rex = Dog(value: ["name": "Rex", "age": 10])
/// rex.age += 1
/// ```
///
/// On Linux, properties must use `@Persisted`: there is no Objective-C runtime for
/// `@objc dynamic` declarations.
open class Object: ObjectBase {
    public required init() {
        super.init()
    }
}

/// A class of objects that live only inside one parent object: set as a to-one link or held in
/// a list of the parent, deleted with it, never queried on their own, and without a primary key.
///
/// ```swift
/// class Address: EmbeddedObject {
///     @Persisted var street: String?
///     @Persisted var city: String?
/// }
/// ```
open class EmbeddedObject: ObjectBase {
    public required init() {
        super.init()
    }

    override class var _rqlIsEmbedded: Bool { true }
}

// MARK: Queries

extension ObjectBase: _QueryObjectBase {
    /// The persisted property a one-step key path reads, by evaluating it on the class's
    /// recording prototype.
    public static func _rqlQueryPropertyName(for keyPath: AnyKeyPath) -> String? {
        guard let names = KeyPathRecording.names(of: keyPath, on: self), names.count == 1 else { return nil }
        return names[0]
    }
}

extension EmbeddedObject: _QueryEmbeddedObjectBase {}

extension ObjectBase: _QueryValue {
    /// A managed object is a link constant. An unmanaged one is no object of the realm, so, as
    /// in Realm Swift, `==` matches nothing and `!=` everything: it is a link to a key no
    /// object has (keys are never negative).
    public var _rqlQueryConstant: UnboundExpression {
        guard let accessor = _rqlAccessor else {
            return .constant(.link(ObjectLink(className: type(of: self).className(), key: RowKey(-1))))
        }
        return .constant(.link(accessor.link))
    }
}
