import RQLCore

/// One immutable version of a `BlockStore`: the schema and every class's table. A value that
/// any thread may hold and read for as long as it likes; no later commit changes it, and
/// holding it never blocks a writer. Untouched blocks and index nodes are shared with the
/// versions before and after it.
///
/// ```swift
/// let snapshot = store.snapshot
/// snapshot.version                              // 12
/// snapshot.table(named: "Dog")?.rowCount        // 3
/// ReferenceEvaluator(store: snapshot).run(query)
/// ```
public struct BlockSnapshot: StoreReader {
    public let schema: Schema
    /// The number of commits that produced this version. A write transaction's `reader` carries
    /// the version its commit will have, but its contents change with every write: compare
    /// `WriteTransaction.writeCount` too.
    public let version: UInt64
    let tables: [TableData]
    /// For a version read from or written to a file: keeps the version's pages from reuse while
    /// this snapshot, a copy of it, or a table taken from it lives.
    let pin: VersionPin?

    init(schema: Schema, version: UInt64, tables: [TableData], pin: VersionPin? = nil) {
        self.schema = schema
        self.version = version
        self.tables = tables
        self.pin = pin
    }

    /// This snapshot, holding `pin`.
    func pinned(_ pin: VersionPin) -> BlockSnapshot {
        BlockSnapshot(schema: schema, version: version, tables: tables, pin: pin)
    }

    /// An empty snapshot of `schema` at version 0.
    init(schema: Schema) {
        self.init(schema: schema, version: 0, tables: schema.classes.map { TableData(objectSchema: $0) })
    }

    public func table(named className: String) -> BlockTable? {
        schema.classIndex(named: className).map { BlockTable(data: tables[$0], pin: pin) }
    }

    /// The first damaged block met so far in this snapshot's file (by this snapshot or another
    /// of the same open file), or nil. A damaged block reads as rows of empty values so that
    /// nothing traps; a reader that can throw checks this after reading and throws it.
    ///
    /// ```swift
    /// let rows = engine.run(compiled, on: snapshot)
    /// if let damage = snapshot.fileDamage { throw damage }
    /// ```
    public var fileDamage: StoreFileError? { pin?.damage }

    /// `fileDamage`, for readers generic over `StoreReader`.
    public var damage: (any Error)? { fileDamage }

    /// The number of objects of every class.
    public var objectCount: Int { tables.reduce(0) { $0 + $1.rowCount } }
}

extension BlockSnapshot {
    /// The snapshot of a new in-memory `BlockStore` of `schema` holding `columns` (as
    /// `WriteTransaction.insert(columns:)` takes them: row `i` of a class gets key `i`),
    /// committed: version 1.
    ///
    /// ```swift
    /// let snapshot = try BlockSnapshot(schema: schema, columns: ["Person": ["age": .int([31, 47])]])
    /// snapshot.table(named: "Person")?.rowCount  // 2
    /// ```
    public init(schema: Schema, columns: [String: [String: ColumnValues]]) throws(WriteError) {
        let store = BlockStore(schema: schema)
        let transaction = store.beginWrite()
        do throws(WriteError) {
            try transaction.insert(columns: columns)
            _ = try transaction.commit()
        } catch {
            transaction.rollback()
            throw error
        }
        self = store.snapshot
    }
}
