import Foundation

// Key-value coding on a map with string keys, as Realm Swift's `Map` offers it: the key of
// an entry is the KVC key, so `value(forKey:)` reads an entry and `setValue(_:forKey:)` writes
// one (inside a write transaction when the map is managed, as every change to it).

extension Map where Key == String {
    /// The value of the entry `key`, untyped; nil when the map has no such key (or its value is
    /// nil).
    ///
    /// ```swift
    /// rex.nicknames.value(forKey: "park") as? String  // "Big one"
    /// ```
    public func value(forKey key: String) -> AnyObject? {
        self[key].flatMap { ObjectBase.unwrapped($0) } as AnyObject?
    }

    /// The value at a dotted key path: the first component names an entry, the rest read
    /// properties of the object it holds.
    ///
    /// ```swift
    /// person.dogsByName.value(forKeyPath: "rex.age") as? Int  // 10
    /// ```
    public func value(forKeyPath keyPath: String) -> AnyObject? {
        let components = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = components.first,
            let entry = self[first].flatMap({ ObjectBase.unwrapped($0) })
        else {
            return nil
        }
        guard components.count == 2 else { return entry as AnyObject }
        guard let object = entry as? ObjectBase else { return nil }
        return object.value(forKeyPath: components[1]).flatMap { ObjectBase.unwrapped($0) }
            as AnyObject?
    }

    /// Sets the entry `key` to `value`, converted as `Object(value:)` converts; nil (or
    /// `NSNull`) removes the entry. A value the map's values cannot hold stops the program, as
    /// in Realm Swift.
    ///
    /// ```swift
    /// try realm.write { rex.nicknames.setValue("Rexy", forKey: "home") }
    /// ```
    public func setValue(_ value: Any?, forKey key: String) {
        guard let value, let present = ObjectBase.unwrapped(value), !(present is NSNull) else {
            removeObject(for: key)
            return
        }
        guard let converted = Value._rqlConvert(present) else {
            realmStop(
                "Invalid value '\(present)' of type '\(type(of: present))' for a map of \(Value.self)"
            )
        }
        updateValue(converted, forKey: key)
    }

    /// The value of the entry whose key is `key` (a string), untyped: Realm Swift's
    /// `object(forKey:)`.
    ///
    /// ```swift
    /// rex.nicknames.object(forKey: "park" as NSString) as? String
    /// ```
    public func object(forKey key: AnyObject) -> AnyObject? {
        guard let key = key as? String else { return nil }
        return value(forKey: key)
    }
}
