import RQLCore
import RQLEngine

/// What a results' plan reads, so that a notifier knows which commits can change its
/// membership: the classes its key paths go through, and whether it reads nothing but the
/// object's own row (then a commit can only change whether the objects it touched match, and
/// the notifier tests just those instead of running the query again).
///
/// ```swift
/// let reads = PlanReads(plan, schema: schema)   // dogs.filter("owner.name == 'Ann'")
/// reads.classes        // ["Dog", "Person"]
/// reads.ownRowOnly     // false: it follows a link
/// reads.isKeyOrdered   // true: filters only, so the results are in key order
/// ```
struct PlanReads {
    /// The classes whose changes may change which objects match, or their order.
    private(set) var classes: Set<String>
    /// Whether the plan reads only properties stored in the object's own row (no links, no
    /// backlinks, no subqueries over objects).
    private(set) var ownRowOnly = true
    /// Whether the results come in ascending key order (filters only: no sort, distinct, limit).
    let isKeyOrdered: Bool

    init(_ plan: LogicalPlan, schema: RQLCore.Schema) {
        classes = [plan.className]
        isKeyOrdered = plan.operators.allSatisfy {
            if case .filter = $0 { return true }
            return false
        }
        // The bound IR is a tree of small enums and structs; every key path in it is a list of
        // `PathStep`s. Walked with an explicit stack (the tree's depth is the user's query's).
        var stack: [Any] = plan.operators.map { $0 as Any }
        while let node = stack.popLast() {
            if let step = node as? PathStep {
                note(step, schema: schema, root: plan.className)
                continue
            }
            if node is RQLCore.Value || node is String { continue }
            for child in Mirror(reflecting: node).children { stack.append(child.value) }
        }
    }

    private mutating func note(_ step: PathStep, schema: RQLCore.Schema, root: String) {
        switch step {
        case .property(let className, let index, _):
            classes.insert(className)
            if className != root { ownRowOnly = false }
            guard let property = schema[className]?.properties[safe: index] else {
                ownRowOnly = false
                return
            }
            if let target = property.type.targetClassName {
                classes.insert(target)
                ownRowOnly = false
            }
        case .backlinks(let className, _):
            classes.insert(className)
            ownRowOnly = false
        case .index, .first, .last, .all, .key, .keys, .values:
            break
        }
    }
}

extension Array {
    /// The element at `index`, or nil outside the array.
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
