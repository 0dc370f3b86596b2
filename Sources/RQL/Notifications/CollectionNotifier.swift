import RQLCore
import RQLStorage

/// The observation of a collection (`Results`, `List`, `MutableSet`, `LinkingObjects`,
/// sectioned results, a map's values): its elements are a `Results` (the collection's
/// `_rqlResults`), whose keys it keeps from one delivery to the next.
///
/// A commit is handled at the cost it deserves:
/// - it touched no class the collection watches: nothing is run, nothing delivered;
/// - it touched only classes its objects link to (not what decides membership): the keys stay,
///   and only modifications are looked for, from the change set (`ObservedPaths`);
/// - the results are a filter of a whole class reading only the objects' own rows
///   (`PlanReads.ownRowOnly`) and in key order: only the objects the commit inserted or
///   modified are tested, and deletions and insertions are found by binary search: the cost
///   follows the change, not the results;
/// - the same filter sorted by the objects' own properties (`RowOrder`): the objects the
///   commit touched are tested, taken out where their old values placed them and put back
///   where their new values place them, by binary search; an object whose sort values changed
///   is a deletion plus an insertion, as Realm reports a move;
/// - otherwise, and when a commit touched more than a fraction of sorted results
///   (`isLargeChange`), the compiled query runs again and the old and new keys are diffed
///   (`KeyDiff`).
// Unchecked: as `Notifier`; the fields it adds are `let`s or delivery state.
final class CollectionNotifier<Element: RealmCollectionValue, C>: Notifier, @unchecked Sendable {
    private let results: Results<Element>
    /// The collection handed to the block, made from its elements' results (the live ones, or
    /// frozen ones at the delivered version).
    private let make: (Results<Element>) -> C
    private let block: (RealmCollectionChange<C>) -> Void
    /// What counts as a modification of an element (nil for plain values).
    private let paths: ObservedPaths?
    /// Classes whose changes may change which elements there are, or their order.
    private let membership: Set<String>
    /// `membership` and every class a modification may come from.
    private let watched: Set<String>
    /// Whether a commit can be applied to the old keys by testing only the objects it touched.
    private let isIncremental: Bool
    /// Whether the keys are in ascending order.
    private let isKeyOrdered: Bool
    /// The sort order of sorted results that a commit can be applied to by binary search.
    private let order: RowOrder?
    /// The plain values' owner property (nil for objects).
    private let valuesOwner: (className: String, property: String)?
    private var compiled: QueryExecution.CompiledPlan?
    /// The keys (for plain values: the values) at `delivered`.
    private var keys: [RowKey] = []
    private var values: [RQLCore.Value] = []
    /// How often the query ran over all candidates, and over the objects a commit touched only
    /// (tests check that a commit costs what it should).
    private(set) var fullRuns = 0
    private(set) var partialRuns = 0

    init(
        results: Results<Element>,
        keyPaths: [String]?,
        delivery: Delivery,
        make: @escaping (Results<Element>) -> C,
        block: @escaping (RealmCollectionChange<C>) -> Void
    ) throws(Realm.Error) {
        let context = results.context
        let version = context.current
        self.results = results
        self.make = make
        self.block = block
        switch results.source {
        case .values(_, let owner, let ordinal):
            paths = nil
            valuesOwner = (owner.classInfo.className, owner.classInfo.properties[ordinal].name)
            membership = [owner.classInfo.className]
            isIncremental = false
            isKeyOrdered = false
            order = nil
        case .table(let info), .collection(let info, _, _):
            let paths = try ObservedPaths(keyPaths, className: info.className, schema: version.schema)
            let reads = PlanReads(results.plan, schema: version.schema)
            var membership = reads.classes
            if case .collection(_, let owner, _) = results.source { membership.insert(owner.classInfo.className) }
            self.paths = paths
            self.membership = membership
            valuesOwner = nil
            if case .table = results.source {
                isKeyOrdered = reads.isKeyOrdered
                isIncremental = reads.isKeyOrdered && reads.ownRowOnly
                order = reads.ownRowOnly ? RowOrder(results.plan, schema: version.schema) : nil
            } else {
                isKeyOrdered = false
                isIncremental = false
                order = nil
            }
        }
        watched = membership.union(paths?.classes ?? [])
        let hub = context.coordinator.notifiers
        super.init(hub: hub, delivery: delivery, at: delivery.isThread ? version : hub.newest)
    }

    // MARK: Evaluation

    /// The elements' results at `version`: the live ones when the observing realm reads that
    /// version now, else frozen ones at it.
    private func results(at version: StoreVersion) -> Results<Element> {
        if case .thread(let context, _) = delivery, context.current === version { return results }
        return results.rebound(to: results.context.frozen(at: version))
    }

    /// Runs the query at `version` (reusing the compiled plan).
    private func evaluate(_ target: Results<Element>) -> [RowKey] {
        if target.state.compiled == nil, let compiled { target.state.compiled = compiled }
        let keys = target.evaluate().keys
        fullRuns += 1
        compiled = target.state.compiled
        if valuesOwner != nil { values = keys.map { target.state.elements[Int($0.rawValue)] } }
        return keys
    }

    override func begin() {
        let target = results(at: delivered)
        keys = evaluate(target)
        guard !isInvalidated else { return }
        block(.initial(make(target)))
    }

    override func step(to version: StoreVersion, notify: Bool) {
        let changes = changes(to: version, classes: watched)
        let touched = changes.schemaChanged || watched.contains { changes.classes[$0] != nil }
        guard touched else {
            moved(to: version)
            return
        }
        let target = results(at: version)
        let membershipTouched = changes.schemaChanged || membership.contains { changes.classes[$0] != nil }
        let update: (deletions: [Int], insertions: [Int], modifications: [Int])
        if let valuesOwner {
            guard membershipTouched, ownerChanged(changes, valuesOwner) else {
                moved(to: version)
                return
            }
            let old = values
            _ = evaluate(target)
            update = Self.valueDiff(old: old, new: values)
        } else if !membershipTouched {
            target.prime(version: version, keys: keys)
            update = ([], [], modificationsInPlace(changes, version))
        } else if isIncremental && !changes.schemaChanged {
            update = applyIncrementally(changes, version, target)
        } else if let order, !changes.schemaChanged, let sorted = applySorted(order, changes, version, target) {
            update = sorted
        } else {
            let old = keys
            keys = evaluate(target)
            let diff = isKeyOrdered ? KeyDiff.ascending(old: old, new: keys) : KeyDiff.ordered(old: old, new: keys)
            let modified = paths?.modified(by: changes, in: version.snapshot) ?? [:]
            let modifications: [Int] =
                modified.isEmpty ? [] : diff.kept.compactMap { modified[old[$0.old]] != nil ? $0.old : nil }
            update = (diff.deletions, diff.insertions, modifications)
        }
        moved(to: version)
        guard notify, !isInvalidated,
            !(update.deletions.isEmpty && update.insertions.isEmpty && update.modifications.isEmpty)
        else { return }
        block(
            .update(
                make(target),
                deletions: update.deletions,
                insertions: update.insertions,
                modifications: update.modifications
            )
        )
    }

    /// Whether the plain values' owner property changed.
    private func ownerChanged(_ changes: ChangeSet, _ owner: (className: String, property: String)) -> Bool {
        if changes.schemaChanged { return true }
        guard let own = changes.classes[owner.className] else { return false }
        if case .values(_, let accessor, _) = results.source {
            if own.deleted.contains(accessor.key) { return true }
            return own.modified[accessor.key]?.contains(owner.property) ?? false
        }
        return true
    }

    /// The elements' indices whose objects `changes` modified, membership unchanged.
    private func modificationsInPlace(_ changes: ChangeSet, _ version: StoreVersion) -> [Int] {
        guard let modified = paths?.modified(by: changes, in: version.snapshot), !modified.isEmpty else { return [] }
        if isKeyOrdered {
            return modified.keys.compactMap { keys.binarySearch($0) }.sorted()
        }
        return keys.indices.filter { modified[keys[$0]] != nil }
    }

    /// Applies a commit to key-ordered results of a whole class whose query reads only the
    /// objects' own rows: only the objects it inserted or modified are tested against the
    /// query, and the indices are found by binary search.
    private func applyIncrementally(
        _ changes: ChangeSet,
        _ version: StoreVersion,
        _ target: Results<Element>
    ) -> (deletions: [Int], insertions: [Int], modifications: [Int]) {
        let own = changes.classes[results.classInfo.className] ?? ChangeSet.ClassChanges()
        let modifiedKeys = own.modifiedKeys
        let candidates = Self.mergeAscending(own.inserted, modifiedKeys)
        if compiled == nil { compiled = QueryExecution.compile(results.plan, on: version) }
        let matching = Set(compiled.map { QueryExecution.run($0, on: version, restrictedTo: candidates) } ?? [])
        partialRuns += 1
        var removed: [RowKey] = own.deleted.filter { keys.binarySearch($0) != nil }
        var added: [RowKey] = own.inserted.filter { matching.contains($0) }
        for key in modifiedKeys {
            let wasIn = keys.binarySearch(key) != nil
            let isIn = matching.contains(key)
            if wasIn && !isIn { removed.append(key) }
            if !wasIn && isIn { added.append(key) }
        }
        removed.sort()
        added.sort()
        // Indices in the old keys first: deletions, and modifications of objects that stay.
        let deletions = removed.compactMap { keys.binarySearch($0) }
        let removedSet = Set(removed)
        let modified = paths?.modified(by: changes, in: version.snapshot) ?? [:]
        let modifications = modified.keys.filter { !removedSet.contains($0) }.compactMap { keys.binarySearch($0) }
            .sorted()
        releaseLiveKeys()
        if removed.count + added.count <= Self.inPlaceLimit {
            // A few rows: moved in place (one memmove each), not copied one by one.
            for index in deletions.reversed() { keys.remove(at: index) }
            for key in added { keys.insert(key, at: keys.insertionPoint(of: key)) }
        } else {
            var remaining: [RowKey] = []
            remaining.reserveCapacity(keys.count - removed.count + added.count)
            var r = 0
            for key in keys {
                if r < removed.count, removed[r] == key {
                    r += 1
                } else {
                    remaining.append(key)
                }
            }
            keys = Self.mergeAscending(remaining, added)
        }
        let insertions = added.compactMap { keys.binarySearch($0) }
        target.prime(version: version, keys: keys)
        return (deletions, insertions, modifications)
    }

    /// Applies a commit to sorted results of a whole class whose query and sort read only the
    /// objects' own rows: the objects the commit inserted or modified are tested against the
    /// query; each object that leaves, or whose sort values changed, is found in the old keys
    /// with its old values, and each that enters or moves is placed with its new values, by
    /// binary search. An object that moved but passed no other object stays (as the full diff
    /// keeps it). Nil when the commit touched too many objects for that to pay
    /// (`isLargeChange`): the caller runs the query again.
    private func applySorted(
        _ order: RowOrder,
        _ changes: ChangeSet,
        _ version: StoreVersion,
        _ target: Results<Element>
    ) -> (deletions: [Int], insertions: [Int], modifications: [Int])? {
        let className = results.classInfo.className
        let own = changes.classes[className] ?? ChangeSet.ClassChanges()
        guard !Self.isLargeChange(own.inserted.count + own.deleted.count + own.modified.count, of: keys.count),
            let oldTable = delivered.table(named: className), let newTable = version.table(named: className)
        else { return nil }
        let modifiedKeys = own.modifiedKeys
        let candidates = Self.mergeAscending(own.inserted, modifiedKeys)
        if compiled == nil { compiled = QueryExecution.compile(results.plan, on: version) }
        let matching = Set(compiled.map { QueryExecution.run($0, on: version, restrictedTo: candidates) } ?? [])
        partialRuns += 1
        // Old indices of the objects taken out; the objects put back, with their new values;
        // the objects in both (their sort values changed), with their old indices.
        var removed: [Int] = own.deleted.compactMap { order.index(of: $0, in: keys, table: oldTable) }
        var added: [(key: RowKey, values: [RQLCore.Value])] = []
        var moved: [RowKey: Int] = [:]
        for key in own.inserted where matching.contains(key) {
            if let values = order.values(of: key, in: newTable) { added.append((key, values)) }
        }
        for key in modifiedKeys {
            let oldIndex = order.index(of: key, in: keys, table: oldTable)
            guard matching.contains(key), let values = order.values(of: key, in: newTable) else {
                if let oldIndex { removed.append(oldIndex) }
                continue
            }
            if let oldIndex {
                guard let oldValues = order.values(of: key, in: oldTable), !order.sameValues(oldValues, values)
                else { continue }
                removed.append(oldIndex)
                moved[key] = oldIndex
            }
            added.append((key, values))
        }
        removed.sort()
        // Modified objects of the old keys that did not leave, by old index (read before the
        // keys change; those that moved and do not stay are dropped below).
        let left = Set(removed.map { keys[$0] }).subtracting(moved.keys)
        let modified = paths?.modified(by: changes, in: version.snapshot) ?? [:]
        var modifiedOld: [(key: RowKey, index: Int)] = modified.keys.filter { !left.contains($0) }.compactMap { key in
            order.index(of: key, in: keys, table: oldTable).map { (key, $0) }
        }
        releaseLiveKeys()
        for index in removed.reversed() { keys.remove(at: index) }
        // What stays is in the order of the new values too (its sort values did not change).
        for (key, values) in added {
            keys.insert(key, at: order.insertionPoint(of: key, values: values, in: keys, table: newTable))
        }
        let placed = added.compactMap { item in
            order.index(of: item.key, in: keys, table: newTable).map { (item.key, $0) }
        }
        var inserted = placed.map(\.1).sorted()
        let staying = Self.staying(moved, placed: placed, removed: removed, inserted: inserted)
        if !staying.isEmpty {
            removed.removeAll { staying.old.contains($0) }
            inserted.removeAll { staying.new.contains($0) }
        }
        modifiedOld.removeAll { moved[$0.key] != nil && !staying.old.contains($0.index) }
        target.prime(version: version, keys: keys)
        return (removed, inserted, modifiedOld.map(\.index).sorted())
    }

    /// Of the objects whose sort values changed (`moved`: key → old index), those that passed
    /// no object that stayed put, and not each other either (a longest increasing run, as
    /// `KeyDiff.ordered` keeps): their old and new indices. `removed` and `inserted` are every
    /// old index taken out and new index put in, ascending.
    private static func staying(
        _ moved: [RowKey: Int],
        placed: [(RowKey, Int)],
        removed: [Int],
        inserted: [Int]
    ) -> (old: Set<Int>, new: Set<Int>, isEmpty: Bool) {
        guard !moved.isEmpty else { return ([], [], true) }
        // An object's rank among the objects that stayed put: its index less the objects before
        // it that were taken out (in the old keys) or put in (in the new).
        var candidates: [(old: Int, new: Int)] = []
        for (key, new) in placed {
            guard let old = moved[key] else { continue }
            if old - removed.insertionPoint(old) == new - inserted.insertionPoint(new) {
                candidates.append((old, new))
            }
        }
        candidates.sort { $0.old < $1.old }
        let run = KeyDiff.longestIncreasingRun(candidates.map(\.new))
        let old = Set(run.map { candidates[$0].old })
        let new = Set(run.map { candidates[$0].new })
        return (old, new, run.isEmpty)
    }

    /// Whether a commit that touched `touched` objects of the results' class is better handled
    /// by running the query again than object by object (each costs a few binary searches).
    static func isLargeChange(_ touched: Int, of resultCount: Int) -> Bool {
        touched > Swift.max(inPlaceLimit, resultCount / 16)
    }

    /// The live results still hold the keys primed at the last delivery: lets go of them, so
    /// that editing `keys` moves them in place instead of copying them all.
    private func releaseLiveKeys() {
        guard results.state.version === delivered else { return }
        results.state.version = nil
        results.state.keys = []
    }

    /// Up to this many rows removed and added, the keys are edited in place.
    static var inPlaceLimit: Int { 64 }

    /// Two ascending key lists merged into one (no key is in both).
    static func mergeAscending(_ a: [RowKey], _ b: [RowKey]) -> [RowKey] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        var merged: [RowKey] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                merged.append(a[i])
                i += 1
            } else {
                merged.append(b[j])
                j += 1
            }
        }
        return merged
    }

    /// Plain values have no identity: the common prefix and suffix stay, the rest of the old
    /// values are deleted and the rest of the new ones inserted.
    static func valueDiff(old: [RQLCore.Value], new: [RQLCore.Value]) -> ([Int], [Int], [Int]) {
        let (prefix, suffix) = KeyDiff.commonEnds(old, new)
        return (Array(prefix..<(old.count - suffix)), Array(prefix..<(new.count - suffix)), [])
    }
}

extension Delivery {
    var isThread: Bool {
        if case .thread = self { return true }
        return false
    }
}

extension Array where Element == Int {
    /// The number of elements below `value` in this ascending array.
    fileprivate func insertionPoint(_ value: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element == RowKey {
    /// The index of `key` in this ascending array, or nil.
    func binarySearch(_ key: RowKey) -> Int? {
        let low = insertionPoint(of: key)
        return low < count && self[low] == key ? low : nil
    }

    /// The first index whose key is not below `key` in this ascending array.
    func insertionPoint(of key: RowKey) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
