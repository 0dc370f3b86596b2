import Foundation

/// Key path → property names without an Objective-C runtime: the key path is evaluated on the
/// class's prototype, whose `@Persisted` fields are in the recording state. Each one read appends
/// its name and returns a value to continue with: for a link, the target class's prototype,
/// recording into the same list, so `\Person.address?.city` records `address`, `city`.
///
/// ```swift
/// KeyPathRecording.names(of: \Dog.favoriteToy?.name, on: Dog.self)  // ["favoriteToy", "name"]
/// KeyPathRecording.names(of: \Dog.firstLetter, on: Dog.self)        // nil: not persisted
/// ```
///
/// A computed property that reads persisted ones records those reads: a one-step key path
/// (what the DSL asks about) that records anything but exactly one name is not persisted.
final class KeyPathRecording {
    /// The names recorded so far, shared by every prototype the key path reaches.
    final class Names {
        var names: [String] = []
        /// Prototypes whose recording must be switched off afterwards.
        var prototypes: [ObjectBase] = []
    }

    let info: ClassInfo
    let names: Names

    init(info: ClassInfo, names: Names) {
        self.info = info
        self.names = names
    }

    /// Called by a recording-state `Persisted` getter on the prototype.
    func record<Value: _Persistable>(_ ordinal: Int, as type: Value.Type) -> Value {
        names.names.append(info.properties[ordinal].name)
        return Value._rqlRecordingValue(names)
    }

    /// The prototype of `type`, recording into `names`.
    static func prototype(of type: ObjectBase.Type, recordingInto names: AnyObject) -> ObjectBase? {
        guard let names = names as? Names, let info = try? ClassInfo.info(for: type) else { return nil }
        info.prototype._rqlRecording = KeyPathRecording(info: info, names: names)
        names.prototypes.append(info.prototype)
        return info.prototype
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: [String]?] = [:]

    /// The persisted property names `keyPath` reads from an object of `type`, or nil when it
    /// reads none (or the class cannot be discovered).
    static func names(of keyPath: AnyKeyPath, on type: ObjectBase.Type) -> [String]? {
        // One recording at a time: the prototypes are shared.
        lock.withLock {
            if let cached = cache[keyPath] { return cached }
            let names = Names()
            var result: [String]?
            if let prototype = prototype(of: type, recordingInto: names) {
                _ = prototype[keyPath: keyPath]
                result = names.names.isEmpty ? nil : names.names
            }
            for prototype in names.prototypes { prototype._rqlRecording = nil }
            cache[keyPath] = .some(result)
            return result
        }
    }
}
