import RQLCore
import RQLIR

/// AND: the terms on one column reduced to the tightest equality, membership or pair of bounds,
/// or to FALSEPREDICATE when they cannot all hold.
extension FilterCombining {
    /// What one group of terms becomes.
    enum GroupOutcome {
        /// No value satisfies every term.
        case unsatisfiable
        /// The terms to keep, in order: originals by their index, or new ones.
        case terms([Output])
    }

    /// One term of a combined group.
    enum Output {
        /// The operand at this index of the connective, unchanged.
        case kept(Int)
        /// A rewritten term.
        case new(ColumnTerm)
    }

    static func combineConjunction(
        _ operands: [BoundPredicate],
        schema: Schema,
        home: ObjectSchema? = nil
    ) -> BoundPredicate {
        var groups: [GroupKey: [(index: Int, term: ColumnTerm)]] = [:]
        var order: [GroupKey] = []
        for (index, operand) in operands.enumerated() {
            guard case .comparison(let comparison) = operand,
                let term = ColumnTerm(comparison, schema: schema, home: home),
                isCombinable(term)
            else { continue }
            let key = GroupKey(operand: term.operand, options: term.options)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((index, term))
        }
        var replaced: [Int: [Output]] = [:]
        var dropped = Set<Int>()
        for key in order {
            guard let group = groups[key], group.count > 1,
                ColumnTerm.exactlyComparable(
                    group.flatMap(\.term.constants),
                    columnType: group[0].term.column.property.type
                )
            else { continue }
            switch combine(group) {
            case .unsatisfiable:
                return .constant(false)
            case .terms(let outputs):
                let unchanged =
                    outputs.count == group.count
                    && zip(outputs, group).allSatisfy { if case .kept(let i) = $0 { i == $1.index } else { false } }
                if unchanged { continue }
                replaced[group[0].index] = outputs
                for member in group { dropped.insert(member.index) }
            }
        }
        guard !replaced.isEmpty else { return .and(operands) }
        var result: [BoundPredicate] = []
        for (index, operand) in operands.enumerated() {
            if let outputs = replaced[index] {
                for output in outputs {
                    switch output {
                    case .kept(let i): result.append(operands[i])
                    case .new(let term): result.append(term.predicate)
                    }
                }
            } else if !dropped.contains(index) {
                result.append(operand)
            }
        }
        return Logic.and(result)
    }

    /// Terms whose meaning follows from their constants: equality, inequality and the four
    /// bounds (null only with `==`/`!=`), and memberships, all without `[c]`/`[d]` or NaN.
    private static func isCombinable(_ term: ColumnTerm) -> Bool {
        guard term.options.isEmpty, !term.constants.contains(where: NumericComparison.isNaN) else { return false }
        switch term.test {
        case .compare(let op, let value):
            switch op {
            case .equal, .notEqual: return true
            case .less, .lessOrEqual, .greater, .greaterOrEqual: return !value.isNull
            case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: return false
            }
        case .member:
            return true
        }
    }

    /// One column's terms (at least two) reduced. Every step relies on the group's constants
    /// being exactly comparable: a column equal to `c` then compares with every constant as `c`
    /// does, and the constants are ordered like the values between them.
    static func combine(_ group: [(index: Int, term: ColumnTerm)]) -> GroupOutcome {
        // An equality decides every other term through its constant.
        if let equality = group.first(where: { if case .compare(.equal, _) = $0.term.test { true } else { false } }),
            case .compare(_, let value) = equality.term.test
        {
            for other in group where other.index != equality.index && !other.term.holds(for: value) {
                return .unsatisfiable
            }
            return .terms([.kept(equality.index)])
        }
        // A membership keeps the elements that pass every other term.
        if let list = group.first(where: { if case .member = $0.term.test { true } else { false } }),
            case .member(let values) = list.term.test
        {
            let passing = distinct(values).filter { value in
                group.allSatisfy { $0.index == list.index || $0.term.holds(for: value) }
            }
            if passing == values { return .terms([.kept(list.index)]) }
            switch membership(list.term, passing) {
            case .none: return .unsatisfiable
            case .term(let term): return .terms([.new(term)])
            }
        }
        return combineBounds(group)
    }

    /// Bounds and inequalities: the tightest lower and upper bound, an equality when they meet,
    /// and the inequalities the bounds do not already imply.
    private static func combineBounds(_ group: [(index: Int, term: ColumnTerm)]) -> GroupOutcome {
        var lower: (index: Int, term: ColumnTerm, op: ComparisonOperator, value: Value)?
        var upper: (index: Int, term: ColumnTerm, op: ComparisonOperator, value: Value)?
        let unchanged = GroupOutcome.terms(group.map { .kept($0.index) })
        for (index, term) in group {
            guard case .compare(let op, let value) = term.test else { continue }
            switch op {
            case .greater, .greaterOrEqual:
                if let current = lower {
                    guard let order = ValueComparison.orderedCompare(value, current.value) else { return unchanged }
                    if order > 0 || (order == 0 && op == .greater) { lower = (index, term, op, value) }
                } else {
                    lower = (index, term, op, value)
                }
            case .less, .lessOrEqual:
                if let current = upper {
                    guard let order = ValueComparison.orderedCompare(value, current.value) else { return unchanged }
                    if order < 0 || (order == 0 && op == .less) { upper = (index, term, op, value) }
                } else {
                    upper = (index, term, op, value)
                }
            default:
                continue
            }
        }
        if let lower, let upper {
            guard let order = ValueComparison.orderedCompare(lower.value, upper.value) else { return unchanged }
            if order > 0 { return .unsatisfiable }
            if order == 0 {
                guard lower.op == .greaterOrEqual && upper.op == .lessOrEqual else { return .unsatisfiable }
                // `x >= c AND x <= c` is `x == c`; the other terms then follow from `c`.
                var equality = lower.term
                equality.test = .compare(.equal, lower.value)
                for (index, term) in group where index != lower.index && index != upper.index {
                    if !term.holds(for: lower.value) { return .unsatisfiable }
                }
                return .terms([.new(equality)])
            }
        }
        var kept: [Int] = [lower?.index, upper?.index].compactMap { $0 }
        var seen = Set<Value>()
        for (index, term) in group {
            guard case .compare(.notEqual, let value) = term.test else { continue }
            // A value outside the bounds (null included) is unequal to every value inside them.
            let implied =
                (lower.map { !$0.term.holds(for: value) } ?? false)
                || (upper.map { !$0.term.holds(for: value) } ?? false)
            if !implied && seen.insert(value).inserted { kept.append(index) }
        }
        return .terms(kept.sorted().map { .kept($0) })
    }
}
