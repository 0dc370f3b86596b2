import RQLCore
import RQLIR

/// Decides before running what can be decided from the query alone:
///
///     TRUEPREDICATE AND age > 2        → age > 2
///     age > 2 OR TRUEPREDICATE         → TRUEPREDICATE
///     NOT FALSEPREDICATE               → TRUEPREDICATE
///     age > 2 * 3                      → age > 6
///     age IN {}                        → FALSEPREDICATE
///
/// Arithmetic on two constants is computed with `ValueArithmetic`, the function every executor
/// calls, except where integer arithmetic overflows or divides by zero (left to the executor,
/// whose overflow rule may change) or where the operation has no value. An empty list under ANY
/// matches nothing unless the other side is quantified with ALL or NONE, or both sides are
/// unquantified lists (an element-wise comparison), which are left alone.
public struct ConstantFolding: Pass {
    public let name = "constant-folding"
    public let reason = "what the query alone decides is not tested per row"

    public init() {}

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        plan.rewriteFilters(where: Self.mayFold, Self.fold)
    }

    /// Whether anything in `predicate` might fold (a cheap scan, no rebuilding).
    static func mayFold(_ predicate: BoundPredicate) -> Bool {
        switch predicate {
        case .constant, .fullText, .geoWithin, .matches:
            return false
        case .and(let operands), .or(let operands):
            return operands.contains { if case .constant = $0 { true } else { mayFold($0) } }
        case .not(let operand):
            if case .constant = operand { return true }
            return mayFold(operand)
        case .comparison(let comparison):
            return mayFold(comparison.lhs.expression) || mayFold(comparison.rhs.expression)
                || matchesNothing(comparison)
        }
    }

    private static func mayFold(_ expression: BoundExpression) -> Bool {
        switch expression {
        case .arithmetic(_, let lhs, let rhs):
            if case .constant = lhs, case .constant = rhs { return true }
            return mayFold(lhs) || mayFold(rhs)
        case .subqueryCount(_, let predicate):
            return mayFold(predicate)
        case .constant, .constantList, .list, .path, .count, .type, .aggregate, .object, .backlinkCount:
            return false
        }
    }

    static func fold(_ predicate: BoundPredicate) -> BoundPredicate {
        switch predicate {
        case .and(let operands):
            return fold(operands, and: true)
        case .or(let operands):
            return fold(operands, and: false)
        case .not(.constant(let value)):
            return .constant(!value)
        case .comparison(var comparison):
            comparison.lhs.expression = fold(comparison.lhs.expression)
            comparison.rhs.expression = fold(comparison.rhs.expression)
            if matchesNothing(comparison) { return .constant(false) }
            return .comparison(comparison)
        case .constant, .not, .fullText, .geoWithin, .matches:
            return predicate
        }
    }

    /// AND/OR with their constant operands absorbed; only a connective that loses operands
    /// changes (flattening nested connectives is normalization's job).
    private static func fold(_ operands: [BoundPredicate], and: Bool) -> BoundPredicate {
        var kept: [BoundPredicate] = []
        for operand in operands {
            if case .constant(let value) = operand {
                if value != and { return .constant(value) }  // FALSE in an AND, TRUE in an OR
                continue
            }
            kept.append(operand)
        }
        if kept.count == operands.count { return and ? .and(operands) : .or(operands) }
        return Logic.connect(kept, and: and)
    }

    static func fold(_ expression: BoundExpression) -> BoundExpression {
        guard case .arithmetic(let op, let lhs, let rhs) = expression else { return expression }
        let left = fold(lhs)
        let right = fold(rhs)
        if case .constant(let a) = left, case .constant(let b) = right, let value = compute(op, a, b) {
            return .constant(value)
        }
        return .arithmetic(op, left, right)
    }

    /// `a op b` as the executors compute it, or `nil` when folding could disagree with them.
    private static func compute(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value? {
        if case .int(let x) = a, case .int(let y) = b {
            let overflows: Bool
            switch op {
            case .add: overflows = x.addingReportingOverflow(y).overflow
            case .subtract: overflows = x.subtractingReportingOverflow(y).overflow
            case .multiply: overflows = x.multipliedReportingOverflow(by: y).overflow
            case .divide: overflows = y == 0 || x.dividedReportingOverflow(by: y).overflow
            }
            if overflows { return nil }
        }
        return ValueArithmetic.apply(op, a, b)
    }

    /// A comparison against an empty list under ANY, with ANY (or a single value) on the other
    /// side: no pair of values exists, so nothing matches.
    private static func matchesNothing(_ comparison: BoundComparison) -> Bool {
        // Each side on its own, not through an array of the two: this runs for every comparison.
        matchesNothing(list: comparison.rhs, other: comparison.lhs)
            || matchesNothing(list: comparison.lhs, other: comparison.rhs)
    }

    private static func matchesNothing(list: BoundOperand, other: BoundOperand) -> Bool {
        guard case .constantList(let values) = list.expression, values.isEmpty,
            list.quantifier == nil || list.quantifier == .any,
            other.quantifier == nil || other.quantifier == .any
        else { return false }
        // Two unquantified multi-valued sides compare element-wise: `list == {}` holds for an empty list.
        return !(other.isMultiValued && other.quantifier == nil && list.quantifier == nil)
    }
}
