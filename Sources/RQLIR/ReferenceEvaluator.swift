import RQLCore

/// The oracle: evaluates a bound query object by object, in the plainest way possible, reading
/// the store only through the `StoreReader` / `TableReader` protocols and deciding every
/// comparison with RQLCore's one implementation of Realm's rules. Faster executors are tested
/// against it; it has no shortcuts that could hide a semantic bug.
///
///     let keys = ReferenceEvaluator(store: store).run(bound)   // row keys, after SORT/DISTINCT/LIMIT
public struct ReferenceEvaluator<Store: StoreReader> {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// The keys of the objects of `query.className` that match, in table order, then shaped by
    /// the query's clauses.
    public func run(_ query: BoundQuery) -> [RowKey] {
        []
    }

    /// Whether the object at `position` of the query's class matches the predicate.
    public func matches(_ query: BoundQuery, position: Int) -> Bool {
        false
    }
}
