import RQLCore
import RQLIR

/// Leaves one test per column and bound (after DuckDB's `FilterCombiner`):
///
///     x > 5 AND x > 7                  → x > 7
///     x >= 3 AND x <= 3                → x == 3
///     x == 5 AND x > 6                 → FALSEPREDICATE
///     x == 5 AND x != 6                → x == 5
///     x IN {1, 2, 3} AND x > 1         → x == ANY {2, 3}
///     x > 2 AND x != 1 AND x != NULL   → x > 2
///     x == 1 OR x == 2 OR x IN {2, 3}  → x == ANY {1, 2, 3}
///     x IN {4, 4}                      → x == 4
///
/// An OR of equalities and IN lists on one column becomes a single comparison with a list under
/// ANY, which the VM tests against a hash set: a 40,000-value IN stays linear, and so does an OR
/// of 10,000 equalities. That rewrite is exact by definition (ANY is "equal to some element");
/// duplicates are dropped only when structurally identical.
///
/// Reasoning between constants (`7 > 5`, so `x > 7` implies `x > 5`) applies only to a column
/// path (`ColumnPath`: one value per object, no quantifier) compared without `[c]`/`[d]`, with
/// constants that compare exactly with each other and with every value the column can hold
/// (`ColumnTerm.exactlyComparable`); NaN constants are left alone, and null only meets `==`
/// and `!=`. Quantified and multi-valued comparisons are never combined: `ANY list > 5 AND ANY
/// list < 3` can hold through different elements.
public struct FilterCombining: Pass {
    public let name = "filter-combining"
    public let reason = "one test per column and bound; OR of equalities and IN lists is one hashed set"

    public init() {}

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        plan.rewriteFilters(where: Self.mayCombine) {
            Self.combine($0, schema: context.schema, home: context.objectSchema)
        }
    }

    /// Whether anything in `predicate` might combine: two comparisons of one key path under
    /// one connective, or a list (a cheap scan, no rebuilding).
    static func mayCombine(_ predicate: BoundPredicate) -> Bool {
        switch predicate {
        case .constant, .fullText, .geoWithin, .matches:
            return false
        case .not(let operand):
            return mayCombine(operand)
        case .comparison(let comparison):
            return mayCombine(comparison)
        case .and(let operands), .or(let operands):
            // Long connectives are rare and are worth the full pass; short ones are checked pairwise.
            if operands.count > 16 { return true }
            var paths: [PathStep] = []
            for operand in operands {
                guard case .comparison(let comparison) = operand else {
                    if mayCombine(operand) { return true }
                    continue
                }
                if mayCombine(comparison) { return true }
                // Each side on its own, not through an array of the two: this runs for every query.
                if isRepeatedPath(comparison.lhs, &paths) || isRepeatedPath(comparison.rhs, &paths) { return true }
            }
            return false
        }
    }

    /// Whether `side` is a key path that may repeat one in `paths` (the last steps of the key
    /// paths seen so far); adds it when it is a new one. Comparing last steps instead of whole
    /// operands is cheaper and errs only towards running the full pass, which finds nothing
    /// to combine when the operands differ after all.
    private static func isRepeatedPath(_ side: BoundOperand, _ paths: inout [PathStep]) -> Bool {
        guard case .path(let path) = side.expression else { return false }
        guard let last = path.steps.last else { return true }  // the object itself: let the pass look
        if paths.contains(last) { return true }
        paths.append(last)
        return false
    }

    private static func mayCombine(_ comparison: BoundComparison) -> Bool {
        mayCombine(comparison.lhs) || mayCombine(comparison.rhs)
    }

    private static func mayCombine(_ side: BoundOperand) -> Bool {
        switch side.expression {
        case .constantList(let values):
            // A list with repeats, or with fewer than two elements, simplifies.
            return values.count < 2 || hasRepeats(values)
        case .subqueryCount, .arithmetic: return side.expression.containsSubquery
        default: return false
        }
    }

    /// Whether two elements of `values` are equal (`distinct(values).count < values.count`):
    /// short lists, the usual ones, are compared pair by pair without hashing.
    static func hasRepeats(_ values: [Value]) -> Bool {
        guard values.count <= 16 else { return distinct(values).count < values.count }
        for i in values.indices {
            for j in values.index(after: i)..<values.endIndex where values[i] == values[j] { return true }
        }
        return false
    }

    static func combine(_ predicate: BoundPredicate, schema: Schema, home: ObjectSchema? = nil) -> BoundPredicate {
        switch predicate {
        case .and(let operands):
            return combineConjunction(operands, schema: schema, home: home)
        case .or(let operands):
            return combineDisjunction(operands, schema: schema, home: home)
        case .comparison(let comparison):
            return simplifyMembership(comparison, schema: schema, home: home) ?? predicate
        case .constant, .not, .fullText, .geoWithin, .matches:
            return predicate
        }
    }

    /// Which terms of a connective are about the same column, in the same way.
    struct GroupKey: Hashable {
        var operand: BoundOperand
        var options: StringOptions
    }

    // MARK: IN lists

    /// A list with repeated elements loses the repeats; one element is an equality, none
    /// matches nothing.
    static func simplifyMembership(
        _ comparison: BoundComparison,
        schema: Schema,
        home: ObjectSchema? = nil
    ) -> BoundPredicate? {
        // Most comparisons have no list; skip the term analysis for them.
        func isList(_ operand: BoundOperand) -> Bool {
            if case .constantList = operand.expression { true } else { false }
        }
        guard isList(comparison.lhs) || isList(comparison.rhs),
            let term = ColumnTerm(comparison, schema: schema, home: home),
            case .member(let values) = term.test
        else {
            return nil
        }
        let unique = distinct(values)
        if unique.count == values.count && unique.count > 1 { return nil }
        return membership(term, unique).predicate
    }

    /// `values` without structurally identical repeats, in order.
    static func distinct(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        seen.reserveCapacity(values.count)
        return values.filter { seen.insert($0).inserted }
    }

    /// The term testing membership in `values`: FALSE for none, `==` for one.
    static func membership(_ term: ColumnTerm, _ values: [Value]) -> Membership {
        switch values.count {
        case 0: return .none
        case 1:
            var equality = term
            equality.test = .compare(.equal, values[0])
            return .term(equality)
        default:
            var member = term
            member.test = .member(values)
            return .term(member)
        }
    }

    /// A membership test, or the statement that nothing can match.
    enum Membership {
        case none
        case term(ColumnTerm)

        var predicate: BoundPredicate {
            switch self {
            case .none: .constant(false)
            case .term(let term): term.predicate
            }
        }
    }

    // MARK: OR

    /// Equalities and IN lists of one column merged into one membership test, placed where the
    /// first of them was.
    static func combineDisjunction(
        _ operands: [BoundPredicate],
        schema: Schema,
        home: ObjectSchema? = nil
    ) -> BoundPredicate {
        // Groups in order of first appearance; values appended in place, so a long OR stays linear.
        var groupOfKey: [GroupKey: Int] = [:]
        var groups: [(first: Int, count: Int, term: ColumnTerm, values: [Value])] = []
        var groupOfOperand: [Int: Int] = [:]
        for (index, operand) in operands.enumerated() {
            guard case .comparison(let comparison) = operand,
                let term = ColumnTerm(comparison, schema: schema, home: home),
                term.options.isEmpty
            else { continue }
            let values: [Value]
            switch term.test {
            case .compare(.equal, let value): values = [value]
            case .member(let list): values = list
            case .compare: continue
            }
            let key = GroupKey(operand: term.operand, options: term.options)
            if let group = groupOfKey[key] {
                groups[group].count += 1
                groups[group].values += values
                groupOfOperand[index] = group
            } else {
                groupOfKey[key] = groups.count
                groupOfOperand[index] = groups.count
                groups.append((index, 1, term, values))
            }
        }
        guard groups.contains(where: { $0.count > 1 }) else { return .or(operands) }
        var result: [BoundPredicate] = []
        for (index, operand) in operands.enumerated() {
            guard let number = groupOfOperand[index], groups[number].count > 1 else {
                result.append(operand)
                continue
            }
            let group = groups[number]
            if index == group.first {
                result.append(membership(group.term, distinct(group.values)).predicate)
            }
        }
        return Logic.or(result)
    }
}
