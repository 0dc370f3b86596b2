import RQLBytecode
import RQLCore

/// The value of a SORT or DISTINCT key for one object.
enum ResultKey {
    /// The path reached this value (null when the value itself is null).
    case value(Value)
    /// A to-one link before the last step was null, so there is no value at all.
    case crossesNullLink

    /// Ascending order of two keys: values by `ValueOrdering`, a crossed null link last.
    static func compare(_ a: ResultKey, _ b: ResultKey, caseInsensitive: Bool = false) -> Int {
        switch (a, b) {
        case (.crossesNullLink, .crossesNullLink): 0
        case (.crossesNullLink, .value): 1
        case (.value, .crossesNullLink): -1
        case (.value(let x), .value(let y)): ValueOrdering.compare(x, y, caseInsensitive: caseInsensitive)
        }
    }
}

/// Sort and distinct keys that are not a plain column of the class (`owner.age`, `dict['a']`,
/// `mixed['k']`): read object by object, step by step, with the reference evaluator's rules
/// for key paths (`ReferenceEvaluator.keyValue`): a null link before the last step means no
/// key, a null link as the last step is a null value, and a path reaching several things keeps
/// the first. The binder allows only to-one steps in a key path, so each walk is short.
extension Execution {

    /// The key `path` gives the object at `position` of `table`.
    func keyValue(of path: BoundPath, table: Store.Table, position: Int) -> ResultKey {
        // A key path starts at the object; no SUBQUERY element is in scope.
        guard path.root == .object else { return .value(.null) }
        var items: [PathItem] = [.object(table, position)]
        for (index, step) in path.steps.enumerated() {
            items = items.flatMap { apply(step, to: $0) }
            let isLast = index == path.steps.count - 1
            if !isLast, items.contains(where: { if case .nullLink = $0 { true } else { false } }) {
                return .crossesNullLink
            }
        }
        switch items.first {
        case .object(let table, let position)?:
            return .value(.link(ObjectLink(className: table.objectSchema.name, key: table.rowKey(at: position))))
        case .value(let value)?: return .value(value)
        case .collection(let contents, _)?: return .value(contents)
        case .nullLink?, nil: return .value(.null)
        }
    }
}
