import RQLCore
import RQLStorage

/// A realm's open write transaction, with the rules the object model adds: the first error is
/// recorded and everything after it is skipped (the commit will throw it and roll back), the
/// transaction's state is read through one `StoreVersion` per write count, and the objects
/// the transaction gave a row to are remembered so that a rollback can invalidate them.
///
/// ```swift
/// let session = WriteSession(store.beginWrite())
/// session.perform { try $0.set("age", of: rex, to: .int(4)) }
/// if let error = session.error { … }        // what commit will throw
/// ```
final class WriteSession {
    let transaction: WriteTransaction
    /// The first error; once set, further writes are skipped.
    private(set) var error: Realm.Error?
    /// Classes this transaction added to the schema (registered with the coordinator on commit).
    var addedClasses: [ClassInfo] = []
    /// Accessors of objects that got their row in this transaction: a rollback detaches them
    /// (their keys will be given to new objects). Held until the transaction ends.
    private var created: [ObjectAccessor] = []
    private var cached: StoreVersion?
    private var cachedWriteCount = -1

    init(_ transaction: WriteTransaction) {
        self.transaction = transaction
    }

    /// The transaction's state now.
    var current: StoreVersion {
        if cachedWriteCount != transaction.writeCount || cached == nil {
            cached = StoreVersion(transaction.reader)
            cachedWriteCount = transaction.writeCount
        }
        return cached.unsafelyUnwrapped
    }

    var hasFailed: Bool { error != nil }

    // Lookups on the transaction's state without building a `StoreVersion` (writes that check
    // something before each change would otherwise make one per change).

    /// Whether the object exists in the transaction's state.
    func contains(_ link: ObjectLink) -> Bool {
        transaction.contains(link)
    }

    /// The object of the class whose primary key equals `key`.
    func key(of className: String, primaryKey key: RQLCore.Value) -> RowKey? {
        guard let table = transaction.reader.table(named: className), let position = table.position(ofPrimaryKey: key)
        else { return nil }
        return table.rowKey(at: position)
    }

    /// Property `property` of the linked object, or nil when it does not exist.
    func value(of link: ObjectLink, property: Int) -> RQLCore.Value? {
        guard let (table, position) = transaction.reader.resolve(link),
            property < table.objectSchema.properties.count
        else { return nil }
        return table.value(at: position, property: property)
    }

    /// Records `error` unless an earlier one is recorded.
    func fail(_ error: Realm.Error) {
        if self.error == nil { self.error = error }
    }

    /// Runs one storage operation unless the transaction has failed; records its error.
    @discardableResult
    func perform<R>(_ body: (WriteTransaction) throws(WriteError) -> R) -> R? {
        guard error == nil else { return nil }
        do {
            return try body(transaction)
        } catch {
            fail(Realm.Error(error))
            return nil
        }
    }

    /// Remembers an accessor made for an object this transaction created.
    func created(_ accessor: ObjectAccessor) {
        created.append(accessor)
    }

    /// Discards the transaction and invalidates the objects it created.
    func rollback() {
        transaction.rollback()
        for accessor in created { accessor.detach() }
        created = []
    }

    /// Publishes the transaction.
    func commit() throws(Realm.Error) -> CommitResult {
        created = []
        do {
            return try transaction.commit()
        } catch {
            throw Realm.Error(error)
        }
    }
}
