import Foundation
import RQLCore
import RQLStorage

/// What a migration block is given: a `Migration` and the schema version the file had.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void
/// An object in a migration: the old one read-only, the new one writable, both by name.
public typealias MigrationObject = DynamicObject
/// What `enumerateObjects` calls for each object.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void

/// A schema migration in progress, given to `Realm.Configuration.migrationBlock`. Everything
/// it does is one write transaction with the schema changes: it commits after the block, or
/// nothing is kept (an error recorded in the block, duplicate primary keys after it, a process
/// stopped in it).
///
/// ```swift
/// let config = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { migration, old in
///     if old < 2 {
///         migration.enumerateObjects(ofType: "Person") { oldPerson, newPerson in
///             let first = oldPerson?["firstName"] as? String ?? ""
///             let last = oldPerson?["lastName"] as? String ?? ""
///             newPerson?["fullName"] = "\(first) \(last)"
///         }
///         migration.renameProperty(onType: "Person", from: "yearsSinceBirth", to: "age")
///     }
/// }, objectTypes: [Person.self])
/// ```
///
/// New classes and properties exist before the block runs (with default values); properties
/// the program no longer declares are removed after it, so `renameProperty` can keep their
/// data; a property whose type changed starts over with default values (copy what you need
/// from the old object). Primary keys are lifted during the block and checked for duplicates
/// after it. Classes the program no longer declares stay in the file unless the block calls
/// `deleteData(forType:)`.
public final class Migration {
    /// The schema before the migration (every stored class, as `DynamicObject`s).
    public let oldSchema: Schema
    /// The schema the program declares.
    public let newSchema: Schema
    let old: RealmContext
    let new: RealmContext
    private let run: SchemaMigration

    init(old: RealmContext, new: RealmContext, run: SchemaMigration) {
        self.old = old
        self.new = new
        self.run = run
        oldSchema = Schema(
            classes: old.current.schema.classes.filter { !SchemaVersionRecord.isHidden($0.name) }.map(ClassInfo.dynamic)
        )
        newSchema = Schema(run.declared)
    }

    /// Calls `block` for each object of class `typeName` the file held before the migration:
    /// the old object (read-only, with the old schema's properties) and the new one (writable,
    /// with the new schema's). A class the program no longer declares gives `(old, nil)`; a new
    /// class gives `(nil, new)` for the objects it has; objects deleted in the migration are
    /// skipped. Objects are visited one storage block at a time, so memory stays bounded
    /// however many there are.
    ///
    /// ```swift
    /// migration.enumerateObjects(ofType: "Dog") { old, new in
    ///     new?["ageInMonths"] = (old?["age"] as? Int ?? 0) * 12
    /// }
    /// ```
    public func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        let declared = run.declared.classInfo(named: typeName) != nil
        let oldVersion = old.current
        guard let oldIndex = oldVersion.classIndex(named: typeName), let oldTable = oldVersion.table(oldIndex) else {
            enumerateNew(typeName, block)
            return
        }
        let oldInfo = ClassInfo.dynamic(oldVersion.schema.classes[oldIndex])
        let schema = run.session.transaction.schema
        let newClass = schema.classIndex(named: typeName).map {
            (index: $0, info: ClassInfo.dynamic(schema.classes[$0]))
        }
        let batch = TableBlock.capacity
        var start = 0
        while start < oldTable.rowCount {
            let end = min(start + batch, oldTable.rowCount)
            let keys = (start..<end).map { oldTable.rowKey(at: $0) }
            run.noteBatch(keys.count)
            // The old version is read once, a block at a time: its pages need not stay resident.
            let positions = start..<end
            defer { oldTable.releaseMappedPages(positions: positions) }
            start = end
            for key in keys {
                let oldObject = oldInfo.makeManaged(
                    context: old,
                    key: key,
                    classIndex: oldIndex,
                    version: oldVersion,
                    row: oldVersion.row(of: key, classIndex: oldIndex)
                )
                guard declared else {
                    block(oldObject as? DynamicObject, nil)
                    continue
                }
                // Made without reading the transaction's current version: a version held
                // across the block's write would make that write copy the object's block.
                let link = ObjectLink(className: typeName, key: key)
                guard let newClass, run.session.contains(link) else { continue }
                let newObject = newClass.info.makeManaged(context: new, key: key, classIndex: newClass.index)
                block(oldObject as? DynamicObject, newObject as? DynamicObject)
            }
        }
    }

    /// Objects of a class the file did not hold: those the block created before the call.
    private func enumerateNew(_ typeName: String, _ block: MigrationObjectEnumerateBlock) {
        for key in new.current.keys(of: typeName) {
            if let object = newObject(typeName, key) { block(nil, object) }
        }
    }

    private func newObject(_ typeName: String, _ key: RowKey) -> DynamicObject? {
        new.dynamicObject(for: ObjectLink(className: typeName, key: key))
    }

    /// Creates an object of class `typeName` in the new realm (see `Realm.dynamicCreate`).
    ///
    /// ```swift
    /// migration.create("Tag", value: ["name": "imported"])
    /// ```
    @discardableResult
    public func create(_ typeName: String, value: Any = [Any]()) -> MigrationObject {
        Realm(context: new).dynamicCreate(typeName, value: value)
    }

    /// Deletes an object of the new realm (a `newObject` of `enumerateObjects`).
    ///
    /// ```swift
    /// migration.enumerateObjects(ofType: "Dog") { _, new in if let new, new["age"] as? Int == 0 { migration.delete(new) } }
    /// ```
    public func delete(_ object: MigrationObject) {
        Realm(context: new).delete(object)
    }

    /// Deletes every object of class `typeName`; a class the program no longer declares is
    /// removed from the file. Returns whether the file had the class.
    ///
    /// ```swift
    /// migration.deleteData(forType: "Cache")  // true
    /// ```
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        run.deleteData(typeName)
    }

    /// Renames a property the program no longer declares (`oldName`) to one it declares in its
    /// place (`newName`), keeping its values; both must have the same type.
    ///
    /// ```swift
    /// migration.renameProperty(onType: "Person", from: "yearsSinceBirth", to: "age")
    /// ```
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        run.renameProperty(typeName, from: oldName, to: newName)
    }

    /// The most row keys `enumerateObjects` has held at once (at most one storage block).
    var largestBatch: Int { run.largestBatch }

    /// The objects the migration's transaction has recorded as modified (none: see
    /// `SchemaMigration.migrate`).
    var recordedModifications: Int { run.session.transaction.recordedModificationCount }
}
