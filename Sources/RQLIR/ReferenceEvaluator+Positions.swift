import RQLCore

extension ReferenceEvaluator {
    /// The keys of the objects at `positions` (in that order, repeats kept) that match, then
    /// shaped by the query's clauses: a query over a list's elements (realm-core runs a
    /// collection's query on the collection's view, in its order). Positions outside the
    /// table are skipped.
    ///
    ///     // dogs.filter("age > 2") for a person's dogs list
    ///     ReferenceEvaluator(store: store).run(bound, positions: [4, 1, 4])
    public func run(_ query: BoundQuery, positions: [Int]) -> [RowKey] {
        guard let table = store.table(named: query.className) else { return [] }
        var rows: [ObjectRef] = []
        let memberships = MembershipSets()
        for position in positions where position >= 0 && position < table.rowCount {
            let object = ObjectRef(table: table, position: position)
            if holds(query.predicate, in: Context(object: object, memberships: memberships)) { rows.append(object) }
        }
        for clause in query.clauses {
            rows = apply(clause, to: rows)
        }
        return rows.map(\.key)
    }
}
