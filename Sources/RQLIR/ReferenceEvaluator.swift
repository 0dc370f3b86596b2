import RQLCore

/// The oracle: evaluates a bound query object by object, in the plainest way possible, reading
/// the store only through the `StoreReader` / `TableReader` protocols and deciding every
/// comparison with RQLCore's one implementation of Realm's rules. Faster executors are tested
/// against it; it has no shortcuts that could hide a semantic bug.
///
///     let keys = ReferenceEvaluator(store: store).run(bound)   // row keys, after SORT/DISTINCT/LIMIT
///     let n = ReferenceEvaluator(store: store).count(bound)    // matches, clauses ignored
///
/// Every operand is evaluated to a sequence of values (one for a single-valued operand), then
/// compared under `BoundComparison`'s quantifier rules. Nothing here traps on data: a property
/// index out of range, a dangling link or a class the store lacks simply reaches no value.
public struct ReferenceEvaluator<Store: StoreReader> {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// The keys of the objects of `query.className` that match, in table order, then shaped by
    /// the query's clauses left to right.
    public func run(_ query: BoundQuery) -> [RowKey] {
        var rows = matchingObjects(query)
        for clause in query.clauses {
            rows = apply(clause, to: rows)
        }
        return rows.map(\.key)
    }

    /// The number of objects that match the predicate. Like realm-core's `Query::count()`, it
    /// ignores SORT, DISTINCT and LIMIT; `run(_:).count` honours them.
    public func count(_ query: BoundQuery) -> Int {
        matchingObjects(query).count
    }

    /// Whether the object at `position` of the query's class matches the predicate (clauses
    /// are not considered); false for a position outside the table.
    public func matches(_ query: BoundQuery, position: Int) -> Bool {
        guard let table = store.table(named: query.className), position >= 0, position < table.rowCount else {
            return false
        }
        let object = ObjectRef(table: table, position: position)
        return holds(query.predicate, in: Context(object: object, memberships: MembershipSets()))
    }

    private func matchingObjects(_ query: BoundQuery) -> [ObjectRef] {
        guard let table = store.table(named: query.className) else { return [] }
        var rows: [ObjectRef] = []
        // One set per IN list for the whole run, not one per object.
        let memberships = MembershipSets()
        for position in 0..<table.rowCount {
            let object = ObjectRef(table: table, position: position)
            if holds(query.predicate, in: Context(object: object, memberships: memberships)) { rows.append(object) }
        }
        return rows
    }
}

// MARK: - Evaluation state

extension ReferenceEvaluator {
    /// One object of the store: its table and its position in the current snapshot.
    struct ObjectRef {
        let table: Store.Table
        let position: Int

        var key: RowKey { table.rowKey(at: position) }
        var className: String { table.objectSchema.name }
        var link: ObjectLink { ObjectLink(className: className, key: key) }
    }

    /// What paths start from: the object being tested, and the SUBQUERY elements being tested,
    /// innermost last (`BoundPath.Root.element(depth: 0)` is `elements.last`).
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

// MARK: - Predicates

extension ReferenceEvaluator {
    /// Two-valued logic: a comparison with null is simply true or false, so NOT is a plain negation.
    func holds(_ predicate: BoundPredicate, in context: Context) -> Bool {
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
            // Quantified per group as comparisons are (`holds(_: BoundComparison, in:)`).
            let quantifier = operand.quantifier ?? .any
            return groups(of: operand, in: context).contains { values in
                quantifier.holds(over: values) { pattern.matches($0) }
            }
        }
    }
}
