import RQLCore
@_spi(Streaming) import RQLStorage

/// How far a streaming load has come (`DatasetLoader.load(from:into:progress:)`).
public struct DatasetLoadProgress: Hashable, Sendable {
    /// Top-level objects read so far (embedded objects are part of their parents).
    public var objects: Int
    /// Bytes of the document read so far.
    public var bytes: Int

    public init(objects: Int, bytes: Int) {
        self.objects = objects
        self.bytes = bytes
    }
}

extension DatasetLoader {
    /// Streams the dataset `input` holds into `transaction`, as the bytes arrive: the schema
    /// (classes the store lacks are added; the classes it has must have the same properties),
    /// then each object straight into the store's blocks, a block at a time. Memory is a block
    /// per class and the keys and indexes of the objects read, never the text or a tree of it,
    /// so a file of any size, a pipe or a FIFO loads in one pass; `progress` is called after
    /// every 4,096 objects and at the end. Links may point forward (to objects later in the
    /// text); they are resolved at the end.
    ///
    /// The first wrong byte or value ends the load with a `DatasetError` naming the class, the
    /// object's position and the property (or the byte offset, for text that is not JSON), and
    /// the transaction is left as it was: nothing of the dataset is in it. The caller commits.
    ///
    /// ```swift
    /// let store = BlockStore(schema: try Schema([]))
    /// let transaction = store.beginWrite()
    /// let input = MemoryInput(Array(#"""
    ///     {"schema": {"Dog": {"properties": {"name": "string", "age": "int"}}},
    ///      "objects": {"Dog": [{"name": "Rex", "age": 3}, {"name": "Fido", "age": 5}]}}
    ///     """#.utf8))
    /// let read = try DatasetLoader.load(from: input, into: transaction) { print($0.objects) }
    /// let snapshot = try transaction.commit().snapshot
    /// snapshot.table(named: "Dog")?.rowCount  // 2, and read.objects == 2
    /// ```
    @discardableResult
    public static func load(
        from input: ByteInput,
        into transaction: WriteTransaction,
        progress: ((DatasetLoadProgress) -> Void)? = nil
    ) throws(DatasetError) -> DatasetLoadProgress {
        try DatasetStream(input).load(into: transaction, progress: progress)
    }

    /// The dataset `input` holds, streamed into a new in-memory `BlockStore` and committed
    /// there (version 1): the same path as `load(from:into:progress:)`.
    package static func loadSnapshot(from input: ByteInput) throws(DatasetError) -> BlockSnapshot {
        let stream = try DatasetStream(input)
        let store = BlockStore(schema: stream.schema)
        let transaction = store.beginWrite()
        try stream.load(into: transaction, progress: nil)
        do {
            return try transaction.commit().snapshot
        } catch {
            // `commit` throws `.transactionEnded` or `.file`: this transaction was begun above
            // and `load` ends none, and this store has no file. `WriteError` cannot say that.
            fatalError("an in-memory commit failed: \(error)")
        }
    }
}

/// A dataset document being read from a stream: creating it reads up to the end of the schema
/// (so a caller can create a store with it), `load(into:progress:)` reads the rest.
package struct DatasetStream {
    /// The dataset's schema.
    package let schema: Schema
    private var parser: JSONParser
    private var topLevel: JSONParser.Cursor
    private let input: ByteInput
    /// The `objects` section when it came before the schema (it could not be decoded then).
    private var earlyObjects: JSONValue?

    /// Reads `input` up to the end of the schema. A stream that is not a dataset fails at its
    /// first wrong byte.
    package init(_ input: ByteInput) throws(DatasetError) {
        self.input = input
        var parser = JSONParser(input: input)
        do throws(DatasetError) {
            try Self.syntax([]) { () throws(JSONSyntaxError) in try parser.checkEncoding() }
            guard parser.nextTypeName() == "an object" else {
                if parser.nextTypeName() == nil {
                    try Self.syntax([]) { () throws(JSONSyntaxError) in _ = try parser.parseValue() }
                }
                throw DatasetError.invalidDocument(path: "", reason: "expected an object with 'schema' and 'objects'")
            }
            var cursor = try Self.syntax([]) { () throws(JSONSyntaxError) in try parser.enterObject() }
            var early: JSONValue?
            var read: Schema?
            while read == nil {
                guard let key = try Self.syntax([], { () throws(JSONSyntaxError) in try parser.nextMember(&cursor) })
                else {
                    throw DatasetError.invalidDocument(path: "", reason: "missing 'schema'")
                }
                switch key {
                case "schema":
                    let json = try Self.syntax([.key(key)]) { () throws(JSONSyntaxError) in try parser.parseValue() }
                    read = try DatasetSchemaReader.read(json)
                case "objects":
                    early = try Self.syntax([.key(key)]) { () throws(JSONSyntaxError) in try parser.parseValue() }
                default:
                    throw DatasetError.invalidDocument(path: key, reason: "unknown top-level key")
                }
            }
            guard let read else { throw DatasetError.invalidDocument(path: "", reason: "missing 'schema'") }
            schema = read
            self.parser = parser
            topLevel = cursor
            earlyObjects = early
        } catch {
            throw Self.cause(error, input)
        }
    }

    /// Reads the objects into `transaction` (see `DatasetLoader.load(from:into:progress:)`).
    @discardableResult
    package consuming func load(
        into transaction: WriteTransaction,
        progress: ((DatasetLoadProgress) -> Void)?
    ) throws(DatasetError) -> DatasetLoadProgress {
        let appender: RowAppender
        do {
            appender = try transaction.beginAppending(schema: schema)
        } catch {
            throw Self.storeMismatch(error)
        }
        let decoder = DatasetStreamDecoder(schema: schema, appender: appender, progress: progress)
        var parser = self.parser
        var topLevel = self.topLevel
        do throws(DatasetError) {
            if let earlyObjects {
                var early = JSONParser(bytes: Array(earlyObjects.serialized().utf8))
                try decoder.readObjects(&early, path: [.key("objects")])
            }
            while let key = try Self.syntax([], { () throws(JSONSyntaxError) in try parser.nextMember(&topLevel) }) {
                switch key {
                case "objects":
                    try decoder.readObjects(&parser, path: [.key(key)])
                case "schema":
                    // A second schema is a repeated key, which `nextMember` refuses.
                    try Self.syntax([.key(key)]) { () throws(JSONSyntaxError) in try parser.skipValue() }
                default:
                    throw DatasetError.invalidDocument(path: key, reason: "unknown top-level key")
                }
            }
            try Self.syntax([]) { () throws(JSONSyntaxError) in try parser.finishDocument() }
            try decoder.finish()
        } catch {
            appender.cancel()
            throw Self.cause(error, input)
        }
        let done = DatasetLoadProgress(objects: decoder.objectCount, bytes: parser.offset)
        progress?(done)
        return done
    }

    /// Runs a parser step, turning its error into a dataset error about `path`.
    static func syntax<T>(
        _ path: [JSONPathComponent],
        _ body: () throws(JSONSyntaxError) -> T
    ) throws(DatasetError) -> T {
        do {
            return try body()
        } catch {
            throw .syntax(error.inside(path))
        }
    }

    /// A read failure ends the text early; report it rather than the syntax error it causes.
    private static func cause(_ error: DatasetError, _ input: ByteInput) -> DatasetError {
        if let failure = input.failure { return .unreadable(failure) }
        return error
    }

    /// A dataset class that the store has with other properties, as a dataset error.
    private static func storeMismatch(_ error: WriteError) -> DatasetError {
        if case .incompatibleSchema(let className, let property) = error {
            let path = JSONPathComponent.text([.key("schema"), .key(className)] + (property.map { [.key($0)] } ?? []))
            return .invalidDocument(path: path, reason: "the store's class '\(className)' differs: \(error)")
        }
        return .invalidDocument(path: "schema", reason: "\(error)")
    }
}
