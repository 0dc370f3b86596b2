import Foundation
import RQLCore

/// Why a value cannot fill an object: a property that does not exist, a value of the wrong
/// type, too many values in an array.
struct ObjectValueError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension ObjectBase {
    /// An unmanaged object filled from `value`: a dictionary of property values by name, an
    /// array of them in property order, or another object with properties of the same names.
    /// Linked objects and collections may be given the same way, nested.
    ///
    /// ```swift
    /// let pluto = Dog(value: ["name": "Pluto", "age": 3])
    /// let fido = Dog(value: ["Fido", 5])
    /// let jane = Person(value: ["name": "Jane", "dogs": [["Buster", 5], ["Buddy", 6]]])
    /// ```
    ///
    /// A value that does not fit stops the program with the reason, as in Realm Swift;
    /// `realm.create(_:value:)` reports the same problems as thrown errors.
    public convenience init(value: Any) {
        self.init()
        do {
            try _rqlAssign(from: value)
        } catch {
            realmStop("Invalid value for \(type(of: self).className()): \(error.message)")
        }
    }

    /// The class's discovered schema; a class that cannot be part of a schema stops the
    /// program with the reason (it is a mistake in the program, not in its input).
    var _rqlClassInfo: ClassInfo {
        if let accessor = _rqlAccessor { return accessor.classInfo }
        do {
            return try ClassInfo.info(for: type(of: self))
        } catch {
            realmStop("\(error)")
        }
    }

    /// Fills the object from a dictionary, an array or another object.
    func _rqlAssign(from value: Any) throws(ObjectValueError) {
        let info = try classInfoOrError()
        let settable = info.declaredOrder.filter { !info.properties[$0].schemaType.isBacklink }
        switch value {
        case let dictionary as [String: Any]:
            for ordinal in settable {
                if let item = dictionary[info.properties[ordinal].name] {
                    try set(item, ordinal: ordinal, info: info)
                }
            }
        case let array as [Any]:
            guard array.count <= settable.count else {
                throw ObjectValueError(
                    message: "Invalid array input: \(array.count) values for \(settable.count) properties"
                )
            }
            for (item, ordinal) in zip(array, settable) { try set(item, ordinal: ordinal, info: info) }
        case let object as ObjectBase:
            for ordinal in settable {
                if let item = object._rqlValueIfPresent(forKey: info.properties[ordinal].name) {
                    try set(item, ordinal: ordinal, info: info)
                }
            }
        default:
            throw ObjectValueError(
                message: "'\(value)' of type \(type(of: value)) is not a dictionary, an array or an object"
            )
        }
    }

    private func classInfoOrError() throws(ObjectValueError) -> ClassInfo {
        if let accessor = _rqlAccessor { return accessor.classInfo }
        do {
            return try ClassInfo.info(for: type(of: self))
        } catch {
            throw ObjectValueError(message: error.description)
        }
    }

    private func set(_ value: Any, ordinal: Int, info: ClassInfo) throws(ObjectValueError) {
        let property = info.properties[ordinal]
        let accepted =
            _rqlAccessor != nil
            ? property.field.setManagedValue(value, of: self, ordinal: ordinal)
            : withExtendedLifetime(self) { property.field.setValue(value, at: info.field(ordinal, of: self)) }
        guard accepted else {
            throw ObjectValueError(
                message: "'\(value)' of type \(type(of: value)) is not a valid value for property "
                    + "'\(property.name)' of type '\(property.schemaType.swiftName)'"
            )
        }
    }

    /// The value of the named persisted property, or nil when there is no such property.
    func _rqlValueIfPresent(forKey key: String) -> Any? {
        guard let info = try? classInfoOrError(), let ordinal = info.propertyIndex(named: key) else { return nil }
        return _rqlValue(ordinal, info: info)
    }

    /// The value of property `ordinal` as `Any` (an optional's nil as `Optional<Any>.none`).
    func _rqlValue(_ ordinal: Int, info: ClassInfo) -> Any {
        let field = info.properties[ordinal].field
        if _rqlAccessor != nil { return field.managedValue(of: self, ordinal: ordinal) }
        return withExtendedLifetime(self) { field.value(at: info.field(ordinal, of: self)) }
    }

    /// A persisted property by name. Reading an unknown name gives nil; setting one, or a value
    /// of the wrong type, stops the program (Realm Swift raises an exception).
    ///
    /// ```swift
    /// dog["age"] = 4
    /// dog["name"] as? String  // "Rex"
    /// ```
    public subscript(key: String) -> Any? {
        get { _rqlValueIfPresent(forKey: key).flatMap(Self.unwrapped) }
        set { setValue(newValue, forKey: key) }
    }

    /// The value of a persisted property by name (key-value coding without Objective-C).
    ///
    /// ```swift
    /// rex.value(forKey: "age") as? Int  // 10
    /// ```
    public func value(forKey key: String) -> Any? {
        self[key]
    }

    /// The value at a dotted key path through to-one links (`"favoriteToy.name"`).
    ///
    /// ```swift
    /// rex.value(forKeyPath: "favoriteToy.name") as? String  // "Tennis ball"
    /// ```
    public func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        for component in keyPath.split(separator: ".") {
            guard let object = current as? ObjectBase else { return nil }
            current = object[String(component)]
        }
        return current
    }

    /// Sets a persisted property by name.
    ///
    /// ```swift
    /// try realm.write { rex.setValue(11, forKey: "age") }
    /// ```
    public func setValue(_ value: Any?, forKey key: String) {
        if let dynamic = self as? DynamicObject {
            dynamic._rqlSetDynamic(value, forKey: key)
            return
        }
        let info = _rqlClassInfo
        guard let ordinal = info.propertyIndex(named: key), !info.properties[ordinal].schemaType.isBacklink else {
            realmStop("\(info.className) has no settable persisted property '\(key)'")
        }
        do {
            try set(value ?? NSNull(), ordinal: ordinal, info: info)
        } catch {
            realmStop("\(error.message)")
        }
    }

    /// Sets the property at a dotted key path through to-one links (`"favoriteToy.name"`).
    ///
    /// ```swift
    /// try realm.write { rex.setValue("Frisbee", forKeyPath: "favoriteToy.name") }
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        var components = keyPath.split(separator: ".").map(String.init)
        guard let last = components.popLast() else { return }
        var object: ObjectBase = self
        for component in components {
            guard let next = object[component] as? ObjectBase else {
                realmStop("\(keyPath): '\(component)' is not a link to an object")
            }
            object = next
        }
        object.setValue(value, forKey: last)
    }

    /// `nil` for an optional holding nil, else the value.
    static func unwrapped(_ value: Any) -> Any? {
        if let optional = value as? any _RQLOptionalBox { return optional._rqlWrapped }
        return value
    }
}

/// The text of `description` for objects and collections, in Realm Swift's layout and within
/// Realm Swift's bounds, so that a cycle (a list holding its own object) or a wide tree prints a
/// bounded text:
/// - objects and collections nest at most `maximumDepth` levels (each object and each collection
///   is a level); one level deeper, `<Maximum depth exceeded>` stands in their place;
/// - a collection shows its first `maximumElements` elements, then `... N objects skipped.`
///
/// ```swift
/// node.children.append(node)   // a cycle
/// print(node)                  // Node { children = List<Node> ( [0] Node { … <Maximum depth exceeded> … } ) }
/// ```
enum ObjectDescription {
    /// Levels of objects and collections shown (Realm Swift's `RLMDescriptionMaxDepth`).
    static let maximumDepth = 5
    /// Elements shown per collection.
    static let maximumElements = 100
    /// What stands for an object or collection past `maximumDepth`.
    static let depthExceeded = "<Maximum depth exceeded>"

    /// `object` with `depth` levels left for it and what it holds.
    static func describe(object: ObjectBase, depth: Int) -> String {
        // The object's own info: a managed object's may keep the columns in another order.
        guard let info = object._rqlAccessor?.classInfo ?? (try? ClassInfo.info(for: type(of: object))) else {
            return "\(type(of: object).className()) {}"
        }
        let className = info.className
        if object.isInvalidated { return "[invalid object]" }
        guard depth > 0 else { return depthExceeded }
        var lines = ["\(className) {"]
        for ordinal in info.declaredOrder where !info.properties[ordinal].schemaType.isBacklink {
            let property = info.properties[ordinal]
            let value = describe(value: object._rqlValue(ordinal, info: info), depth: depth - 1)
            lines.append("\t\(property.name) = \(indented(value));")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A property value or element, with `depth` levels left if it is an object or a collection.
    static func describe(value: Any, depth: Int) -> String {
        switch ObjectBase.unwrapped(value) {
        case nil: return "(null)"
        case let object as ObjectBase: return describe(object: object, depth: depth)
        case let collection as any DescribedCollection: return collection.describe(depth: depth)
        case let mixed as AnyRealmValue: return describe(mixed: mixed, depth: depth)
        case let string as String: return string
        case let data as Data: return "<\(data.count) bytes>"
        case let some?: return "\(some)"
        }
    }

    /// A mixed value: its object or nested collection within the bound, a scalar as Swift prints it.
    private static func describe(mixed: AnyRealmValue, depth: Int) -> String {
        switch mixed {
        case .object(let object): return describe(object: object, depth: depth)
        case .list(let list): return list.describe(depth: depth)
        case .dictionary(let map): return map.describe(depth: depth)
        default: return "\(mixed)"
        }
    }

    /// A collection of `count` elements of which `shown` are its first ones.
    static func describe(collection name: String, count: Int, shown: [Any], depth: Int) -> String {
        guard depth > 0 else { return depthExceeded }
        let lines = shown.enumerated().map {
            "\t[\($0.offset)] \(indented(describe(value: $0.element, depth: depth - 1)))"
        }
        return body(name, lines, skipped: count - shown.count)
    }

    /// A map of `count` entries of which `shown` are its first ones, in key order.
    static func describe(map name: String, count: Int, shown: [(String, Any)], depth: Int) -> String {
        guard depth > 0 else { return depthExceeded }
        let lines = shown.map { "\t[\($0.0)]: \(indented(describe(value: $0.1, depth: depth - 1)))" }
        return body(name, lines, skipped: count - shown.count)
    }

    private static func body(_ name: String, _ lines: [String], skipped: Int) -> String {
        var all = lines
        if skipped > 0 { all.append("\t... \(skipped) objects skipped.") }
        return "\(name) (\n" + all.joined(separator: ",\n") + (all.isEmpty ? "" : "\n") + ")"
    }

    /// A nested description's lines indented one more level under the line that holds it.
    private static func indented(_ text: String) -> String {
        text.contains("\n") ? text.replacingOccurrences(of: "\n", with: "\n\t") : text
    }
}

/// A collection that describes itself within the depth left to it (see `ObjectDescription`).
protocol DescribedCollection {
    func describe(depth: Int) -> String
}

extension ObjectBase {
    /// Encodes a managed object property by property, keyed by property name, each value
    /// through its own `Encodable` conformance: what synthesized `Codable` writes for an
    /// unmanaged object, which it cannot for a managed one (its wrappers hold no values).
    func _rqlEncode(to encoder: Encoder) throws {
        guard _rqlContext != nil, let info = try? classInfoOrError() else {
            try (self as? Encodable)?.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: PropertyCodingKey.self)
        for ordinal in info.declaredOrder where !info.properties[ordinal].schemaType.isBacklink {
            let property = info.properties[ordinal]
            guard let value = _rqlValue(ordinal, info: info) as? Encodable else { continue }
            if let object = value as? ObjectBase {
                try object._rqlEncode(to: container.superEncoder(forKey: PropertyCodingKey(property.name)))
            } else {
                try container.encode(value, forKey: PropertyCodingKey(property.name))
            }
        }
    }
}

/// A coding key that is a property name.
struct PropertyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
