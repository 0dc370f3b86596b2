import RQLCore

/// What one commit changed: per class, the keys of the objects inserted, deleted and modified,
/// and for each modified object the names of the properties that changed. Live results and
/// notifications are built on it.
///
/// An object inserted in the transaction is only `inserted`, however often it was changed after;
/// one inserted and deleted in the same transaction does not appear; a modified object that is
/// then deleted is only `deleted`. Objects whose links were nulled or removed by a deletion's
/// cascade are modified (the link property changed). Property names are those of the new schema.
///
/// ```swift
/// let result = try transaction.commit()
/// result.changes.classes["Dog"]?.inserted          // [O7]
/// result.changes.classes["Dog"]?.modified[O3]      // ["age"]
/// ```
public struct ChangeSet: Hashable, Sendable {
    /// The changes to one class's objects.
    public struct ClassChanges: Hashable, Sendable {
        /// Keys of new objects, ascending.
        public var inserted: [RowKey] = []
        /// Keys of deleted objects that existed before the transaction, ascending.
        public var deleted: [RowKey] = []
        /// Objects that existed before and after, with the properties written.
        public var modified: [RowKey: Set<String>] = [:]

        public init() {}

        /// The modified keys, ascending.
        public var modifiedKeys: [RowKey] { modified.keys.sorted() }

        public var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }
    }

    /// The version the commit produced.
    public var version: UInt64
    /// Per class name, for the classes whose objects changed.
    public var classes: [String: ClassChanges]
    /// Whether the schema changed (classes or properties added, removed or renamed; indexes).
    public var schemaChanged: Bool

    public init(version: UInt64, classes: [String: ClassChanges] = [:], schemaChanged: Bool = false) {
        self.version = version
        self.classes = classes
        self.schemaChanged = schemaChanged
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { !schemaChanged && classes.values.allSatisfy(\.isEmpty) }
}

/// Collects a transaction's changes as it goes, applying the rules of `ChangeSet`.
struct ChangeRecorder {
    private var inserted: [String: Set<RowKey>] = [:]
    /// Bulk insertions, as key ranges (a million keys need no set until the commit).
    private var insertedRanges: [String: [Range<Int64>]] = [:]
    /// Keys of `insertedRanges` deleted again.
    private var cancelled: [String: Set<RowKey>] = [:]
    private var deleted: [String: Set<RowKey>] = [:]
    private var modified: [String: [RowKey: Set<String>]] = [:]
    /// False once `forgetModifications()` ran.
    private var recordsModifications = true
    var schemaChanged = false

    /// The number of objects recorded as modified (tests check a migration records none).
    var modifiedCount: Int { modified.values.reduce(0) { $0 + $1.count } }

    /// Stops recording modifications, forgets those recorded, and says the schema changed (so
    /// every observer reads again instead of relying on the records).
    mutating func forgetModifications() {
        recordsModifications = false
        modified = [:]
        schemaChanged = true
    }

    mutating func insert(_ className: String, _ key: RowKey) {
        inserted[className, default: []].insert(key)
    }

    mutating func insert(_ className: String, keys: Range<Int64>) {
        if !keys.isEmpty { insertedRanges[className, default: []].append(keys) }
    }

    private func isInserted(_ className: String, _ key: RowKey) -> Bool {
        if inserted[className]?.contains(key) == true { return true }
        guard let ranges = insertedRanges[className], ranges.contains(where: { $0.contains(key.rawValue) }) else {
            return false
        }
        return cancelled[className]?.contains(key) != true
    }

    mutating func modify(_ className: String, _ key: RowKey, _ property: String) {
        guard recordsModifications, !isInserted(className, key) else { return }
        modified[className, default: [:]][key, default: []].insert(property)
    }

    mutating func delete(_ className: String, _ key: RowKey) {
        if inserted[className]?.remove(key) != nil { return }
        if isInserted(className, key) {
            cancelled[className, default: []].insert(key)
            return
        }
        modified[className]?[key] = nil
        deleted[className, default: []].insert(key)
    }

    mutating func renameProperty(_ className: String, from old: String, to new: String) {
        schemaChanged = true
        guard var objects = modified[className] else { return }
        for (key, var properties) in objects where properties.remove(old) != nil {
            properties.insert(new)
            objects[key] = properties
        }
        modified[className] = objects
    }

    mutating func removeProperty(_ className: String, _ property: String) {
        schemaChanged = true
        guard var objects = modified[className] else { return }
        for (key, var properties) in objects where properties.remove(property) != nil {
            objects[key] = properties.isEmpty ? nil : properties
        }
        modified[className] = objects
    }

    /// A removed class: objects inserted in this transaction vanish, the rest were deleted
    /// (already recorded one by one).
    mutating func removeClass(_ className: String) {
        schemaChanged = true
        inserted[className] = nil
        insertedRanges[className] = nil
        cancelled[className] = nil
        modified[className] = nil
    }

    func changeSet(version: UInt64) -> ChangeSet {
        // Each class once, from whichever record names it first: a single-object commit names
        // one class in one record, and builds no set of names.
        var classes: [String: ChangeSet.ClassChanges] = [:]
        func add(_ name: String) {
            guard classes[name] == nil else { return }
            var changes = ChangeSet.ClassChanges()
            if let keys = inserted[name] { changes.inserted = keys.count == 1 ? Array(keys) : keys.sorted() }
            if let ranges = insertedRanges[name] {
                let gone = cancelled[name] ?? []
                for range in ranges {
                    changes.inserted.append(contentsOf: range.lazy.map(RowKey.init).filter { !gone.contains($0) })
                }
                changes.inserted.sort()
            }
            if let keys = deleted[name] { changes.deleted = keys.count == 1 ? Array(keys) : keys.sorted() }
            if let objects = modified[name] { changes.modified = objects }
            // An empty entry is stored too, so the name is not looked at again.
            classes[name] = changes
        }
        for name in inserted.keys { add(name) }
        for name in insertedRanges.keys { add(name) }
        for name in deleted.keys { add(name) }
        for name in modified.keys { add(name) }
        if classes.contains(where: { $0.value.isEmpty }) { classes = classes.filter { !$0.value.isEmpty } }
        return ChangeSet(version: version, classes: classes, schemaChanged: schemaChanged)
    }
}
