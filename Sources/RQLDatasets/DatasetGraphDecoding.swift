import Foundation
import RQLCore
import RQLStorage

/// Where a value being decoded sits, for error messages.
struct DatasetLocation {
    let className: String
    let position: Int
    let property: String
    /// How many embedded objects deep `property` is inside the top-level object.
    var depth = 0

    func appending(_ name: String) -> DatasetLocation {
        DatasetLocation(className: className, position: position, property: property + "." + name, depth: depth)
    }
}

/// Reading an object's property values from JSON, shared by the loaders: scalars through
/// `DatasetValueDecoder`, and the parts that need the object graph (links, embedded objects,
/// collections, mixed values). A loader supplies what a link resolves to and where an embedded
/// object's row goes.
protocol DatasetGraphDecoding: AnyObject {
    typealias Location = DatasetLocation

    var schema: Schema { get }

    /// The link to the object of class `target` whose primary key is `key` (`keyJSON` as
    /// written), or a `danglingLink` error.
    func link(
        primaryKey key: Value,
        keyJSON: JSONValue,
        target: String,
        at location: Location
    ) throws(DatasetError)
        -> Value

    /// The link to the object at `position` of class `target`'s array (`nil`: beyond `Int64`),
    /// or a `danglingLink` error.
    func link(
        position: Int64?,
        keyJSON: JSONValue,
        target: String,
        at location: Location
    ) throws(DatasetError)
        -> Value

    /// Stores an embedded object's row (a value per property of `className`) met at `location`
    /// and returns its key.
    func appendEmbedded(_ row: [Value], to className: String, at location: Location) throws(DatasetError) -> RowKey
}

extension DatasetGraphDecoding {
    /// One object's property values in schema order, defaults filled in. `prefix` is the path of
    /// an embedded object inside its top-level parent (`address.`), `depth` its level below it.
    func decodeObject(
        _ members: [JSONMember],
        of objectSchema: ObjectSchema,
        className: String,
        position: Int,
        prefix: String,
        depth: Int = 0
    ) throws(DatasetError) -> [Value] {
        var row = objectSchema.properties.map(\.defaultValue)
        for member in members {
            let location = Location(
                className: className,
                position: position,
                property: prefix + member.key,
                depth: depth
            )
            guard let index = objectSchema.propertyIndex(named: member.key) else {
                throw unknownProperty(member.key, of: objectSchema, at: location)
            }
            let property = objectSchema.properties[index]
            if property.isBacklink {
                throw .backlinkGiven(className: className, position: position, property: prefix + member.key)
            }
            row[index] = try decode(member.value, property, at: location)
        }
        return row
    }

    /// The error for a member `name` that `objectSchema` (the top-level class or an embedded one
    /// inside it) does not declare.
    func unknownProperty(_ name: String, of objectSchema: ObjectSchema, at location: Location) -> DatasetError {
        guard objectSchema.name == location.className else {
            return .unknownEmbeddedProperty(
                className: location.className,
                position: location.position,
                path: location.property,
                embeddedClass: objectSchema.name,
                property: name
            )
        }
        return .unknownProperty(className: location.className, position: location.position, property: name)
    }

    /// The error for a link to `target` that names no object.
    func dangling(_ location: Location, target: String, key keyJSON: JSONValue) -> DatasetError {
        .danglingLink(
            className: location.className,
            position: location.position,
            property: location.property,
            target: target,
            key: keyJSON.serialized()
        )
    }

    func decode(_ json: JSONValue, _ property: Property, at location: Location) throws(DatasetError) -> Value {
        switch property.collection {
        case .single:
            return try decodeSingle(json, property.type, optional: property.isOptional, at: location)
        case .list, .set:
            guard case .array(let elements) = json else {
                throw wrongType(location, expected: "an array", found: json.typeName)
            }
            var values: [Value] = []
            for (i, element) in elements.enumerated() {
                values.append(
                    try decodeSingle(
                        element,
                        property.type,
                        optional: property.isOptional,
                        at: location.appending("\(i)")
                    )
                )
            }
            return .list(values)
        case .map:
            guard case .object(let members) = json else {
                throw wrongType(location, expected: "an object", found: json.typeName)
            }
            var pairs: [(String, Value)] = []
            pairs.reserveCapacity(members.count)
            for member in members {
                let value = try decodeSingle(
                    member.value,
                    property.type,
                    optional: property.isOptional,
                    at: location.appending(member.key)
                )
                pairs.append((member.key, value))
            }
            return .map(MixedMap(pairs))
        }
    }

    func decodeSingle(
        _ json: JSONValue,
        _ type: PropertyType,
        optional: Bool,
        at location: Location
    )
        throws(DatasetError) -> Value
    {
        if case .null = json {
            guard optional || type == .mixed else {
                throw wrongType(location, expected: "a non-null \(type.keyword)", found: json.typeName)
            }
            return .null
        }
        switch type {
        case .mixed:
            return try decodeMixed(json, at: location)
        case .object(let target):
            return try decodeLink(json, target: target, at: location)
        case .linkingObjects:
            throw .backlinkGiven(
                className: location.className,
                position: location.position,
                property: location.property
            )
        default:
            do {
                return try DatasetValueDecoder.scalar(json, type: type)
            } catch {
                throw wrap(error, at: location)
            }
        }
    }

    func decodeMixed(_ json: JSONValue, at location: Location) throws(DatasetError) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let n):
            if n.isInteger {
                guard let i = n.int64Value else {
                    throw .invalidValue(
                        className: location.className,
                        position: location.position,
                        property: location.property,
                        reason: "integer \(n.text) does not fit in 64 bits"
                    )
                }
                return .int(i)
            }
            do {
                return .double(try DatasetValueDecoder.finite(n, float: false))
            } catch {
                throw wrap(error, at: location)
            }
        case .array(let elements):
            var values: [Value] = []
            for (i, element) in elements.enumerated() {
                values.append(try decodeMixed(element, at: location.appending("\(i)")))
            }
            return .list(values)
        case .object(let members):
            if let (tag, payload) = DatasetValueDecoder.tagged(json) {
                return try decodeTagged(tag, payload, json, at: location)
            }
            var pairs: [(String, Value)] = []
            pairs.reserveCapacity(members.count)
            for member in members {
                pairs.append((member.key, try decodeMixed(member.value, at: location.appending(member.key))))
            }
            return .map(MixedMap(pairs))
        }
    }

    func decodeTagged(
        _ tag: String,
        _ payload: JSONValue,
        _ json: JSONValue,
        at location: Location
    )
        throws(DatasetError) -> Value
    {
        do {
            if let value = try DatasetValueDecoder.taggedScalar(tag, json) { return value }
            guard case .string(let className) = payload["class"] ?? .null, let key = payload["key"] else {
                throw ValueDecodeFailure.invalid("$link must be {\"class\": NAME, \"key\": KEY}")
            }
            guard let target = schema[className], !target.isEmbedded else {
                throw ValueDecodeFailure.invalid("$link to unknown or embedded class '\(className)'")
            }
            return try decodeLink(key, target: className, at: location)
        } catch let error as ValueDecodeFailure {
            throw wrap(error, at: location)
        } catch let error as DatasetError {
            throw error
        } catch {
            throw .invalidValue(
                className: location.className,
                position: location.position,
                property: location.property,
                reason: "\(error)"
            )
        }
    }

    /// A link: an embedded object inline, or the target's primary key (position when the target
    /// has no primary key), possibly as `{"$link": …}`.
    func decodeLink(_ json: JSONValue, target: String, at location: Location) throws(DatasetError) -> Value {
        guard let targetSchema = schema[target] else {
            throw .invalidValue(
                className: location.className,
                position: location.position,
                property: location.property,
                reason: "unknown class '\(target)'"
            )
        }
        if targetSchema.isEmbedded {
            guard case .object(let members) = json else {
                throw wrongType(location, expected: "an embedded object", found: json.typeName)
            }
            // As deep as a store holds them: what is loaded can be written back.
            let limit = WriteTransaction.maximumEmbeddedDepth
            guard location.depth < limit else {
                throw .embeddedTooDeep(
                    className: location.className,
                    position: location.position,
                    property: String(location.property.prefix { $0 != "." }),
                    limit: limit
                )
            }
            let row = try decodeObject(
                members,
                of: targetSchema,
                className: location.className,
                position: location.position,
                prefix: location.property + ".",
                depth: location.depth + 1
            )
            return .link(ObjectLink(className: target, key: try appendEmbedded(row, to: target, at: location)))
        }
        var keyJSON = json
        if let (tag, payload) = DatasetValueDecoder.tagged(json), tag == "$link" {
            guard case .string(let className) = payload["class"] ?? .null, let key = payload["key"] else {
                throw .invalidValue(
                    className: location.className,
                    position: location.position,
                    property: location.property,
                    reason: "$link must be {\"class\": NAME, \"key\": KEY}"
                )
            }
            guard className == target else {
                throw wrongType(location, expected: "a link to '\(target)'", found: "a link to '\(className)'")
            }
            keyJSON = key
        }
        if let keyIndex = targetSchema.primaryKeyIndex {
            let keyProperty = targetSchema.properties[keyIndex]
            let key = try decodeSingle(keyJSON, keyProperty.type, optional: keyProperty.isOptional, at: location)
            return try link(primaryKey: key, keyJSON: keyJSON, target: target, at: location)
        }
        guard case .number(let n) = keyJSON, n.isInteger else {
            throw wrongType(location, expected: "the position of a '\(target)' object", found: keyJSON.typeName)
        }
        return try link(position: n.int64Value, keyJSON: keyJSON, target: target, at: location)
    }

    func wrongType(_ location: Location, expected: String, found: String) -> DatasetError {
        .wrongType(
            className: location.className,
            position: location.position,
            property: location.property,
            expected: expected,
            found: found
        )
    }

    func wrap(_ failure: ValueDecodeFailure, at location: Location) -> DatasetError {
        switch failure {
        case .wrongType(let expected, let found):
            .wrongType(
                className: location.className,
                position: location.position,
                property: location.property,
                expected: expected,
                found: found
            )
        case .invalid(let reason):
            .invalidValue(
                className: location.className,
                position: location.position,
                property: location.property,
                reason: reason
            )
        }
    }
}
