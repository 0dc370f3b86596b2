import Foundation
import RQLCore
import RQLStorage

// The schema changes of a migration, in the order realm-core applies them: new classes and
// properties before the block (so the block can fill them), removals and primary keys after it
// (so the old values stay renameable and the block may change keys freely).
extension SchemaMigration {
    private var transaction: WriteTransaction { sessionTransaction }

    /// Adds the declared classes and properties the store lacks, replaces properties whose
    /// type changed, lifts primary keys, and notes the properties to remove after the block.
    func applyBeforeBlock(from before: StoreVersion) throws(Realm.Error) {
        let schema = transaction.schema
        var newClasses: [RQLCore.ObjectSchema] = []
        var backlinks: [(className: String, property: RQLCore.Property)] = []
        for info in declared.classes {
            let wanted = info.objectSchema
            guard let stored = schema[wanted.name] else {
                newClasses.append(
                    RQLCore.ObjectSchema(
                        name: wanted.name,
                        properties: wanted.properties.filter { !$0.isBacklink },
                        primaryKey: wanted.primaryKey,
                        isEmbedded: wanted.isEmbedded
                    )
                )
                backlinks += wanted.properties.filter(\.isBacklink).map { (wanted.name, $0) }
                continue
            }
            guard stored.isEmbedded == wanted.isEmbedded else {
                throw Realm.Error(
                    .schemaMismatch,
                    "Class '\(wanted.name)' cannot be changed between embedded and top-level in a migration"
                )
            }
            if stored.primaryKey != nil {
                try perform { (t) throws(WriteError) in try t.setPrimaryKey(nil, of: wanted.name) }
            }
            for property in stored.properties where wanted.property(named: property.name) == nil {
                notePendingRemoval(wanted.name, property.name)
            }
        }
        if !newClasses.isEmpty {
            try perform { (t) throws(WriteError) in try t.addClasses(newClasses) }
        }
        for info in declared.classes {
            let wanted = info.objectSchema
            guard let stored = schema[wanted.name] else { continue }
            for property in wanted.properties {
                let old = stored.property(named: property.name)
                if let old, Self.sameShape(old, property) { continue }
                if old != nil {
                    try perform { (t) throws(WriteError) in try t.removeProperty(property.name, from: wanted.name) }
                }
                if property.isBacklink {
                    backlinks.append((wanted.name, property))
                    continue
                }
                try perform { (t) throws(WriteError) in try t.addProperty(property, to: wanted.name) }
                if let old, old.type == property.type, old.collection == .single, property.collection == .single {
                    // Only the optionality changed: realm-core keeps the values (a null
                    // becomes the default when the property is now required).
                    try copyValues(of: property.name, in: wanted.name, from: before)
                }
            }
        }
        for (className, property) in backlinks {
            try perform { (t) throws(WriteError) in try t.addProperty(property, to: className) }
        }
    }

    /// Removes what the program no longer declares, sets the declared primary keys (checking
    /// for duplicates) and indexes.
    func applyAfterBlock() throws(Realm.Error) {
        for (className, property) in pendingRemovals
        where transaction.schema[className]?.property(named: property) != nil {
            try perform { (t) throws(WriteError) in try t.removeProperty(property, from: className) }
        }
        for info in declared.classes {
            try perform { (t) throws(WriteError) in try t.setPrimaryKey(info.primaryKey, of: info.className) }
        }
        try applyIndexes()
    }

    /// Gives every declared property the indexes it is declared with.
    func applyIndexes() throws(Realm.Error) {
        for info in declared.classes {
            guard let stored = transaction.schema[info.className] else { continue }
            for property in info.objectSchema.properties {
                guard let old = stored.property(named: property.name) else { continue }
                let name = info.className
                let kinds: [(IndexKind, Bool, Bool)] = [
                    (.hash, old.isIndexed, property.isIndexed), (.fullText, old.isFullText, property.isFullText),
                ]
                for (kind, had, wanted) in kinds where had != wanted {
                    try perform { (t) throws(WriteError) in
                        if wanted {
                            try t.addIndex(kind, on: property.name, of: name)
                        } else {
                            try t.removeIndex(kind, from: property.name, of: name)
                        }
                    }
                }
            }
        }
    }

    /// `deleteRealmIfMigrationNeeded`: every stored class goes, the declared ones are added.
    func replaceEverything() throws(Realm.Error) {
        let stored = transaction.schema.classes.map(\.name).filter { !SchemaVersionRecord.isHidden($0) }
        if !stored.isEmpty {
            try perform { (t) throws(WriteError) in try t.removeClasses(stored) }
        }
        let classes = declared.classes.map(\.objectSchema)
        try perform { (t) throws(WriteError) in try t.addClasses(classes) }
    }

    /// Checks that every declared class now matches the store (a rename to the wrong type, a
    /// class deleted in the block, would not).
    func checkMatches(key: StoreKey) throws(Realm.Error) {
        for info in declared.classes {
            guard let stored = transaction.schema[info.className] else {
                throw Realm.Error(.schemaMismatch, "Class '\(info.className)' was removed during the migration")
            }
            guard info.matching(stored) != nil else {
                throw Realm.Error(
                    .schemaMismatch,
                    MigrationCheck.message(stored: stored, declared: info.objectSchema, key: key)
                )
            }
        }
    }

    /// `Migration.deleteData(forType:)`.
    func deleteData(_ className: String) -> Bool {
        guard !SchemaVersionRecord.isHidden(className), transaction.schema[className] != nil else { return false }
        let isDeclared = declared.classInfo(named: className) != nil
        if !isDeclared, (try? transaction.removeClass(className)) != nil { return true }
        session.perform { (t) throws(WriteError) in try t.deleteAll(className) }
        return true
    }

    /// `Migration.renameProperty(onType:from:to:)`; a rename that cannot be done is recorded
    /// (the migration then fails with it).
    func renameProperty(_ className: String, from oldName: String, to newName: String) {
        func refuse(_ message: String) { session.fail(Realm.Error(.schemaMismatch, message)) }
        guard let stored = transaction.schema[className] else {
            return refuse("Cannot rename properties for type '\(className)' because it does not exist.")
        }
        guard let old = stored.property(named: oldName) else {
            return refuse("Cannot rename property '\(className).\(oldName)' because it does not exist.")
        }
        guard let wanted = declared.classInfo(named: className)?.objectSchema.property(named: newName) else {
            return refuse("Renamed property '\(className).\(newName)' does not exist.")
        }
        guard declared.classInfo(named: className)?.objectSchema.property(named: oldName) == nil else {
            return refuse(
                "Cannot rename property '\(className).\(oldName)' to '\(newName)' because the source property still exists."
            )
        }
        guard Self.sameShape(old, wanted) else {
            return refuse(
                "Cannot rename property '\(className).\(oldName)' to '\(newName)' because it would change from type "
                    + "'\(old.typeSyntax)' to '\(wanted.typeSyntax)'."
            )
        }
        session.perform { (t) throws(WriteError) in
            if t.schema[className]?.property(named: newName) != nil { try t.removeProperty(newName, from: className) }
            try t.renameProperty(oldName, to: newName, in: className)
        }
        forgetPendingRemoval(className, oldName)
    }

    /// Same type, collection and optionality (indexes are reconciled after the block).
    private static func sameShape(_ a: RQLCore.Property, _ b: RQLCore.Property) -> Bool {
        a.type == b.type && a.collection == b.collection && a.isOptional == b.isOptional
    }

    /// Sets each object's `property` from the old version (a null skipped: the property then
    /// keeps its default), one storage block of keys at a time.
    private func copyValues(of property: String, in className: String, from before: StoreVersion) throws(Realm.Error) {
        guard let table = before.table(named: className),
            let column = table.objectSchema.propertyIndex(named: property)
        else { return }
        var start = 0
        while start < table.rowCount {
            let end = min(start + TableBlock.capacity, table.rowCount)
            for position in start..<end {
                let value = table.value(at: position, property: column)
                guard value != .null else { continue }
                let link = ObjectLink(className: className, key: table.rowKey(at: position))
                try perform { (t) throws(WriteError) in try t.set(property, of: link, to: value) }
            }
            start = end
        }
    }
}
