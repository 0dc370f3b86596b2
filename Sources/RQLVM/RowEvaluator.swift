import RQLBytecode
import RQLCore

/// The VM's row-at-a-time evaluator: `FilterRow` tests its predicate with it, and the result
/// steps read sort and distinct keys with it. It follows the reference evaluator's rules
/// exactly (the same walks, groups, folding of repeated objects and quantifiers, and RQLCore's
/// one implementation of Realm's comparisons), over the bytecode's `RowPredicate` form, so the
/// VM never needs the IR. Nothing here traps on data: a property index out of range, a
/// dangling link or a class the store lacks simply reaches no value.
///
///     let evaluator = RowEvaluator(store: store)
///     evaluator.holds(predicate, table: people, position: 4, memberships: MembershipSets())
struct RowEvaluator<Store: StoreReader> {
    let store: Store

    init(store: Store) {
        self.store = store
    }

    /// Whether `predicate` holds for the row at `position` of `table`.
    func holds(_ predicate: RowPredicate, table: Store.Table, position: Int, memberships: MembershipSets) -> Bool {
        holds(predicate, in: Context(object: ObjectRef(table: table, position: position), memberships: memberships))
    }
}

// MARK: - Evaluation state

extension RowEvaluator {
    /// One object of the store: its table and its position in the current snapshot.
    struct ObjectRef {
        let table: Store.Table
        let position: Int

        var key: RowKey { table.rowKey(at: position) }
        var className: String { table.objectSchema.name }
        var link: ObjectLink { ObjectLink(className: className, key: key) }
    }

    /// What paths start from: the object being tested, and the SUBQUERY elements being tested,
    /// innermost last (`RowPath.Root.element(depth: 0)` is `elements.last`).
    struct Context {
        var object: ObjectRef
        var elements: [ObjectRef] = []
        /// Hash sets of the query's constant lists, shared by every object of one run.
        var memberships: MembershipSets
        /// Whether paths are evaluated as full sequences, every path in order with its repeats,
        /// as an element-wise comparison of two lists needs; otherwise objects met again are
        /// folded (see `walk(_:in:)`).
        var sequences = false

        func element(depth: Int) -> ObjectRef? {
            let index = elements.count - 1 - depth
            guard depth >= 0, index >= 0, index < elements.count else { return nil }
            return elements[index]
        }

        func entering(_ element: ObjectRef) -> Context {
            var inner = self
            inner.elements.append(element)
            inner.sequences = false
            return inner
        }
    }
}

/// The hash sets of `IN` lists, each built the first time it is needed. A list is known by its
/// storage: a bound query does not change while it runs, so one list has one buffer for every
/// object, and the set built from it stays right for the whole run (a new run builds its own).
final class MembershipSets {
    private var sets: [ListIdentity: Set<EqualityKey>] = [:]

    private struct ListIdentity: Hashable {
        let address: UnsafeRawPointer?
        let count: Int
    }

    /// The set of `values`.
    func set(of values: [Value]) -> Set<EqualityKey> {
        set(of: values) { values }
    }

    /// The set of the values of `list` (a list literal of constants and `obj(…)` look-ups),
    /// computed by `values` the first time.
    func set<Element>(of list: [Element], values: () -> [Value]) -> Set<EqualityKey> {
        let identity = list.withUnsafeBufferPointer {
            ListIdentity(address: $0.baseAddress.map(UnsafeRawPointer.init), count: $0.count)
        }
        if let set = sets[identity] { return set }
        let set = Set(values().map(EqualityKey.init))
        sets[identity] = set
        return set
    }
}

// MARK: - Predicates

extension RowEvaluator {
    /// Two-valued logic: a comparison with null is simply true or false, so NOT is a plain negation.
    func holds(_ predicate: RowPredicate, in context: Context) -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .and(let operands):
            for operand in operands where !holds(operand, in: context) { return false }
            return true
        case .or(let operands):
            for operand in operands where holds(operand, in: context) { return true }
            return false
        case .not(let operand):
            return !holds(operand, in: context)
        case .comparison(let comparison):
            return holds(comparison, in: context)
        case .fullText(let path, let query):
            return fullTextHolds(path: path, query: query, in: context)
        case .geoWithin(let path, let quantifier, let region):
            return geoWithinHolds(path: path, quantifier: quantifier, region: region, in: context)
        case .matches(let operand, let pattern):
            // Quantified per group as comparisons are (`holds(_: RowComparison, in:)`).
            let quantifier = operand.quantifier ?? .any
            return groups(of: operand, in: context).contains { values in
                quantifier.holds(over: values) { pattern.matches($0) }
            }
        }
    }
}
