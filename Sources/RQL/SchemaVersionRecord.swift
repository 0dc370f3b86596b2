import Foundation
import RQLCore
import RQLStorage

/// The schema version a store was last opened with, kept in the store itself so that every
/// process opening the file sees it: one object of a hidden class, as realm-core keeps it in its
/// `metadata` table. A store without the record is at version 0 (a new file, or one written
/// before the record existed), so the default configuration never writes it.
///
/// ```swift
/// SchemaVersionRecord.read(store.snapshot)         // 0 for a new store
/// try SchemaVersionRecord.raise(to: 3, in: store)
/// SchemaVersionRecord.isHidden("__RQLMetadata")    // true: not a class of the realm
/// ```
enum SchemaVersionRecord {
    /// The hidden class. Its name cannot clash with a model class: Swift class names do not
    /// start with two underscores by convention, and `Realm.schema`, `isEmpty` and `deleteAll`
    /// skip it.
    static let className = "__RQLMetadata"

    fileprivate static let property = "schemaVersion"

    fileprivate static let objectSchema = RQLCore.ObjectSchema(
        name: className,
        properties: [RQLCore.Property(name: property, type: .int)]
    )

    /// Whether `className` is bookkeeping rather than a class of the realm.
    static func isHidden(_ className: String) -> Bool { className == Self.className }

    /// The recorded schema version of the version `snapshot` holds (0 without a record).
    static func read(_ snapshot: BlockSnapshot) -> UInt64 {
        guard let table = snapshot.table(named: className), table.rowCount > 0,
            case .int(let stored) = table.value(at: 0, property: 0)
        else { return 0 }
        return UInt64(bitPattern: stored)
    }

    /// Records `version` in `store` unless the store records a higher one, in a write
    /// transaction of its own (the caller holds none; the write lock makes check and write one
    /// step across threads and processes).
    static func raise(to version: UInt64, in store: BlockStore) throws(Realm.Error) {
        let transaction = store.beginWrite()
        // With the write lock held, the newest snapshot is the version this transaction builds on.
        guard version > read(store.snapshot) else {
            transaction.rollback()
            return
        }
        do {
            try write(version, in: transaction)
            _ = try transaction.commit()
        } catch {
            transaction.rollback()
            throw Realm.Error(error)
        }
    }
}

extension SchemaVersionRecord {
    /// Records `version` inside `transaction` (a migration records it with its changes).
    static func write(_ version: UInt64, in transaction: WriteTransaction) throws(WriteError) {
        if transaction.schema[className] == nil {
            try transaction.addClasses([objectSchema])
        }
        try transaction.deleteAll(className)
        try transaction.insert(className, [property: RQLCore.Value.int(Int64(bitPattern: version))])
    }
}

/// The schema version last set on the realm file at `fileURL` (0 for a file no configuration
/// with a schema version has opened). Throws `Realm.Error` (`.fileNotFound`) when there is no
/// readable realm file there. Encryption is not supported: `encryptionKey` must be nil.
///
/// ```swift
/// let url = URL(fileURLWithPath: "/tmp/pets.realm")
/// _ = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 3))
/// try schemaVersionAtURL(url)  // 3
/// ```
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    if let encryptionKey { throw Realm.Configuration.encryptionUnsupported(encryptionKey) }
    return try StoreRegistry.schemaVersion(atPath: fileURL.standardizedFileURL.path)
}
