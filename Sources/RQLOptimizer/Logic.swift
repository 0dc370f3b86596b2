import RQLIR

/// Building AND and OR the way every pass wants them: nested operands of the same connective
/// flattened into one list (`(a AND b) AND c` is `a AND b AND c`), and, for the folding
/// builders, constants absorbed (`p AND FALSEPREDICATE` is `FALSEPREDICATE`, `p OR
/// FALSEPREDICATE` is `p`). Both are exact under the two-valued logic of the IR.
enum Logic {
    /// `operands` AND-ed: nested ANDs flattened, TRUE dropped, FALSE absorbing; one operand is
    /// itself and none is TRUEPREDICATE.
    static func and(_ operands: [BoundPredicate]) -> BoundPredicate {
        var flat: [BoundPredicate] = []
        for operand in flatten(operands, and: true) {
            switch operand {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            default: flat.append(operand)
            }
        }
        return connect(flat, and: true)
    }

    /// `operands` OR-ed: nested ORs flattened, FALSE dropped, TRUE absorbing; one operand is
    /// itself and none is FALSEPREDICATE.
    static func or(_ operands: [BoundPredicate]) -> BoundPredicate {
        var flat: [BoundPredicate] = []
        for operand in flatten(operands, and: false) {
            switch operand {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            default: flat.append(operand)
            }
        }
        return connect(flat, and: false)
    }

    /// The top-level conjuncts of `predicate` (nested ANDs opened); TRUEPREDICATE has none.
    static func conjuncts(of predicate: BoundPredicate) -> [BoundPredicate] {
        switch predicate {
        case .constant(true): []
        case .and(let operands): flatten(operands, and: true)
        default: [predicate]
        }
    }

    /// The operands with every nested operand of the same connective spliced in, in order.
    static func flatten(_ operands: [BoundPredicate], and: Bool) -> [BoundPredicate] {
        var result: [BoundPredicate] = []
        result.reserveCapacity(operands.count)
        for operand in operands {
            switch (operand, and) {
            case (.and(let inner), true), (.or(let inner), false): result += flatten(inner, and: and)
            default: result.append(operand)
            }
        }
        return result
    }

    /// One connective over already-flat operands: none is the neutral constant, one is itself.
    static func connect(_ operands: [BoundPredicate], and: Bool) -> BoundPredicate {
        switch operands.count {
        case 0: .constant(and)
        case 1: operands[0]
        default: and ? .and(operands) : .or(operands)
        }
    }
}
