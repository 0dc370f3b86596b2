import Foundation
import RQLCore
import RQLStorage

/// Converting the values the dynamic API is given (`dynamicObject["age"] = 4`,
/// `realm.dynamicCreate("Dog", value: [...])`, `migration.create`) to stored values, by the
/// stored type of the property rather than a declared Swift type.
///
/// ```swift
/// writer.dynamicValue(4, for: ageProperty)                        // .int(4)
/// writer.dynamicValue(["name": "ball"], for: favoriteToyProperty)  // a link to a new DogToy
/// ```
extension _RQLWriter {
    /// `value` as property `property` stores it; nil when it does not fit.
    func dynamicValue(_ value: Any, for property: RQLCore.Property) -> RQLCore.Value? {
        guard let target = property.type.targetClassName, !property.isBacklink else {
            return DynamicFields.field(for: property).storedValue(converting: value, writer: self)
        }
        switch property.collection {
        case .single:
            return linkValue(value, target: target)
        case .list, .set:
            guard let elements = Self.elements(of: value) else { return nil }
            var stored: [RQLCore.Value] = []
            stored.reserveCapacity(elements.count)
            for element in elements {
                guard let link = linkValue(element, target: target), link != .null else { return nil }
                stored.append(link)
            }
            return .list(stored)
        case .map:
            guard let entries = Self.entries(of: value) else { return nil }
            var pairs: [(String, RQLCore.Value)] = []
            for (key, element) in entries {
                guard let link = linkValue(element, target: target) else { return nil }
                pairs.append((key, link))
            }
            return .map(MixedMap(pairs))
        }
    }

    /// A link to an object of class `target`: nil (no link), an object of the realm, an
    /// unmanaged declared object (added), or a dictionary or array of values (a new object, or
    /// an embedded object's values).
    private func linkValue(_ value: Any, target: String) -> RQLCore.Value? {
        guard let unwrapped = ObjectBase.unwrapped(value), !(unwrapped is NSNull) else { return .null }
        if let object = unwrapped as? ObjectBase {
            let className = object._rqlAccessor?.classInfo.className ?? type(of: object).className()
            guard className == target else { return nil }
            return store(object)
        }
        guard unwrapped is [String: Any] || unwrapped is [Any], let objectSchema = transaction.schema[target] else {
            return nil
        }
        if objectSchema.isEmbedded {
            guard let values = dynamicValues(unwrapped, of: objectSchema) else { return nil }
            return .map(MixedMap(values.map { ($0.key, $0.value) }))
        }
        return dynamicInsert(target, value: unwrapped).map { .link($0) }
    }

    /// The stored values `value` gives for objects of `objectSchema`: a dictionary's by name
    /// (names the class lacks are an error), an array's in property order. Nil after recording
    /// the reason when a value does not fit.
    func dynamicValues(_ value: Any, of objectSchema: RQLCore.ObjectSchema) -> [String: RQLCore.Value]? {
        let settable = objectSchema.properties.filter { !$0.isBacklink }
        var given: [(RQLCore.Property, Any)] = []
        switch value {
        case let dictionary as [String: Any]:
            for name in dictionary.keys where objectSchema.property(named: name) == nil {
                fail(.invalidValue, "Invalid property name '\(name)' for class '\(objectSchema.name)'")
                return nil
            }
            given = settable.compactMap { property in dictionary[property.name].map { (property, $0) } }
        case let array as [Any]:
            guard array.count <= settable.count else {
                fail(
                    .invalidValue,
                    "Invalid array input: \(array.count) values for \(settable.count) properties of '\(objectSchema.name)'"
                )
                return nil
            }
            given = Array(zip(settable, array))
        default:
            fail(.invalidValue, "'\(value)' is not a dictionary or an array of '\(objectSchema.name)' values")
            return nil
        }
        var values: [String: RQLCore.Value] = [:]
        for (property, item) in given {
            guard let stored = dynamicValue(item, for: property) else {
                fail(
                    .invalidValue,
                    "Invalid value '\(item)' of type '\(type(of: item))' for '\(objectSchema.name).\(property.name)' "
                        + "of type '\(property.typeSyntax)'"
                )
                return nil
            }
            values[property.name] = stored
        }
        return values
    }

    /// Creates an object of class `className` from `value` (see `dynamicValues`), or with
    /// `.modified`/`.all` updates the object whose primary key it gives. Nil after recording
    /// the reason when it could not.
    func dynamicInsert(_ className: String, value: Any) -> ObjectLink? {
        guard let objectSchema = transaction.schema[className] else {
            fail(.invalidSchema, "Object type '\(className)' is not managed by the Realm")
            return nil
        }
        guard !objectSchema.isEmbedded else {
            fail(.invalidObject, "Cannot create an embedded object (\(className)) on its own; set it on its parent")
            return nil
        }
        guard let values = dynamicValues(value, of: objectSchema) else { return nil }
        if update != .error, let primaryKey = objectSchema.primaryKey, let keyValue = values[primaryKey],
            let existing = session.key(of: className, primaryKey: keyValue)
        {
            let link = ObjectLink(className: className, key: existing)
            for (name, stored) in values where name != primaryKey {
                if update == .modified, let ordinal = objectSchema.propertyIndex(named: name),
                    session.value(of: link, property: ordinal) == stored
                {
                    continue
                }
                session.perform { (t) throws(WriteError) in try t.set(name, of: link, to: stored) }
            }
            return link
        }
        return session.perform { (t) throws(WriteError) in try t.insert(className, values) }
            .map { ObjectLink(className: className, key: $0) }
    }

    /// The elements of an array or any other sequence (a `List`, a `Results`).
    private static func elements(of value: Any) -> [Any]? {
        if let array = value as? [Any] { return array }
        guard let sequence = value as? any Sequence else { return nil }
        return array(sequence)
    }

    private static func array<S: Sequence>(_ sequence: S) -> [Any] { sequence.map { $0 } }

    private static func entries(of value: Any) -> [(String, Any)]? {
        if let dictionary = value as? [String: Any] { return dictionary.map { ($0.key, $0.value) } }
        guard let sequence = value as? any Sequence else { return nil }
        var entries: [(String, Any)] = []
        for element in array(sequence) {
            guard let (key, value) = element as? (String, Any) else { return nil }
            entries.append((key, value))
        }
        return entries
    }
}
