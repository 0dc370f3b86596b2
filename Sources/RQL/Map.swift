import Foundation
import RQLCore
import RQLDSL
import RQLStorage

/// A string-keyed dictionary property of values or (optional) objects, kept in key order.
///
/// ```swift
/// class Dog: Object { @Persisted var favoriteParksByCity: Map<String, String> }
/// let dog = Dog()
/// dog.favoriteParksByCity["Chicago"] = "Millennium Park"
/// dog.favoriteParksByCity["Chicago"]            // "Millennium Park"
/// for entry in dog.favoriteParksByCity { print(entry.key, entry.value) }
/// dog.favoriteParksByCity["Chicago"] = nil      // removes the key
/// ```
public final class Map<Key: _MapKey, Value: RealmCollectionValue> {
    /// An unmanaged map's entries; a managed map reads its realm instead.
    private var entries = UnmanagedMapEntries<Key, Value>()
    private var managed: ManagedCollectionStorage<Value>?

    /// An empty, unmanaged map.
    ///
    /// ```swift
    /// let parks = Map<String, String>()
    /// ```
    public init() {}

    init(managed: ManagedCollectionStorage<Value>) {
        self.managed = managed
    }

    /// The managed object and property the map belongs to; nil while unmanaged.
    var managedOwner: (accessor: ObjectAccessor, ordinal: Int)? { managed.map { ($0.accessor, $0.ordinal) } }

    /// Whether the map belongs to an object that was deleted.
    ///
    /// ```swift
    /// try realm.write { realm.delete(rex) }
    /// rex.nicknames.isInvalidated  // true
    /// ```
    public var isInvalidated: Bool { managed?.accessor.isInvalidated ?? false }

    private var current: [(key: Key, value: Value)] {
        guard let managed else { return entries.sorted() }
        let keys = managed.storedKeys
        return zip(keys, managed.stored).compactMap { key, value in
            (key as? Key).map { ($0, managed.bridge(value)) }
        }
    }

    /// The number of entries.
    ///
    /// ```swift
    /// rex.nicknames.count  // 2
    /// ```
    public var count: Int { managed?.count ?? entries.count }

    /// The keys, in order.
    ///
    /// ```swift
    /// rex.nicknames.keys  // ["home", "vet"]
    /// ```
    public var keys: [Key] { current.map(\.key) }

    /// The values, in key order.
    ///
    /// ```swift
    /// rex.nicknames.values  // ["Rexy", "R."]
    /// ```
    public var values: [Value] { current.map(\.value) }

    /// The value for `key`; setting `nil` removes the key.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames["park"] = "Big one" }
    /// rex.nicknames["park"]  // "Big one"
    /// ```
    public subscript(key: Key) -> Value? {
        get {
            if let managed { return managed.storedValue(forKey: "\(key)").map(managed.bridge) }
            return entries[key]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeObject(for: key)
            }
        }
    }

    /// Sets the value for `key`, adding the key if it is new.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.updateValue("Rexy", forKey: "home") }
    /// ```
    public func updateValue(_ value: Value, forKey key: Key) {
        if let managed {
            let mapKey = "\(key)"
            managed.write(value, at: .mapKey(mapKey)) { (t, stored, name, link) throws(WriteError) in
                try t.setValue(stored, forKey: mapKey, inMap: name, of: link)
            }
            return
        }
        entries.updateValue(value, forKey: key)
    }

    /// Removes `key` and its value, if present.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.removeObject(for: "vet") }
    /// ```
    public func removeObject(for key: Key) {
        if let managed {
            managed.write(nil) { (t, _, name, link) throws(WriteError) in
                try t.removeValue(forKey: "\(key)", fromMap: name, of: link)
            }
            return
        }
        entries.removeValue(forKey: key)
    }

    /// Removes every entry.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.removeAll() }
    /// ```
    public func removeAll() {
        if let managed {
            managed.write(nil) { (t, _, name, link) throws(WriteError) in try t.removeAll(from: name, of: link) }
            return
        }
        entries.removeAll()
    }

    /// Adds the pairs of `sequence`; for a key already present, `combine` decides the value.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.merge([("home", "Rexy")]) { _, new in new } }
    /// ```
    public func merge<S: Sequence>(
        _ sequence: S,
        uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows where S.Element == (key: Key, value: Value) {
        for (key, value) in sequence {
            if let existing = self[key] {
                updateValue(try combine(existing, value), forKey: key)
            } else {
                updateValue(value, forKey: key)
            }
        }
    }

    /// Adds the entries of `other`; for a key already present, `combine` decides the value.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.merge(fido.nicknames) { old, _ in old } }
    /// ```
    public func merge(_ other: Map<Key, Value>, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.asKeyValueSequence(), uniquingKeysWith: combine)
    }

    /// Whether some entry satisfies `predicate`.
    ///
    /// ```swift
    /// rex.nicknames.contains { key, value in key == "vet" && value.hasPrefix("R") }
    /// ```
    public func contains(where predicate: (_ key: Key, _ value: Value) throws -> Bool) rethrows -> Bool {
        try current.contains { try predicate($0.key, $0.value) }
    }

    /// The entries as `(key:, value:)` tuples.
    ///
    /// ```swift
    /// for (key, value) in rex.nicknames.asKeyValueSequence() { print(key, value) }
    /// ```
    public func asKeyValueSequence() -> [(key: Key, value: Value)] { current }
}

/// One entry of a `Map`, as iteration yields it.
///
/// ```swift
/// for entry in dog.favoriteParksByCity { print(entry.key, entry.value) }
/// ```
public struct SingleMapEntry<Key: _MapKey, Value: RealmCollectionValue>: Hashable {
    /// The entry's key.
    ///
    /// ```swift
    /// dog.favoriteParksByCity.map(\.key)  // ["Chicago"]
    /// ```
    public let key: Key
    /// The entry's value.
    ///
    /// ```swift
    /// dog.favoriteParksByCity.map(\.value)  // ["Millennium Park"]
    /// ```
    public let value: Value

    /// An entry (as a map's iteration makes them).
    ///
    /// ```swift
    /// SingleMapEntry(key: "Oslo", value: "Frogner")
    /// ```
    public init(key: Key, value: Value) {
        self.key = key
        self.value = value
    }
}

extension Map: Sequence {
    public func makeIterator() -> IndexingIterator<[SingleMapEntry<Key, Value>]> {
        current.map { SingleMapEntry(key: $0.key, value: $0.value) }.makeIterator()
    }
}

extension Map: CustomStringConvertible, DescribedCollection {
    /// The entries' descriptions, bounded as `Object.description` is (nesting depth, and the
    /// first 100 entries).
    public var description: String { describe(depth: ObjectDescription.maximumDepth) }

    func describe(depth: Int) -> String {
        let entries = current
        return ObjectDescription.describe(
            map: "Map<\(Key.self), \(Value.self)>",
            count: entries.count,
            shown: entries.prefix(ObjectDescription.maximumElements).map { ("\($0.key)", $0.value as Any) },
            depth: depth
        )
    }
}

extension Map: _QueryKeyedCollection {}

extension Map: _Persistable {
    public typealias PersistedType = Map<Key, Value>

    public static var _rqlSchemaType: _RQLSchemaType {
        Value._rqlSchemaType.collected(.map, swiftName: "Map<\(Key.self), \(Value._rqlSchemaType.swiftName)>")
    }

    public static func _rlmDefaultValue() -> Map<Key, Value> { Map() }

    /// A new unmanaged map from a map or a dictionary of convertible values.
    public static func _rqlConvert(_ value: Any) -> Map<Key, Value>? {
        let map = Map()
        if let other = value as? Map<Key, Value> {
            for (key, value) in other.current { map.updateValue(value, forKey: key) }
            return map
        }
        guard let dictionary = value as? [String: Any] else { return nil }
        for (key, item) in dictionary {
            guard let key = key as? Key, let converted = Value._rqlConvert(item) else { return nil }
            map.updateValue(converted, forKey: key)
        }
        return map
    }

    public static func _rqlRead(_ stored: RQLCore.Value, owner: ObjectBase) -> Map<Key, Value>? {
        guard case .map(let entries) = stored else { return nil }
        let map = Map()
        for entry in entries {
            guard let key = entry.key as? Key, let value = Value._rqlRead(entry.value, owner: owner) else { return nil }
            map.updateValue(value, forKey: key)
        }
        return map
    }

    public static var _rqlIsLiveCollection: Bool { true }

    public static func _rqlLiveCollection(owner: ObjectBase, ordinal: Int) -> Map<Key, Value>? {
        guard let accessor = owner._rqlAccessor else { return nil }
        return Map(managed: ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal))
    }

    /// The stored map: each entry's stored value under its key.
    public func _rqlStore(_ writer: _RQLWriter) -> RQLCore.Value {
        .map(MixedMap(current.map { ("\($0.key)", $0.value._rqlStore(writer)) }))
    }

    /// The map becomes the live view of `owner`'s stored map.
    public func _rqlPromote(owner: ObjectBase, ordinal: Int) -> Bool {
        guard let accessor = owner._rqlAccessor else { return false }
        managed = ManagedCollectionStorage(object: owner, accessor: accessor, ordinal: ordinal)
        entries = UnmanagedMapEntries()
        return true
    }

    public func _rqlUnmanagedCopy() -> Map<Key, Value> {
        let copy = Map()
        copy.entries = UnmanagedMapEntries(current)
        return copy
    }
}

extension Map: _RQLEmbeddedElements {
    var _rqlElements: [Any] { [] }
    var _rqlKeyedElements: [(String, Any)] { current.map { ("\($0.key)", $0.value as Any) } }
}

extension Map: Encodable where Key: Encodable, Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(current.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
    }
}

extension Map: Decodable where Key: Decodable, Value: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let dictionary = try decoder.singleValueContainer().decode([Key: Value].self)
        for (key, value) in dictionary { updateValue(value, forKey: key) }
    }
}
