import RQLCore
import RQLIR

/// Gives equivalent predicates one shape, so the passes after it match fewer forms:
///
///     NOT (age > 2 AND name == 'Rex')  → NOT age > 2 OR name != 'Rex'
///     NOT NOT p                        → p
///     (a AND b) AND c                  → a AND b AND c
///     5 < age                          → age > 5
///     {1, 2} == age                    → age == {1, 2}
///     NOT age < 5                      → age >= 5     (age a non-optional int)
///
/// Every rewrite is exact under the IR's two-valued logic:
/// - De Morgan and double negation hold as written.
/// - `NOT a == b` becomes `a != b` only when both sides have exactly one value (a constant, or a
///   column path: `ColumnPath`); a value that is missing (`list[5] == 3`) makes every comparison
///   false, so its negation would not be a comparison. `!=` is Realm's negation of `==`, with or
///   without `[c]`/`[d]`.
/// - `NOT a < c` becomes `a >= c` only where `<` is total: a non-optional `int`, `bool`, `date`,
///   `string`, `objectId` or `uuid` column of the object itself against a constant of its type
///   (null, NaN and values of other types make both `<` and `>=` false).
/// - A constant moves to the right with `<`/`>` exchanged: the comparison rules are symmetric
///   (`ValueComparison` compares `a > b` as `b < a`). Only a single constant, or a list under
///   ANY facing one value, moves, so no two quantifiers are reordered; `==` and `!=` with
///   `[c]`/`[d]`, and the string operators, stay as written.
/// - Quantified comparisons are never negated into another quantifier: with realm-core's
///   per-owner groups `NOT ANY list == 1` is not `NONE list == 1`.
public struct Normalization: Pass {
    public let name = "normalization"
    public let reason = "one shape for equivalent predicates: NOT at the leaves, flat AND/OR, property first"

    public init() {}

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        plan.rewriteFilters(
            where: { Self.mayNormalize($0, schema: context.schema) },
            { Self.normalize($0, schema: context.schema) }
        )
    }

    /// Whether `predicate` might not be normal (a cheap scan, no rebuilding).
    static func mayNormalize(_ predicate: BoundPredicate, schema: Schema) -> Bool {
        switch predicate {
        case .constant, .fullText, .geoWithin, .matches:
            return false
        case .not(let operand):
            switch operand {
            case .constant, .not, .and, .or: return true
            case .comparison(let comparison):
                return inverse(of: comparison, schema: schema) != nil || mayNormalize(operand, schema: schema)
            case .fullText, .geoWithin, .matches: return false
            }
        case .and(let operands):
            return operands.count < 2
                || operands.contains { if case .and = $0 { true } else { mayNormalize($0, schema: schema) } }
        case .or(let operands):
            return operands.count < 2
                || operands.contains { if case .or = $0 { true } else { mayNormalize($0, schema: schema) } }
        case .comparison(let comparison):
            return canonicalOrder(comparison) != nil || comparison.lhs.expression.containsSubquery
                || comparison.rhs.expression.containsSubquery
        }
    }

    /// One node, its children already normal.
    static func normalize(_ predicate: BoundPredicate, schema: Schema) -> BoundPredicate {
        switch predicate {
        case .not(let operand):
            return negate(operand, schema: schema)
        case .and(let operands):
            return Logic.connect(Logic.flatten(operands, and: true), and: true)
        case .or(let operands):
            return Logic.connect(Logic.flatten(operands, and: false), and: false)
        case .comparison(let comparison):
            return .comparison(canonicalOrder(comparison) ?? comparison)
        case .constant, .fullText, .geoWithin, .matches:
            return predicate
        }
    }

    /// The negation of a normal predicate, pushed as far down as it goes exactly.
    static func negate(_ predicate: BoundPredicate, schema: Schema) -> BoundPredicate {
        switch predicate {
        case .constant(let value):
            return .constant(!value)
        case .not(let operand):
            return operand
        case .and(let operands):
            return Logic.connect(Logic.flatten(operands.map { negate($0, schema: schema) }, and: false), and: false)
        case .or(let operands):
            return Logic.connect(Logic.flatten(operands.map { negate($0, schema: schema) }, and: true), and: true)
        case .comparison(let comparison):
            return inverse(of: comparison, schema: schema).map { .comparison($0) } ?? .not(predicate)
        case .fullText, .geoWithin, .matches:
            return .not(predicate)
        }
    }

    /// The comparison that holds exactly when `comparison` does not, if there is one.
    static func inverse(of comparison: BoundComparison, schema: Schema) -> BoundComparison? {
        var inverse = comparison
        switch comparison.op {
        case .equal, .notEqual:
            guard hasExactlyOneValue(comparison.lhs, schema: schema), hasExactlyOneValue(comparison.rhs, schema: schema)
            else { return nil }
            inverse.op = comparison.op == .equal ? .notEqual : .equal
            return inverse
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let term = ColumnTerm(comparison, schema: schema), term.column.isDirect,
                case .compare(let op, let constant) = term.test, isTotallyOrdered(term.column.property, constant)
            else { return nil }
            let negated: ComparisonOperator =
                switch op {
                case .less: .greaterOrEqual
                case .lessOrEqual: .greater
                case .greater: .lessOrEqual
                default: .less
                }
            return BoundComparison(
                term.operand,
                negated,
                BoundOperand(.constant(constant), isMultiValued: false),
                options: comparison.options
            )
        case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches:
            return nil
        }
    }

    /// A constant, or a column path (which reads exactly one value, null included).
    private static func hasExactlyOneValue(_ operand: BoundOperand, schema: Schema) -> Bool {
        if case .constant = operand.expression, operand.quantifier == nil, !operand.isMultiValued { return true }
        return ColumnPath(operand, schema: schema) != nil
    }

    /// Whether every value of `property` is ordered against `constant`, so that exactly one of
    /// `<` and `>=` holds.
    private static func isTotallyOrdered(_ property: Property, _ constant: Value) -> Bool {
        guard !property.isOptional else { return false }
        switch (property.type, constant) {
        case (.int, .int), (.bool, .bool), (.date, .date), (.string, .string), (.objectId, .objectId), (.uuid, .uuid):
            return true
        case (.int, .double(let d)):
            return !d.isNaN
        default:
            return false
        }
    }

    /// The comparison with a lone constant moved to the right; `nil` when it is already there
    /// (or may not move).
    static func canonicalOrder(_ comparison: BoundComparison) -> BoundComparison? {
        let lhs = comparison.lhs
        let rhs = comparison.rhs
        guard isConstant(lhs.expression), !isConstant(rhs.expression), let flipped = comparison.op.flipped,
            comparison.options.isEmpty || comparison.op.isOrdered
        else { return nil }
        switch lhs.expression {
        case .constant where lhs.quantifier == nil && !lhs.isMultiValued:
            break
        case .constantList
        where (lhs.quantifier == nil || lhs.quantifier == .any) && !rhs.isMultiValued
            && rhs.quantifier == nil:
            break
        default:
            return nil
        }
        return BoundComparison(rhs, flipped, lhs, options: comparison.options)
    }

    private static func isConstant(_ expression: BoundExpression) -> Bool {
        switch expression {
        case .constant, .constantList, .list, .object: true
        case .path, .count, .type, .aggregate, .subqueryCount, .arithmetic, .backlinkCount: false
        }
    }
}
