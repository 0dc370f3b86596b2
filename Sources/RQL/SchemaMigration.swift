import Foundation
import RQLCore
import RQLStorage
import Synchronization

/// Opening a store with a declared schema: checks the schema version, then either finds the
/// declared classes as the store keeps them, or migrates the store to them in one write
/// transaction (schema changes, the configuration's migration block, primary keys checked,
/// the new schema version recorded), or refuses with realm-core's list of changes.
///
/// ```swift
/// try SchemaMigration.prepare(configuration, coordinator: coordinator)
/// ```
///
/// A migration runs when the configured schema version is higher than the stored one and
/// the declared classes differ from the stored ones (or a migration block is set);
/// `deleteRealmIfMigrationNeeded` replaces every stored class instead. Index changes alone
/// need no migration: they are applied as the store is opened, as realm-core applies them.
final class SchemaMigration {
    let declared: DiscoveredSchema
    let session: WriteSession
    var sessionTransaction: WriteTransaction { session.transaction }
    /// Properties the program no longer declares, removed after the block unless renamed.
    private(set) var pendingRemovals: [(className: String, property: String)] = []
    /// The largest number of row keys one `enumerateObjects` held at once (tests check the bound).
    private(set) var largestBatch = 0

    private init(declared: DiscoveredSchema, session: WriteSession) {
        self.declared = declared
        self.session = session
    }

    // MARK: Deciding

    /// Brings the store of `coordinator` to `configuration`'s schema version and declared
    /// classes (its `objectTypes`), or throws why it cannot. `insideWrite`: a write of the
    /// caller's thread already holds the store's write lock (a realm of the same file opened
    /// through another path), so whatever needs a write of its own is refused, not waited for.
    static func prepare(
        _ configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        insideWrite: Bool = false
    ) throws(Realm.Error) {
        var declared: DiscoveredSchema?
        if let types = configuration.objectTypes {
            do {
                declared = try DiscoveredSchema(types: types, closingOverLinks: false)
            } catch {
                throw Realm.Error(.invalidSchema, error.description)
            }
        }
        let configured = configuration.schemaVersion
        let snapshot = coordinator.store.snapshot
        let stored = SchemaVersionRecord.read(snapshot)
        let reset = configuration.deleteRealmIfMigrationNeeded
        if configured < stored, !reset || declared == nil {
            try coordinator.checkSchemaVersion(configured)
        }
        let recording = !configuration.readOnly && configured > stored
        guard let declared else {
            try checkUndeclared(configuration, coordinator: coordinator, stored: stored)
            if recording && insideWrite { throw coordinator.nestedWriteError("recording the schema version") }
            try coordinator.recordSchemaVersion(configured, readOnly: configuration.readOnly)
            return
        }
        let changes = Self.changes(from: snapshot.schema, to: declared)
        let wanted =
            (reset && (changes.needsMigration || configured < stored))
            || (configured > stored && (changes.needsMigration || configuration.migrationBlock != nil))
            || changes.hasIndexChanges
        if wanted && !configuration.readOnly && configured > stored,
            coordinator.openContexts.load(ordering: .relaxed) > 0
        {
            throw Realm.Error(
                .schemaMismatch,
                "Realm at \(coordinator.key) is already open in this process at schema version \(stored): "
                    + "it cannot be migrated to version \(configured) while open"
            )
        }
        if insideWrite && !configuration.readOnly && (wanted || recording) {
            throw coordinator.nestedWriteError(wanted ? "a schema change" : "recording the schema version")
        }
        if wanted && !configuration.readOnly {
            try migrate(configuration, coordinator: coordinator, declared: declared)
        }
        try coordinator.register(declared.classes, readOnly: configuration.readOnly, insideWrite: insideWrite)
        try coordinator.recordSchemaVersion(configured, readOnly: configuration.readOnly)
    }

    /// Without declared classes there is nothing to migrate to: Linux has no list of every
    /// `Object` subclass, so raising the version of a store that holds classes needs them.
    private static func checkUndeclared(
        _ configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        stored: UInt64
    ) throws(Realm.Error) {
        let holdsClasses = coordinator.store.snapshot.schema.classes.contains { !SchemaVersionRecord.isHidden($0.name) }
        guard configuration.schemaVersion > stored, holdsClasses, !configuration.readOnly else { return }
        throw Realm.Error(
            .schemaMismatch,
            "Realm at \(coordinator.key): schema version \(configuration.schemaVersion) is higher than the stored "
                + "\(stored), and a migration needs the classes it migrates to: set Realm.Configuration.objectTypes "
                + "(Linux has no list of every Object subclass)"
        )
    }

    /// What differs between the stored and the declared classes.
    private struct Changes {
        /// Some class or property differs in a way only a migration may apply.
        var needsMigration = false
        /// Some index differs (applied without a migration).
        var hasIndexChanges = false
    }

    private static func changes(from schema: RQLCore.Schema, to declared: DiscoveredSchema) -> Changes {
        var changes = Changes()
        for info in declared.classes {
            guard let stored = schema[info.className] else {
                changes.needsMigration = true
                continue
            }
            if info.matching(stored) != nil { continue }
            if info.matching(withoutIndexes(stored, as: info.objectSchema)) != nil {
                changes.hasIndexChanges = true
            } else {
                changes.needsMigration = true
            }
        }
        return changes
    }

    /// `stored` with the index flags of `declared`'s properties of the same name.
    private static func withoutIndexes(
        _ stored: RQLCore.ObjectSchema,
        as declared: RQLCore.ObjectSchema
    ) -> RQLCore.ObjectSchema {
        RQLCore.ObjectSchema(
            name: stored.name,
            properties: stored.properties.map { property in
                var property = property
                if let wanted = declared.property(named: property.name) {
                    property.isIndexed = wanted.isIndexed
                    property.isFullText = wanted.isFullText
                }
                return property
            },
            primaryKey: stored.primaryKey,
            isEmbedded: stored.isEmbedded
        )
    }

    // MARK: Migrating

    /// Runs the migration in one write transaction; on any error nothing is kept.
    private static func migrate(
        _ configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        declared: DiscoveredSchema
    ) throws(Realm.Error) {
        let session = WriteSession(coordinator.store.beginWrite())
        // A migration runs while no realm of the store is open in this process, and it changes
        // the schema, so every later reader reads afresh: a record per modified object would
        // only hold memory in proportion to the file.
        session.transaction.forgetModifications()
        // With the write lock held, the newest version is the one to migrate from: another
        // process may have migrated the file meanwhile.
        let before = StoreVersion(coordinator.store.snapshot)
        let stored = SchemaVersionRecord.read(before.snapshot)
        let run = SchemaMigration(declared: declared, session: session)
        do throws(Realm.Error) {
            if configuration.deleteRealmIfMigrationNeeded {
                try run.replaceEverything()
            } else if configuration.schemaVersion > stored {
                try run.applyBeforeBlock(from: before)
                if let block = configuration.migrationBlock {
                    try run.runBlock(block, configuration: configuration, coordinator: coordinator, before: before)
                }
                try run.applyAfterBlock()
            } else {
                try run.applyIndexes()
            }
            try run.checkMatches(key: coordinator.key)
            if configuration.schemaVersion > stored || configuration.deleteRealmIfMigrationNeeded {
                try run.perform { (t) throws(WriteError) in
                    try SchemaVersionRecord.write(configuration.schemaVersion, in: t)
                }
            }
            if let error = session.error { throw error }
            _ = try session.commit()
        } catch {
            session.rollback()
            throw error
        }
        coordinator.forgetRegistrations()
    }

    private func runBlock(
        _ block: MigrationBlock,
        configuration: Realm.Configuration,
        coordinator: RealmCoordinator,
        before: StoreVersion
    ) throws(Realm.Error) {
        let old = RealmContext.migrating(configuration, coordinator: coordinator, version: before, session: nil)
        let new = RealmContext.migrating(configuration, coordinator: coordinator, version: before, session: session)
        defer { new.endMigration() }
        block(Migration(old: old, new: new, run: self), SchemaVersionRecord.read(before.snapshot))
        if let error = session.error { throw error }
    }

    func noteBatch(_ count: Int) { largestBatch = max(largestBatch, count) }

    func notePendingRemoval(_ className: String, _ property: String) {
        pendingRemovals.append((className, property))
    }

    func forgetPendingRemoval(_ className: String, _ property: String) {
        pendingRemovals.removeAll { $0.className == className && $0.property == property }
    }

    /// Runs one storage change, throwing the transaction's first error.
    @discardableResult
    func perform<R>(_ body: (WriteTransaction) throws(WriteError) -> R) throws(Realm.Error) -> R {
        if let error = session.error { throw error }
        guard let result = session.perform(body) else { throw session.error ?? Realm.Error(.fail, "migration failed") }
        return result
    }
}

extension Realm {
    /// Migrates the file of `configuration` to its schema version and classes now, as opening
    /// it would, without keeping a realm open.
    ///
    /// ```swift
    /// try Realm.performMigration(for: Realm.Configuration(fileURL: url, schemaVersion: 2, objectTypes: [Dog.self]))
    /// ```
    public static func performMigration(for configuration: Configuration = .defaultConfiguration) throws {
        let coordinator = try StoreRegistry.coordinator(for: configuration)
        coordinator.catchUp()
        try SchemaMigration.prepare(configuration, coordinator: coordinator)
    }
}
