/// The optimizer's passes, in the order they run: the one place that lists them (as DuckDB's
/// `Optimizer::Optimize` does). Each pass's file documents its rewrites by example.
extension Optimizer {
    public static let passes: [any Pass] = [
        // `filter(a).sorted(k).filter(b)` is one filter `a AND b` before the sort.
        ChainMerging(),
        // Decide what is decidable before running: `TRUEPREDICATE AND p` is `p`, `2 * 3` is `6`.
        ConstantFolding(),
        // One shape for equivalent predicates: NOT pushed to the leaves, AND/OR flat, the
        // property on the left, so that the passes after it match fewer forms.
        Normalization(),
        // One test per column and bound: `x > 5 AND x > 7` is `x > 7`; OR of equalities and IN
        // lists on one column is one hashed set-membership test.
        FilterCombining(),
        // Candidates from an index when that is cheaper than a scan; the consumed conditions leave
        // the residual. Lowers the logical plan to a physical one.
        AccessPathSelection(),
        // Cheap, selective conditions first, so that later ones see fewer rows.
        ResidualOrdering(),
        // Drop result steps that cannot change the rows; merge adjacent LIMITs.
        ResultSimplification(),
        // SORT then LIMIT keeps only the first rows: a bounded heap instead of a full sort.
        TopNFusion(),
    ]

    /// The pass names in pipeline order, as `--disable-pass` takes them.
    public static let passNames: [String] = passes.map(\.name)
}
