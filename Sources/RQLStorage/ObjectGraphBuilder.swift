import Foundation
import RQLCore

/// Builds the row-major contents of a store from an `objects` section: resolves primary keys
/// and positions to row keys, creates embedded rows, and checks every value's type. It can start
/// from a store's existing rows (for inserts): new objects then get fresh keys, may link to
/// existing objects, and must not repeat their primary keys.
final class ObjectGraphBuilder {
    let schema: Schema
    private(set) var contents: [String: TableRows]
    /// Per class with a primary key: key value → row key.
    var primaryKeys: [String: [EqualityKey: RowKey]] = [:]
    /// Per class: how many rows existed before this load (positions below refer to them).
    private var existingCounts: [String: Int] = [:]
    /// Per class: how many objects this load adds at the top level.
    private var newCounts: [String: Int] = [:]
    /// Per class: the key the next appended row gets.
    private var nextKeys: [String: Int64] = [:]
    /// Per class: the key of the first new row (fixed while `nextKeys` moves on).
    private var firstNewKeys: [String: Int64] = [:]

    /// Where a value being decoded sits, for error messages.
    struct Location {
        let className: String
        let position: Int
        let property: String

        func appending(_ name: String) -> Location {
            Location(className: className, position: position, property: property + "." + name)
        }
    }

    init(schema: Schema, existing: [String: TableRows] = [:]) {
        self.schema = schema
        self.contents = existing
        for objectSchema in schema.classes {
            let table = existing[objectSchema.name] ?? TableRows()
            existingCounts[objectSchema.name] = table.rows.count
            nextKeys[objectSchema.name] = (table.keys.map(\.rawValue).max() ?? -1) + 1
            firstNewKeys[objectSchema.name] = nextKeys[objectSchema.name]
            if let keyIndex = objectSchema.primaryKeyIndex {
                var index: [EqualityKey: RowKey] = [:]
                for (row, values) in table.rows.enumerated() where keyIndex < values.count {
                    index[EqualityKey(values[keyIndex])] = table.keys[row]
                }
                primaryKeys[objectSchema.name] = index
            }
        }
    }

    func load(_ objects: [JSONMember]) throws(DatasetError) {
        var arrays: [(ObjectSchema, [JSONValue])] = []
        for member in objects {
            guard let objectSchema = schema[member.key] else { throw .unknownClass(member.key) }
            guard !objectSchema.isEmbedded else { throw .embeddedClassInObjects(member.key) }
            guard case .array(let elements) = member.value else {
                throw .invalidDocument(path: "objects.\(member.key)", reason: "expected an array of objects")
            }
            guard newCounts[member.key] == nil else {
                throw .invalidDocument(path: "objects.\(member.key)", reason: "class listed twice")
            }
            newCounts[member.key] = elements.count
            arrays.append((objectSchema, elements))
        }
        // Pass 1: primary keys, so that links can point forward and across classes.
        for (objectSchema, elements) in arrays {
            guard let keyIndex = objectSchema.primaryKeyIndex else { continue }
            let keyProperty = objectSchema.properties[keyIndex]
            var index = primaryKeys[objectSchema.name] ?? [:]
            for (position, element) in elements.enumerated() {
                guard case .object = element else {
                    throw .notAnObject(className: objectSchema.name, position: position)
                }
                let location = Location(className: objectSchema.name, position: position, property: keyProperty.name)
                guard let json = element[keyProperty.name] else {
                    throw .missingPrimaryKey(
                        className: objectSchema.name,
                        position: position,
                        property: keyProperty.name
                    )
                }
                let key = try decodeSingle(json, keyProperty.type, optional: keyProperty.isOptional, at: location)
                guard
                    index.updateValue(rowKey(ofNewObject: position, in: objectSchema.name), forKey: EqualityKey(key))
                        == nil
                else {
                    throw .duplicatePrimaryKey(
                        className: objectSchema.name,
                        position: position,
                        property: keyProperty.name,
                        key: json.serialized()
                    )
                }
            }
            primaryKeys[objectSchema.name] = index
        }
        // Pass 2: every object's values. Embedded objects are appended to their own tables as
        // they are met, so only top-level keys are known in advance.
        for (objectSchema, elements) in arrays {
            for (position, element) in elements.enumerated() {
                guard case .object(let members) = element else {
                    throw .notAnObject(className: objectSchema.name, position: position)
                }
                let row = try decodeObject(
                    members,
                    of: objectSchema,
                    className: objectSchema.name,
                    position: position,
                    prefix: ""
                )
                append(row, to: objectSchema.name)
            }
        }
    }

    /// The key the `position`-th new top-level object of `className` will get.
    private func rowKey(ofNewObject position: Int, in className: String) -> RowKey {
        RowKey((firstNewKeys[className] ?? 0) + Int64(position))
    }

    /// The key of the object at `position` of a class counted as existing rows followed by the
    /// new ones, or `nil` when out of range.
    func rowKey(atPosition position: Int64, in className: String) -> RowKey? {
        let existing = existingCounts[className] ?? 0
        guard position >= 0 else { return nil }
        if position < Int64(existing) { return contents[className]?.keys[Int(position)] }
        guard position < Int64(existing + (newCounts[className] ?? 0)) else { return nil }
        return rowKey(ofNewObject: Int(position) - existing, in: className)
    }

    @discardableResult
    func append(_ row: [Value], to className: String) -> RowKey {
        let key = RowKey(nextKeys[className] ?? 0)
        nextKeys[className] = key.rawValue + 1
        contents[className, default: TableRows()].keys.append(key)
        contents[className, default: TableRows()].rows.append(row)
        return key
    }

    /// One object's property values in schema order, defaults filled in. `prefix` is the path of
    /// an embedded object inside its top-level parent (`address.`).
    func decodeObject(
        _ members: [JSONMember],
        of objectSchema: ObjectSchema,
        className: String,
        position: Int,
        prefix: String
    ) throws(DatasetError) -> [Value] {
        var row = objectSchema.properties.map(ObjectGraphBuilder.defaultValue)
        for member in members {
            let location = Location(className: className, position: position, property: prefix + member.key)
            guard let index = objectSchema.propertyIndex(named: member.key) else {
                throw .unknownProperty(className: className, position: position, property: prefix + member.key)
            }
            let property = objectSchema.properties[index]
            if property.isBacklink {
                throw .backlinkGiven(className: className, position: position, property: prefix + member.key)
            }
            row[index] = try decode(member.value, property, at: location)
        }
        return row
    }

    static func defaultValue(_ property: Property) -> Value {
        switch property.collection {
        case .list, .set: return .list([])
        case .map: return .map(MixedMap())
        case .single: break
        }
        if property.isOptional { return .null }
        switch property.type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .date: return .date(.epoch)
        case .decimal128: return .decimal(.zero)
        case .objectId: return .objectId(.zero)
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .mixed, .object, .linkingObjects: return .null
        }
    }
}
