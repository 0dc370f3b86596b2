import RQLCore
import RQLEngine
import RQLStorage

/// The order of results sorted by properties stored in the object's own row, as the engine
/// sorts them: by each sort key in turn (`ValueOrdering`, case folded when asked), ties in
/// table order, which is ascending key order. With it a notifier finds an object in sorted
/// keys, or the place where it belongs, by binary search, reading only the rows it compares.
///
/// ```swift
/// let order = RowOrder(plan, schema: schema)   // dogs.filter("age > 2").sorted(byKeyPath: "name")
/// order?.index(of: rex, in: keys, table: version.table(named: "Dog")!)   // rex's index, or nil
/// ```
///
/// Plans with a distinct, a limit, more than one sort, or a sort key through a link or over a
/// collection have no `RowOrder` (their notifiers run the query again).
struct RowOrder {
    struct Key {
        let property: Int
        let ascending: Bool
        let caseInsensitive: Bool
    }

    let keys: [Key]

    /// The order of `plan`, when it is filters and one sort by own scalar properties.
    init?(_ plan: LogicalPlan, schema: RQLCore.Schema) {
        var sortKeys: [BoundSortKey]?
        for op in plan.operators {
            guard case .clause(let clause) = op else { continue }
            guard sortKeys == nil, case .sort(let keys) = clause else { return nil }
            sortKeys = keys
        }
        guard let sortKeys, !sortKeys.isEmpty, let objectSchema = schema[plan.className] else { return nil }
        var keys: [Key] = []
        for key in sortKeys {
            guard key.path.root == .object, key.path.steps.count == 1,
                case .property(let className, let index, _) = key.path.steps[0],
                className == plan.className, objectSchema.properties.indices.contains(index)
            else { return nil }
            let property = objectSchema.properties[index]
            guard property.collection == .single, !property.isLink, !property.isBacklink else { return nil }
            keys.append(Key(property: index, ascending: key.ascending, caseInsensitive: key.caseInsensitive))
        }
        self.keys = keys
    }

    /// The sort values of the object `key` in `table`, or nil when the table has no such object.
    func values(of key: RowKey, in table: BlockTable) -> [RQLCore.Value]? {
        guard let location = table.location(of: key) else { return nil }
        return keys.map { table.value(at: location, property: $0.property) }
    }

    /// Negative, zero or positive as the object (`a`, `aValues`) sorts before, with or after
    /// (`b`, `bValues`); zero only for the same key.
    func compare(_ aValues: [RQLCore.Value], _ a: RowKey, _ bValues: [RQLCore.Value], _ b: RowKey) -> Int {
        for (k, key) in keys.enumerated() {
            var order = ValueOrdering.compare(aValues[k], bValues[k], caseInsensitive: key.caseInsensitive)
            if !key.ascending { order = -order }
            if order != 0 { return order }
        }
        return a == b ? 0 : (a < b ? -1 : 1)
    }

    /// Whether two objects' sort values tie (they keep their relative place in key order).
    func sameValues(_ a: [RQLCore.Value], _ b: [RQLCore.Value]) -> Bool {
        keys.indices.allSatisfy { ValueOrdering.compare(a[$0], b[$0], caseInsensitive: keys[$0].caseInsensitive) == 0 }
    }

    /// The first index of `sorted` (keys in this order, read at `table`) whose object does not
    /// sort before (`key`, `values`).
    func insertionPoint(of key: RowKey, values: [RQLCore.Value], in sorted: [RowKey], table: BlockTable) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            let other = sorted[middle]
            // Every key in `sorted` is in `table`; a missing one would be a broken invariant.
            guard let otherValues = self.values(of: other, in: table) else {
                fatalError("sorted keys hold \(other), which the table does not")
            }
            if compare(otherValues, other, values, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The index of `key` in `sorted` (keys in this order, read at `table`), or nil.
    func index(of key: RowKey, in sorted: [RowKey], table: BlockTable) -> Int? {
        guard let values = values(of: key, in: table) else { return nil }
        let index = insertionPoint(of: key, values: values, in: sorted, table: table)
        return index < sorted.count && sorted[index] == key ? index : nil
    }
}
