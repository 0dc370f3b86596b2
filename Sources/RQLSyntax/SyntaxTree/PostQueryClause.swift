/// A clause after the predicate that reshapes the result.
public enum PostQueryClauseKind: Hashable, Sendable {
    /// `SORT(a ASC, b DESC)`: stable, by each key in turn.
    case sort([SortKey])
    /// `DISTINCT(a, b)`: keeps the first object of each distinct tuple of values.
    case distinct([KeyPath])
    /// `LIMIT(n)`: keeps the first n objects.
    case limit(Int)
}

public struct SortKey: Hashable, Sendable {
    public var keyPath: KeyPath
    public var ascending: Bool

    public init(_ keyPath: KeyPath, ascending: Bool) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
