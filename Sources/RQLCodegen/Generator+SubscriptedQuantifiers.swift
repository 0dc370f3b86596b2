import RQLBytecode
import RQLCore
import RQLIR

/// A collection of values after a subscripted link, quantified: `ALL dogs[FIRST].scores > 1`,
/// `NONE items[2].tags == 'x'`. `GatherElement` drops a row whose subscript is out of range, as
/// a comparison with the element cannot match; but there the path reaches nothing, where ALL
/// and NONE hold. So the elements are counted (`CountMatching`, as for any quantified
/// collection) on a copy of the selection, and the rows the gather dropped get the count 0
/// (`LoadConstant` on the rows of the selection not in the copy) before `FilterValue` tests
/// every row: ANY is a count above 0, NONE a count of 0, ALL no element failing.
extension Generator {
    /// The register form of such a comparison with a constant, or nil.
    func subscriptedQuantified(_ comparison: BoundComparison) -> ComparedValues? {
        func lowered(_ operand: BoundOperand, _ op: ComparisonOperator, _ other: BoundOperand) -> ComparedValues? {
            guard case .path(let path) = operand.expression, operand.isMultiValued, path.isMultiValued,
                other.quantifier == nil, !other.isMultiValued, case .constant(let value) = other.expression,
                let (links, column, property) = linkPath(path, subscripts: true), property.collection != .single,
                !property.isLink, links.contains(where: { $0.selector != nil })
            else { return nil }
            let quantifier = operand.quantifier ?? .any
            let test = ElementTest(op, value, options: comparison.options, negated: quantifier == .all)
            let counted = Gathered(
                links: links,
                column: column,
                load: .matching(test),
                op: .equal,
                constant: .null,
                options: []
            )
            return ComparedValues(
                lhs: .defaulted(counted, .int(0)),
                op: quantifier == .any ? .greater : .equal,
                rhs: .constant(.int(0)),
                options: []
            )
        }
        if let count = lowered(comparison.lhs, comparison.op, comparison.rhs) { return count }
        // Quantifiers flip with the operator: `k op Q r` is `Q r flipped(op) k`.
        guard let flipped = comparison.op.flipped else { return nil }
        return lowered(comparison.rhs, flipped, comparison.lhs)
    }

    /// Emits `gathered`'s load for the rows of `register` on a copy of it, and `value` for the
    /// rows the load dropped; returns the value register.
    mutating func emitDefaulted(_ gathered: Gathered, _ value: Value, into register: Int32) -> Int32 {
        let kept = builder.makeRegister()
        builder.emit(.selectCopy, p1: register, p2: kept)
        let v = emitLoad(gathered, into: kept)
        let dropped = builder.makeRegister()
        builder.emit(.selectExcept, p1: kept, p2: register, p3: dropped)
        builder.emit(.loadConstant, p1: dropped, p3: v, p4: builder.constant(.value(value)))
        return v
    }
}
