import RQLCore
import RQLStorage

/// Loads a JSON dataset (`spec/data-format.md`): the schema and, optionally, the objects, into
/// an in-memory block store, and returns its snapshot (version 1).
///
/// The whole store is built before anything is returned, so a document with any error loads
/// nothing. Row keys are the objects' positions in their class's array; embedded objects get
/// rows in their own class's table in the order they are met.
///
/// Loading takes the text plus the store it builds (a few times the file size): objects are
/// parsed one at a time straight into typed columns, never as a tree of the whole document.
/// Reading only the schema (`loadSchema(from:)`) stops reading once the schema is read.
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
    public static func load(json text: String) throws(DatasetError) -> BlockSnapshot {
        try load(utf8: Array(text.utf8))
    }

    /// Loads schema and objects from the bytes of a JSON document, which must be UTF-8 (a byte
    /// that is not is an error with its offset).
    public static func load(utf8 bytes: consuming [UInt8]) throws(DatasetError) -> BlockSnapshot {
        try loadSnapshot(from: MemoryInput(bytes))
    }

    /// Reads `input` to its end and loads it. The text is checked as it is read, so a stream
    /// that is not a dataset (`/dev/zero`, `yes`) fails at its first wrong byte rather than being
    /// read without end; objects go into the store's blocks as their bytes arrive.
    public static func load(from input: ByteInput) throws(DatasetError) -> BlockSnapshot {
        try loadSnapshot(from: input)
    }

    /// Reads only the schema of a dataset document; its `objects` are not read.
    public static func loadSchema(json text: String) throws(DatasetError) -> Schema {
        try loadSchema(from: MemoryInput(Array(text.utf8)))
    }

    /// Reads only the schema of the dataset document `input` holds, and stops reading there:
    /// a 200 MB dataset whose schema comes first costs one read of 64 KB. Objects written before
    /// the schema are read past (checked as JSON, not decoded).
    public static func loadSchema(from input: ByteInput) throws(DatasetError) -> Schema {
        var parser = JSONParser(input: input)
        do throws(DatasetError) {
            let (schemaJSON, _) = try readTopLevel(&parser, stoppingAfterSchema: true)
            guard let schemaJSON else { throw DatasetError.invalidDocument(path: "", reason: "missing 'schema'") }
            return try DatasetSchemaReader.read(schemaJSON)
        } catch {
            // A read failure ends the text early; report it rather than the syntax error it causes.
            if let failure = input.failure { throw .unreadable(failure) }
            throw error
        }
    }

    /// Loads an already parsed document.
    public static func load(document: JSONValue) throws(DatasetError) -> BlockSnapshot {
        try load(utf8: Array(document.serialized().utf8))
    }

    /// Walks the document's top-level object: parses `schema`, and notes where `objects` is
    /// (reading past it). With `stoppingAfterSchema`, returns as soon as the schema is read.
    private static func readTopLevel(
        _ parser: inout JSONParser,
        stoppingAfterSchema: Bool
    ) throws(DatasetError) -> (schema: JSONValue?, objects: JSONParser.Position?) {
        func json<T>(_ path: [JSONPathComponent], _ body: () throws(JSONSyntaxError) -> T) throws(DatasetError) -> T {
            do {
                return try body()
            } catch {
                throw .syntax(error.inside(path))
            }
        }
        try json([]) { () throws(JSONSyntaxError) in try parser.checkEncoding() }
        guard parser.nextTypeName() == "an object" else {
            if parser.nextTypeName() == nil {
                try json([]) { () throws(JSONSyntaxError) in _ = try parser.parseValue() }
            }
            throw .invalidDocument(path: "", reason: "expected an object with 'schema' and 'objects'")
        }
        var schema: JSONValue?
        var objects: JSONParser.Position?
        var cursor = try json([]) { () throws(JSONSyntaxError) in try parser.enterObject() }
        while let key = try json([], { () throws(JSONSyntaxError) in try parser.nextMember(&cursor) }) {
            switch key {
            case "schema":
                schema = try json([.key(key)]) { () throws(JSONSyntaxError) in try parser.parseValue() }
                if stoppingAfterSchema { return (schema, nil) }
            case "objects":
                if !stoppingAfterSchema { objects = parser.position }
                try json([.key(key)]) { () throws(JSONSyntaxError) in try parser.skipValue() }
            default:
                throw .invalidDocument(path: key, reason: "unknown top-level key")
            }
        }
        try json([]) { () throws(JSONSyntaxError) in try parser.finishDocument() }
        return (schema, objects)
    }
}
