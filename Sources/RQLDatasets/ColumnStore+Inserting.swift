import RQLCore
import RQLStorage

extension ColumnStore {
    /// Commits new objects, given as an `objects` section (`{"Dog": [{…}, …], …}`), and returns
    /// the new snapshot with `version + 1`. New objects get fresh row keys; they may link to
    /// existing objects (by primary key, or by position counting existing objects first) and to
    /// each other; a repeated primary key or any other bad value throws and commits nothing.
    ///
    /// ```swift
    /// let next = try store.inserting(json: #"{"Dog": [{"name": "Fido", "age": 2}]}"#)
    /// next.version == store.version + 1  // true
    /// ```
    public func inserting(json text: String) throws(DatasetError) -> ColumnStore {
        var parser = JSONParser(bytes: Array(text.utf8))
        do {
            try parser.checkEncoding()
            let start = parser.position
            try parser.skipValue()
            try parser.finishDocument()
            parser.seek(to: start)
        } catch {
            throw .syntax(error)
        }
        let builder = ObjectGraphBuilder(schema: schema, existing: allRows())
        try builder.load(from: &parser, at: parser.position, path: [])
        return ColumnStore(schema: schema, inputs: builder.inputs(), version: version + 1)
    }

    /// `inserting(json:)` for an already parsed `objects` section.
    public func inserting(objects: JSONValue) throws(DatasetError) -> ColumnStore {
        try inserting(json: objects.serialized())
    }
}
