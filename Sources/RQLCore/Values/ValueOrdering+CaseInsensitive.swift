extension ValueOrdering {
    /// `compare(_:_:)` for a case-insensitive sort key: two strings compare by their case-folded
    /// forms (`StringFolding`, the folding `[c]` uses), and only when those are equal by
    /// `compare(_:_:)`, so the order stays total and deterministic (`"apple" < "Banana" <
    /// "banana"`). Every other pair compares as `compare(_:_:)` does.
    ///
    /// ```swift
    /// ValueOrdering.compare(.string("apple"), .string("Banana"), caseInsensitive: true)   // -1
    /// ValueOrdering.compare(.string("apple"), .string("Banana"))                          //  1
    /// ```
    public static func compare(_ lhs: Value, _ rhs: Value, caseInsensitive: Bool) -> Int {
        guard caseInsensitive, case .string(let a) = lhs, case .string(let b) = rhs else { return compare(lhs, rhs) }
        let folded = compare(
            .string(StringFolding.fold(a, options: .caseInsensitive)),
            .string(StringFolding.fold(b, options: .caseInsensitive))
        )
        return folded != 0 ? folded : compare(lhs, rhs)
    }
}
