import RQLBytecode
import RQLCore

/// SORT, DISTINCT and LIMIT (realm-core's `DescriptorOrdering`), each applied to the result of
/// the previous one.
extension RowEvaluator {
    typealias KeyValue = SortKeyValue

    /// A stable sort on every key in turn, values in `ValueOrdering` (nulls first ascending);
    /// an object whose key path crosses a null link sorts after every value ascending and before
    /// every value descending.
    func sort(_ rows: [ObjectRef], by keys: [RowSortKey]) -> [ObjectRef] {
        let decorated = rows.enumerated().map { offset, row in
            (offset: offset, row: row, keys: keys.map { keyValue(of: $0.path, for: row) })
        }
        let sorted = decorated.sorted { a, b in
            for (index, key) in keys.enumerated() {
                var order = Self.compare(a.keys[index], b.keys[index], caseInsensitive: key.caseInsensitive)
                if !key.ascending { order = -order }
                if order != 0 { return order < 0 }
            }
            return a.offset < b.offset  // stability
        }
        return sorted.map(\.row)
    }

    /// Keeps the first object of each distinct tuple (`ValueOrdering.isSameForDistinct`, so
    /// nulls are one value and `1 == 1.0`); objects whose path crosses a null link are dropped.
    /// Tuples are hashed by `EqualityKey`, whose equality is exactly that sameness (numbers by
    /// value across types, NaNs alike, strings by bytes), so each row costs one lookup.
    func distinct(_ rows: [ObjectRef], by paths: [RowPath]) -> [ObjectRef] {
        var kept: [ObjectRef] = []
        var seen: Set<[EqualityKey]> = []
        for row in rows {
            var tuple: [EqualityKey] = []
            for path in paths {
                guard case .value(let value) = keyValue(of: path, for: row) else { break }
                tuple.append(EqualityKey(value))
            }
            guard tuple.count == paths.count else { continue }
            if seen.insert(tuple).inserted { kept.append(row) }
        }
        return kept
    }

    /// Walks a sort/distinct path (to-one links, then a value or a dictionary entry). A null
    /// link met before the last step means the object has no key; a null link as the last step
    /// is a null value. A path that reaches several values keeps the first.
    func keyValue(of path: RowPath, for row: ObjectRef) -> KeyValue {
        var items = start(path.root, in: Context(object: row, memberships: MembershipSets()))
        for (index, step) in path.steps.enumerated() {
            items = items.flatMap { apply(step, to: $0) }
            let isLast = index == path.steps.count - 1
            if !isLast, items.contains(where: { if case .nullLink = $0 { true } else { false } }) {
                return .crossesNullLink
            }
        }
        switch items.first {
        case .object(let object)?: return .value(.link(object.link))
        case .value(let value)?: return .value(value)
        case .collection(let collection)?: return .value(collection.contents)
        case .nullLink?, nil: return .value(.null)
        }
    }

    /// Ascending order of two keys: values by `ValueOrdering`, a crossed null link last.
    static func compare(_ a: KeyValue, _ b: KeyValue, caseInsensitive: Bool = false) -> Int {
        SortKeyValue.compare(a, b, caseInsensitive: caseInsensitive)
    }
}

/// The value of a sort or distinct key for one object (outside the generic evaluator, so that
/// arrays of them are plain arrays in every specialization).
enum SortKeyValue {
    /// The path reached this value (null when the value itself is null).
    case value(Value)
    /// A to-one link before the last step was null, so there is no value at all.
    case crossesNullLink

    /// Ascending order of two keys: values by `ValueOrdering`, a crossed null link last.
    static func compare(_ a: SortKeyValue, _ b: SortKeyValue, caseInsensitive: Bool = false) -> Int {
        switch (a, b) {
        case (.crossesNullLink, .crossesNullLink): 0
        case (.crossesNullLink, .value): 1
        case (.value, .crossesNullLink): -1
        case (.value(let x), .value(let y)): ValueOrdering.compare(x, y, caseInsensitive: caseInsensitive)
        }
    }
}
