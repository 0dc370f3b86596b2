import Foundation
import RQLCore

/// Loads a JSON dataset (`spec/data-format.md`): the schema and, optionally, the objects.
///
/// The whole store is built before anything is returned, so a document with any error loads
/// nothing. Row keys are the objects' positions in their class's array; embedded objects get
/// rows in their own class's table in the order they are met.
///
/// ```swift
/// let store = try DatasetLoader.load(json: #"""
///     {"schema": {"Dog": {"properties": {"name": "string", "age": "int"}}},
///      "objects": {"Dog": [{"name": "Rex", "age": 3}]}}
///     """#)
/// store.table(named: "Dog")?.rowCount  // 1
/// ```
public enum DatasetLoader {
    /// Loads schema and objects from JSON text; the store's version is 1.
    public static func load(json text: String) throws(DatasetError) -> ColumnStore {
        try load(document: parse(text))
    }

    /// Reads only the schema of a dataset document (its `objects` section is ignored).
    public static func loadSchema(json text: String) throws(DatasetError) -> Schema {
        let document = try parse(text)
        guard let section = document["schema"] else {
            throw .invalidDocument(path: "", reason: "missing 'schema'")
        }
        return try DatasetSchemaReader.read(section)
    }

    /// Loads an already parsed document.
    public static func load(document: JSONValue) throws(DatasetError) -> ColumnStore {
        guard case .object(let members) = document else {
            throw .invalidDocument(path: "", reason: "expected an object with 'schema' and 'objects'")
        }
        for member in members where member.key != "schema" && member.key != "objects" {
            throw .invalidDocument(path: member.key, reason: "unknown top-level key")
        }
        guard let schemaSection = document["schema"] else {
            throw .invalidDocument(path: "", reason: "missing 'schema'")
        }
        let schema = try DatasetSchemaReader.read(schemaSection)
        var objects: [JSONMember] = []
        if let section = document["objects"] {
            guard case .object(let list) = section else {
                throw .invalidDocument(
                    path: "objects",
                    reason: "expected an object of arrays, found \(section.typeName)"
                )
            }
            objects = list
        }
        let builder = ObjectGraphBuilder(schema: schema)
        try builder.load(objects)
        return ColumnStore(schema: schema, contents: builder.contents, version: 1)
    }

    private static func parse(_ text: String) throws(DatasetError) -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw .syntax(error)
        }
    }
}
