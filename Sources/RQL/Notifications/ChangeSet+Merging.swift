import RQLCore
import RQLStorage

// Change sets over several commits. A notifier that missed commits (it was not scheduled in
// between, or other writers were faster) gets one change set for all of them: the commits
// coalesce. Another process's commits are known from the commit log records the store applied
// (`BlockStore.refreshedChanges`); when a commit's change set is not known (it was read as a
// checkpoint), the changes are found by comparing the two versions' tables.

extension ChangeSet {
    /// This change set followed by `later`: what changed from before this one to after `later`.
    ///
    /// ```swift
    /// first.merged(with: second).classes["Dog"]?.inserted  // inserted by either, not deleted by second
    /// ```
    ///
    /// Keys are never reused, so an object inserted by one and deleted by the other is in
    /// neither list, and one modified then deleted is only deleted.
    func merged(with later: ChangeSet) -> ChangeSet {
        var classes = self.classes
        for (name, next) in later.classes {
            guard let earlier = classes[name] else {
                classes[name] = next
                continue
            }
            classes[name] = earlier.merged(with: next)
        }
        return ChangeSet(
            version: later.version,
            classes: classes.filter { !$0.value.isEmpty },
            schemaChanged: schemaChanged || later.schemaChanged
        )
    }

    /// The changes between two versions of a store, found by comparing the tables of
    /// `classes`: objects by key, then each common object's properties by name. Costs a pass
    /// over those tables; used only when the commits' own change sets are not known.
    static func between(_ old: BlockSnapshot, _ new: BlockSnapshot, classes: Set<String>) -> ChangeSet {
        var result = ChangeSet(version: new.version, schemaChanged: old.schema != new.schema)
        for name in classes {
            let before = old.table(named: name)
            let after = new.table(named: name)
            var changes = ChangeSet.ClassChanges()
            let oldKeys = before?.allKeys ?? []
            let newKeys = after?.allKeys ?? []
            let diff = KeyDiff.ascending(old: oldKeys, new: newKeys)
            changes.deleted = diff.deletions.map { oldKeys[$0] }
            changes.inserted = diff.insertions.map { newKeys[$0] }
            if let before, let after {
                let names = after.objectSchema.properties.filter { !$0.isBacklink }.map(\.name)
                let pairs: [(old: Int?, new: Int)] = names.indices.map { index in
                    (
                        before.objectSchema.propertyIndex(named: names[index]),
                        after.objectSchema.propertyIndex(named: names[index]) ?? 0
                    )
                }
                for kept in diff.kept {
                    var changed: Set<String> = []
                    for (index, pair) in pairs.enumerated() {
                        guard let oldProperty = pair.old else {
                            changed.insert(names[index])
                            continue
                        }
                        if before.value(at: kept.old, property: oldProperty)
                            != after.value(at: kept.new, property: pair.new)
                        {
                            changed.insert(names[index])
                        }
                    }
                    if !changed.isEmpty { changes.modified[oldKeys[kept.old]] = changed }
                }
            }
            if !changes.isEmpty { result.classes[name] = changes }
        }
        return result
    }
}

extension ChangeSet.ClassChanges {
    /// These changes followed by `later`'s, for one class.
    func merged(with later: ChangeSet.ClassChanges) -> ChangeSet.ClassChanges {
        let laterDeleted = Set(later.deleted)
        let earlierInserted = Set(inserted)
        var merged = ChangeSet.ClassChanges()
        merged.inserted = (inserted.filter { !laterDeleted.contains($0) } + later.inserted).sorted()
        merged.deleted = (deleted + later.deleted.filter { !earlierInserted.contains($0) }).sorted()
        merged.modified = modified.filter { !laterDeleted.contains($0.key) }
        for (key, properties) in later.modified where !earlierInserted.contains(key) {
            merged.modified[key, default: []].formUnion(properties)
        }
        return merged
    }
}
