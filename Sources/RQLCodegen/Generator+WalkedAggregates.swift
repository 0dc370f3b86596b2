import RQLBytecode
import RQLCore
import RQLIR

/// An aggregate over links after more than one to-many step (`ANY dogs.toys.@sum.price > 5`)
/// compared with a constant, as the walking `CountSubquery`. The reference evaluator makes one
/// aggregate per owner of the last collection (each dog's toys) and quantifies the comparison over
/// them; so the owners the hops reach are tested by a program over their class holding the one-
/// owner comparison (`toys.@sum.price > 5`), and ANY is a count above 0, NONE a count of 0, ALL
/// no owner failing (the comparison negated, counted 0).
///
/// A null or dangling link on the way to the owners is an owner whose aggregate is that of
/// nothing (0 for `@sum`, null otherwise), which no count of objects sees: the rewrite is made
/// only when that aggregate cannot change the answer (ANY and NONE when it fails the comparison,
/// ALL when it passes), which codegen decides from the constant. The others are
/// compared per owner by `LoadGroups`/`CompareGroups`.
extension Generator {
    /// The comparison rewritten as a SUBQUERY count against 0, or nil.
    func walkedAggregate(_ comparison: BoundComparison) -> ComparedValues? {
        func rewritten(_ aggregate: BoundOperand, _ op: ComparisonOperator, _ other: BoundOperand) -> ComparedValues? {
            guard aggregate.isMultiValued, case .aggregate(let function, let path) = aggregate.expression,
                other.quantifier == nil, !other.isMultiValued, case .constant(let constant) = other.expression,
                path.root == .object, path.steps.count >= 3
            else { return nil }
            let split = path.steps.count - 2
            var owners = path
            owners.steps = Array(path.steps[..<split])
            guard let (hops, end, _) = walk(owners), end == .objects, let className = Self.className(reachedBy: hops),
                let owner = schema[className], case .property = path.steps[split + 1],
                Self.isLinkCollection(path.steps[split], of: owner)
            else { return nil }
            let overMixed = path.valueType == .mixed
            let options = comparison.options
            // What a null or dangling link on the way contributes: the aggregate of nothing.
            let nothing = function.apply(to: [], overMixed: overMixed)
            let nothingPasses = ValueComparison.evaluate(nothing, op, constant, options: options)
            let quantifier = aggregate.quantifier ?? .any
            guard quantifier == .all ? nothingPasses : !nothingPasses else { return nil }
            let inner = BoundPath(
                root: .object,
                steps: Array(path.steps[split...]),
                isMultiValued: true,
                rootClassName: className,
                valueType: path.valueType
            )
            let test = BoundPredicate.comparison(
                BoundComparison(
                    BoundOperand(.aggregate(function, inner), isMultiValued: false),
                    op,
                    BoundOperand(.constant(constant), isMultiValued: false),
                    options: options
                )
            )
            guard let program = subprogram(quantifier == .all ? .not(test) : test, over: className) else { return nil }
            let count = ValueExpression.subquery(WalkedSubquery(hops: hops, program: program, parameters: []))
            return ComparedValues(
                lhs: count,
                op: quantifier == .any ? .greater : .equal,
                rhs: .constant(.int(0)),
                options: []
            )
        }
        if let lowered = rewritten(comparison.lhs, comparison.op, comparison.rhs) { return lowered }
        guard let flipped = comparison.op.flipped else { return nil }
        return rewritten(comparison.rhs, flipped, comparison.lhs)
    }

    /// Whether `step` reads a list or set of links, or backlinks, of `owner`.
    private static func isLinkCollection(_ step: PathStep, of owner: ObjectSchema) -> Bool {
        switch step {
        case .backlinks:
            return true
        case .property:
            guard let property = property(step, of: owner) else { return false }
            if case .linkingObjects = property.type { return true }
            return property.isLink && (property.collection == .list || property.collection == .set)
        case .index, .first, .last, .all, .key, .keys, .values:
            return false
        }
    }
}
