import Foundation
import RQLCore
import RQLStorage

/// Builds a store's tables from an `objects` section: resolves primary keys and positions to
/// row keys, creates embedded rows, checks every value's type, and appends each object's values
/// straight to its class's column builders. It can start from a store's existing rows (for
/// inserts): new objects then get fresh keys, may link to existing objects, and must not repeat
/// their primary keys.
///
/// The section is read from JSON text one object at a time, twice: a first pass registers the
/// primary keys (so links may point forward and across classes) and counts each class's objects,
/// a second decodes the objects. Only one object's JSON tree exists at a time, so loading takes
/// the text plus the columns, not a tree of the whole document.
final class ObjectGraphBuilder: DatasetGraphDecoding {
    let schema: Schema
    /// Per class: the row keys and one column builder per property (nil for backlinks).
    private var tables: [String: TableBuilder] = [:]
    /// Per class with a primary key: key value → row key.
    var primaryKeys: [String: [EqualityKey: RowKey]] = [:]
    /// Per class: how many rows existed before this load (positions below refer to them).
    private var existingKeys: [String: [RowKey]] = [:]
    /// Per class: how many objects this load adds at the top level.
    private var newCounts: [String: Int] = [:]
    /// Per class: the key of the first new row.
    private var firstNewKeys: [String: Int64] = [:]

    init(schema: Schema, existing: [String: TableRows] = [:]) {
        self.schema = schema
        for objectSchema in schema.classes {
            let rows = existing[objectSchema.name] ?? TableRows()
            let table = TableBuilder(objectSchema)
            for (key, row) in zip(rows.keys, rows.rows) { table.append(row, key: key) }
            tables[objectSchema.name] = table
            existingKeys[objectSchema.name] = rows.keys
            firstNewKeys[objectSchema.name] = (rows.keys.map(\.rawValue).max() ?? -1) + 1
            if let keyIndex = objectSchema.primaryKeyIndex {
                var index: [EqualityKey: RowKey] = [:]
                for (key, values) in zip(rows.keys, rows.rows) where keyIndex < values.count {
                    index[EqualityKey(values[keyIndex])] = key
                }
                primaryKeys[objectSchema.name] = index
            }
        }
    }

    /// The built tables, ready for `ColumnStore(schema:inputs:version:)`; the builder is spent.
    func inputs() -> [String: TableInput] {
        tables.mapValues { $0.input() }
    }

    /// Reads the `objects` section at `position` of `parser`'s text; `path` is where the section
    /// is in the document, for messages.
    func load(
        from parser: inout JSONParser,
        at position: JSONParser.Position,
        path: [JSONPathComponent]
    ) throws(DatasetError) {
        parser.seek(to: position)
        guard parser.nextTypeName() == "an object" else {
            throw .invalidDocument(
                path: JSONPathComponent.text(path),
                reason: "expected an object of arrays, found \(parser.nextTypeName() ?? "nothing")"
            )
        }
        var arrays: [(ObjectSchema, JSONParser.Position)] = []
        var cursor = try json(path) { () throws(JSONSyntaxError) in try parser.enterObject() }
        while let name = try json(path, { () throws(JSONSyntaxError) in try parser.nextMember(&cursor) }) {
            guard let objectSchema = schema[name] else { throw .unknownClass(name) }
            guard !objectSchema.isEmbedded else { throw .embeddedClassInObjects(name) }
            guard parser.nextTypeName() == "an array" else {
                throw .invalidDocument(
                    path: JSONPathComponent.text(path + [.key(name)]),
                    reason: "expected an array of objects"
                )
            }
            arrays.append((objectSchema, parser.position))
            newCounts[name] = try registerKeys(of: objectSchema, from: &parser, path: path + [.key(name)])
        }
        // Pass 2: every object's values. Embedded objects are appended to their own tables as
        // they are met, so only top-level keys are known in advance.
        for (objectSchema, start) in arrays {
            parser.seek(to: start)
            let arrayPath = path + [.key(objectSchema.name)]
            var elements = try json(arrayPath) { () throws(JSONSyntaxError) in try parser.enterArray() }
            var position = 0
            while try json(arrayPath, { () throws(JSONSyntaxError) in try parser.nextElement(&elements) }) {
                let element = try json(arrayPath + [.index(position)]) { () throws(JSONSyntaxError) in
                    try parser.parseValue()
                }
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
                position += 1
            }
        }
    }

    /// Pass 1 over one class's array: counts the objects and registers their primary keys,
    /// reading only the key member of each object.
    private func registerKeys(
        of objectSchema: ObjectSchema,
        from parser: inout JSONParser,
        path: [JSONPathComponent]
    ) throws(DatasetError) -> Int {
        let keyProperty = objectSchema.primaryKeyIndex.map { objectSchema.properties[$0] }
        var index = primaryKeys[objectSchema.name] ?? [:]
        var elements = try json(path) { () throws(JSONSyntaxError) in try parser.enterArray() }
        var position = 0
        while try json(path, { () throws(JSONSyntaxError) in try parser.nextElement(&elements) }) {
            let elementPath = path + [.index(position)]
            guard parser.nextTypeName() == "an object" else {
                throw .notAnObject(className: objectSchema.name, position: position)
            }
            guard let keyProperty else {
                try json(elementPath) { () throws(JSONSyntaxError) in try parser.skipValue() }
                position += 1
                continue
            }
            var keyJSON: JSONValue?
            var members = try json(elementPath) { () throws(JSONSyntaxError) in try parser.enterObject() }
            while let name = try json(elementPath, { () throws(JSONSyntaxError) in try parser.nextMember(&members) }) {
                if name == keyProperty.name {
                    keyJSON = try json(elementPath + [.key(name)]) { () throws(JSONSyntaxError) in
                        try parser.parseValue()
                    }
                } else {
                    try json(elementPath + [.key(name)]) { () throws(JSONSyntaxError) in try parser.skipValue() }
                }
            }
            guard let keyJSON else {
                throw .missingPrimaryKey(className: objectSchema.name, position: position, property: keyProperty.name)
            }
            let location = Location(className: objectSchema.name, position: position, property: keyProperty.name)
            let key = try decodeSingle(keyJSON, keyProperty.type, optional: keyProperty.isOptional, at: location)
            guard
                index.updateValue(rowKey(ofNewObject: position, in: objectSchema.name), forKey: EqualityKey(key)) == nil
            else {
                throw .duplicatePrimaryKey(
                    className: objectSchema.name,
                    position: position,
                    property: keyProperty.name,
                    key: keyJSON.serialized()
                )
            }
            position += 1
        }
        primaryKeys[objectSchema.name] = index
        return position
    }

    /// Runs a parser step, turning its error into a dataset error about `path`.
    private func json<T>(
        _ path: [JSONPathComponent],
        _ body: () throws(JSONSyntaxError) -> T
    ) throws(DatasetError) -> T {
        do {
            return try body()
        } catch {
            throw .syntax(error.inside(path))
        }
    }

    /// The key the `position`-th new top-level object of `className` will get.
    private func rowKey(ofNewObject position: Int, in className: String) -> RowKey {
        RowKey((firstNewKeys[className] ?? 0) + Int64(position))
    }

    /// The key of the object at `position` of a class counted as existing rows followed by the
    /// new ones, or `nil` when out of range.
    func rowKey(atPosition position: Int64, in className: String) -> RowKey? {
        let existing = existingKeys[className] ?? []
        guard position >= 0 else { return nil }
        if position < Int64(existing.count) { return existing[Int(position)] }
        guard position < Int64(existing.count + (newCounts[className] ?? 0)) else { return nil }
        return rowKey(ofNewObject: Int(position) - existing.count, in: className)
    }

    /// Appends a row with the next key of its class and returns the key.
    @discardableResult
    func append(_ row: [Value], to className: String) -> RowKey {
        guard let table = tables[className] else { return RowKey(-1) }
        let key = RowKey(max(table.lastKey + 1, firstNewKeys[className] ?? 0))
        table.append(row, key: key)
        return key
    }

    func link(
        primaryKey key: Value,
        keyJSON: JSONValue,
        target: String,
        at location: Location
    ) throws(DatasetError)
        -> Value
    {
        guard let rowKey = primaryKeys[target]?[EqualityKey(key)] else {
            throw dangling(location, target: target, key: keyJSON)
        }
        return .link(ObjectLink(className: target, key: rowKey))
    }

    func link(
        position: Int64?,
        keyJSON: JSONValue,
        target: String,
        at location: Location
    ) throws(DatasetError)
        -> Value
    {
        guard let position, let rowKey = rowKey(atPosition: position, in: target) else {
            throw dangling(location, target: target, key: keyJSON)
        }
        return .link(ObjectLink(className: target, key: rowKey))
    }

    func appendEmbedded(_ row: [Value], to className: String, at location: Location) -> RowKey {
        append(row, to: className)
    }
}
