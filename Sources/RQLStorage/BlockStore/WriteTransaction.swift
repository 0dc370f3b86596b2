import RQLCore

/// The one open write transaction of a `BlockStore`: per-object operations, schema changes and
/// bulk loads on a private copy of the newest snapshot, published by `commit()` as version + 1
/// together with a `ChangeSet`, or discarded by `rollback()`.
///
/// Every operation validates first and throws a `WriteError` naming the class, property and
/// key, changing nothing; the transaction stays usable. `reader` shows the transaction's own
/// uncommitted state, so queries and accessors inside a write see its writes.
///
/// ```swift
/// let transaction = store.beginWrite()
/// let ann = try transaction.insert("Person", ["name": .string("Ann")])
/// let person = ObjectLink(className: "Person", key: ann)
/// try transaction.append(.link(rex), to: "dogs", of: person)
/// try transaction.set("age", of: person, to: .int(31))
/// ReferenceEvaluator(store: transaction.reader).run(query)   // sees Ann
/// let result = try transaction.commit()
/// ```
///
/// Not `Sendable`: use it from one thread at a time (it may move between threads). Releasing an
/// unfinished transaction rolls it back.
public final class WriteTransaction {
    let store: BlockStore
    private let baseVersion: UInt64
    /// The version the transaction started from (a file commit frees what it alone reaches).
    let base: BlockSnapshot
    /// The schema as changed so far.
    public internal(set) var schema: Schema {
        didSet { lastCollection = nil }
    }
    /// The tables, by class index in `schema`.
    var tables: [TableData]
    var changes = ChangeRecorder()
    /// The number of successful write operations so far; the `reader`'s contents change exactly
    /// when it does.
    public internal(set) var writeCount = 0
    private var isOpen = true
    /// New elements of one set or map not yet merged into its block (`StagedCollection`).
    var staged: StagedCollection?
    /// Set while a staging operation looks up its target, so that `checkOpen` keeps `staged`.
    var keepsStaged = false
    /// The collection property the last collection operation found by name (`collection`).
    var lastCollection: CollectionTarget?
    /// Elements that collection splices moved (those after the spliced range, in its row) or
    /// rewrote (a merge of staged elements), summed: tests compare it across sizes to show that
    /// filling a collection stays linear.
    package internal(set) var elementsMoved = 0
    /// The blocks written to the file before the commit (`BlockSpill`), once one is.
    var spill: BlockSpill?
    /// Set when this transaction's blocks must stay in memory (see `BlockSpill.init`).
    var spillUnavailable = false
    var operationsSinceSpillCheck = 0
    /// The changed blocks in memory at the last look (`spillIdleBlocks`).
    var heldAtLastCheck: Set<ObjectIdentifier> = []

    init(store: BlockStore, base: BlockSnapshot) {
        self.store = store
        baseVersion = base.version
        self.base = base
        schema = base.schema
        tables = base.tables
    }

    deinit {
        rollback()
    }

    /// The transaction's current state as a snapshot: what a commit now would publish. It is a
    /// consistent value: later writes do not change it (they copy what it shares).
    public var reader: BlockSnapshot {
        mergeStaged()
        return BlockSnapshot(schema: schema, version: baseVersion + 1, tables: tables, pin: base.pin)
    }

    /// Publishes the transaction as the store's new newest version and ends it.
    ///
    /// In memory nothing can fail here. A file-backed store writes the new version's pages and
    /// header slot and syncs before publishing; if that fails (`WriteError.file`), the
    /// transaction is rolled back and the file still holds the previous version.
    /// Stops recording which objects this transaction modifies, and forgets those recorded:
    /// its change set says only that the schema changed, so every observer reads again. For a
    /// schema migration, which may modify every object of a large file while nothing observes
    /// it: a record per object would hold memory in proportion to the file.
    package func forgetModifications() {
        changes.forgetModifications()
    }

    /// The number of objects this transaction has recorded as modified.
    package var recordedModificationCount: Int { changes.modifiedCount }

    public func commit() throws(WriteError) -> CommitResult {
        guard isOpen else { throw .transactionEnded }
        mergeStaged()
        var snapshot = BlockSnapshot(schema: schema, version: baseVersion + 1, tables: tables)
        let changeSet = changes.changeSet(version: snapshot.version)
        if let file = store.file {
            do {
                snapshot = try file.commit(snapshot, base: base, changes: changeSet, spill: spill)
            } catch {
                rollback()
                throw .file(error)
            }
        }
        store.publish(snapshot)
        isOpen = false
        store.endWrite()
        return CommitResult(snapshot: snapshot, changes: changeSet)
    }

    /// Discards every change and ends the transaction. Does nothing once ended.
    public func rollback() {
        guard isOpen else { return }
        isOpen = false
        tables = []
        staged = nil
        lastCollection = nil
        // What was spilled is free in the file's free list, which never saw it allocated: a
        // snapshot taken from the transaction keeps its own copy of what it still reads.
        spill?.keepHeldStubs()
        spill = nil
        store.endWrite()
    }

    /// Whether `commit()` or `rollback()` may still be called.
    public var isActive: Bool { isOpen }

    // MARK: Lookups shared by the operations

    /// Every operation starts here; all but the staging ones first merge what is staged, so
    /// that they see the blocks whole.
    func checkOpen() throws(WriteError) {
        guard isOpen else { throw .transactionEnded }
        if staged != nil && !keepsStaged { mergeStaged() }
        spillIdleBlocks()
    }

    func tableIndex(_ className: String) throws(WriteError) -> Int {
        try checkOpen()
        guard let t = schema.classIndex(named: className) else { throw .unknownClass(className) }
        return t
    }

    /// The table index and key of an existing object.
    func locate(_ object: ObjectLink) throws(WriteError) -> (table: Int, key: Int64) {
        let t = try tableIndex(object.className)
        guard tables[t].locate(key: object.key.rawValue) != nil else {
            throw .unknownObject(className: object.className, key: object.key)
        }
        return (t, object.key.rawValue)
    }

    /// A writable property of table `t`: its index and schema.
    func writableProperty(_ t: Int, _ name: String) throws(WriteError) -> (index: Int, property: Property) {
        guard let index = tables[t].objectSchema.propertyIndex(named: name) else {
            throw .unknownProperty(className: className(t), property: name)
        }
        let property = tables[t].objectSchema.properties[index]
        guard !property.isBacklink else { throw .computedProperty(className: className(t), property: name) }
        return (index, property)
    }

    func className(_ t: Int) -> String { tables[t].objectSchema.name }

    /// The current value of a stored property.
    func currentValue(_ t: Int, _ key: Int64, _ property: Int) -> Value {
        guard let (b, row) = tables[t].locate(key: key) else { return .null }
        return tables[t].blocks[b].value(at: row, column: property)
    }

    /// Whether the target class of a link property is embedded.
    func isEmbeddedTarget(_ property: Property) -> Bool {
        guard case .object(let target) = property.type else { return false }
        return schema[target]?.isEmbedded ?? false
    }
}

/// What `commit()` produced: the new snapshot and what changed since the previous one.
///
/// ```swift
/// let result = try transaction.commit()
/// result.snapshot.version          // the previous version + 1
/// result.changes.classes["Dog"]    // inserted, deleted, modified
/// ```
public struct CommitResult: Sendable {
    public let snapshot: BlockSnapshot
    public let changes: ChangeSet
}
