/// One key of a SORT: a single-valued path (through to-one links only), a direction, and
/// whether strings compare with case folded (`ValueOrdering.compare(_:_:caseInsensitive:)`;
/// set by the object model's case-insensitive `SortDescriptor`, which query text cannot spell).
public struct BoundSortKey: Hashable, Sendable {
    public var path: BoundPath
    public var ascending: Bool
    public var caseInsensitive: Bool

    public init(path: BoundPath, ascending: Bool, caseInsensitive: Bool = false) {
        self.path = path
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}
