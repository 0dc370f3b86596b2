import RQLCore

// The two interfaces between the object model and a storage engine. Managed objects read a
// store version through `ObjectReader` (any `StoreReader` adapts to it) and write through
// `StoreWriteTransaction`; the storage engine's write transaction is adapted to the latter, and
// nothing above these protocols knows which engine runs underneath.

/// One consistent version of a store, as managed objects and collections read it: values by
/// (class, row key, property number), with the properties numbered as in the schema.
protocol ObjectReader: AnyObject, Sendable {
    /// The schema the store follows.
    var schema: RQLCore.Schema { get }
    /// Increases with every commit.
    var version: UInt64 { get }
    /// Whether the object exists in this version.
    func contains(_ link: ObjectLink) -> Bool
    /// Property `property` of the object (`StoreReader` conventions: collections as `.list` /
    /// `.map`, links as `.link`), or nil when the object does not exist in this version.
    func value(of link: ObjectLink, property: Int) -> RQLCore.Value?
    /// The keys of every object of the class, in storage order.
    func keys(of className: String) -> [RowKey]
    /// The object of the class whose primary key equals `key`.
    func key(of className: String, primaryKey key: RQLCore.Value) -> RowKey?
    /// The objects of `originClass` whose `originProperty` links to `link`, once per link.
    func backlinks(to link: ObjectLink, fromClass originClass: String, property originProperty: String) -> [RowKey]
}

/// Adapts any `StoreReader` (the in-memory column store, a file snapshot) to `ObjectReader`.
final class StoreReaderAdapter<Store: StoreReader>: ObjectReader, @unchecked Sendable {
    let store: Store

    init(_ store: Store) {
        self.store = store
    }

    var schema: RQLCore.Schema { store.schema }
    var version: UInt64 { store.version }

    func contains(_ link: ObjectLink) -> Bool { store.resolve(link) != nil }

    func value(of link: ObjectLink, property: Int) -> RQLCore.Value? {
        guard let (table, position) = store.resolve(link), property < table.objectSchema.properties.count else {
            return nil
        }
        return table.value(at: position, property: property)
    }

    func keys(of className: String) -> [RowKey] {
        guard let table = store.table(named: className) else { return [] }
        return (0..<table.rowCount).map { table.rowKey(at: $0) }
    }

    func key(of className: String, primaryKey key: RQLCore.Value) -> RowKey? {
        guard let table = store.table(named: className), let position = table.position(ofPrimaryKey: key) else {
            return nil
        }
        return table.rowKey(at: position)
    }

    func backlinks(to link: ObjectLink, fromClass originClass: String, property originProperty: String) -> [RowKey] {
        guard let (table, position) = store.resolve(link) else { return [] }
        return table.backlinks(at: position, fromClass: originClass, property: originProperty)
    }
}

/// A write transaction as the object model uses it: every mutation a managed object, collection
/// or realm can make, in the store's terms (class names, row keys, property numbers, `Value`s).
/// A mutation that breaks a constraint throws; the realm records the first error, keeps going
/// as a no-op, and throws it from `commit`, rolling everything back.
protocol StoreWriteTransaction: AnyObject {
    /// The store as this transaction has changed it so far (reads inside a write see their writes).
    var reader: any ObjectReader { get }
    /// Adds an object; `values` hold every property in schema order (backlink slots ignored,
    /// links as `.link` to objects already in the transaction). Returns its new key.
    func insert(_ className: String, values: [RQLCore.Value]) throws(StoreWriteError) -> RowKey
    /// Sets one property (a whole collection when `value` is a `.list` / `.map`).
    func set(_ link: ObjectLink, property: Int, to value: RQLCore.Value) throws(StoreWriteError)
    /// List mutations; positions are checked by the caller.
    func listInsert(_ link: ObjectLink, property: Int, _ value: RQLCore.Value, at index: Int) throws(StoreWriteError)
    func listSet(_ link: ObjectLink, property: Int, _ value: RQLCore.Value, at index: Int) throws(StoreWriteError)
    func listRemove(_ link: ObjectLink, property: Int, at index: Int) throws(StoreWriteError)
    func listMove(_ link: ObjectLink, property: Int, from: Int, to: Int) throws(StoreWriteError)
    /// Set mutations; inserting a present element or removing an absent one is a no-op.
    func setInsert(_ link: ObjectLink, property: Int, _ value: RQLCore.Value) throws(StoreWriteError)
    func setRemove(_ link: ObjectLink, property: Int, _ value: RQLCore.Value) throws(StoreWriteError)
    /// Map mutations.
    func mapSet(_ link: ObjectLink, property: Int, key: String, _ value: RQLCore.Value) throws(StoreWriteError)
    func mapRemove(_ link: ObjectLink, property: Int, key: String) throws(StoreWriteError)
    /// Empties a list, set or map.
    func clear(_ link: ObjectLink, property: Int) throws(StoreWriteError)
    /// Deletes an object: links to it become null (and leave lists), its embedded objects go too.
    func delete(_ link: ObjectLink) throws(StoreWriteError)
    /// Deletes every object of every class.
    func deleteAll() throws(StoreWriteError)
    /// Publishes the changes as a new version, with what changed.
    func commit() throws(StoreWriteError) -> (reader: any ObjectReader, changes: StoreChangeSet)
    /// Discards the changes.
    func rollback()
}

/// Opens versions and write transactions of one store (in memory or in a file).
protocol StorageEngine: AnyObject, Sendable {
    /// The newest committed version.
    func latest() -> any ObjectReader
    /// Starts the one write transaction (waiting for another to finish).
    func beginWrite() throws(StoreWriteError) -> any StoreWriteTransaction
}

/// What a commit changed, per class: the basis of notifications and of live `Results`.
struct StoreChangeSet: Hashable, Sendable {
    struct ClassChanges: Hashable, Sendable {
        var inserted: Set<RowKey> = []
        var deleted: Set<RowKey> = []
        /// Modified objects and, for each, the property numbers that changed.
        var modified: [RowKey: Set<Int>] = [:]
    }

    var classes: [String: ClassChanges] = [:]
    var isEmpty: Bool { classes.values.allSatisfy { $0.inserted.isEmpty && $0.deleted.isEmpty && $0.modified.isEmpty } }
}

/// Why a write failed: a broken constraint (duplicate primary key, a wrong type, a missing
/// object) or the store itself (the file could not be written).
struct StoreWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}
