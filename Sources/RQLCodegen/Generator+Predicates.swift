import RQLBytecode
import RQLCore
import RQLIR

/// Predicates → filter instructions over one selection register.
extension Generator {
    mutating func compile(_ predicate: BoundPredicate, into register: Int32) {
        switch predicate {
        case .comparison(let comparison):
            guard let lowered = lowering(for: comparison) else { return noRegisterForm(predicate) }
            emit(lowered, of: predicate, into: register)
        case .and(let operands):
            for operand in operands { compile(operand, into: register) }
        case .or(let operands):
            let accepted = builder.makeRegister()
            let branch = builder.makeRegister()
            builder.emit(.selectClear, p1: accepted)
            for operand in operands {
                // Each branch tests only the rows no earlier branch accepted.
                builder.emit(.selectExcept, p1: accepted, p2: register, p3: branch)
                compile(operand, into: branch)
                builder.emit(.selectUnion, p1: branch, p2: register, p3: accepted)
            }
            builder.emit(.selectCopy, p1: accepted, p2: register)
        case .not(let operand):
            let inner = builder.makeRegister()
            builder.emit(.selectCopy, p1: register, p2: inner)
            compile(operand, into: inner)
            builder.emit(.selectExcept, p1: inner, p2: register, p3: register)
        case .fullText, .geoWithin, .matches:
            guard let test = searchTest(for: predicate) else { return noRegisterForm(predicate) }
            emit(test, into: register, comment: summary(predicate))
        case .constant(let keepsEveryRow):
            // TRUEPREDICATE keeps the selection as it is; FALSEPREDICATE empties it.
            if !keepsEveryRow { builder.emit(.selectClear, p1: register) }
        }
    }

    /// Records the first predicate without a register form: the program is then refused
    /// (`CodegenError.unsupported`), never run without it.
    mutating func noRegisterForm(_ predicate: BoundPredicate) {
        if unlowered == nil { unlowered = predicate }
    }

    /// The register form of a comparison, the first that applies in this order.
    enum ComparisonLowering {
        /// A typed filter on a column of the object (`age > 90`).
        case kernel(Kernel)
        /// A value reached through links or elements, compared with a constant.
        case gathered(Gathered)
        /// Two values of the row compared with each other.
        case compared(ComparedValues)
        /// `@type` against type names.
        case typeTest(TypeTest)
        /// A SUBQUERY count compared with a constant.
        case subqueryCount(SubqueryCount)
        /// Two multi-valued operands compared group by group (`items.price != items.price`).
        case groups(GroupCompared)
        /// In a correlated SUBQUERY's program, a side's groups passed as a parameter.
        case parameterGroups(ParameterGroupsCompared)
    }

    func lowering(for comparison: BoundComparison) -> ComparisonLowering? {
        // IN, TEXT and MATCHES have their own predicates once bound; one left here is refused.
        if comparison.op.isLowered { return nil }
        // Groups passed as a parameter are no single value: only `CompareGroups` reads them.
        if Self.readsParameterGroups(comparison) {
            return parameterGroupsCompared(for: comparison).map { .parameterGroups($0) }
        }
        if let kernel = kernel(for: comparison) { return .kernel(kernel) }
        if let gathered = gathered(for: comparison) { return .gathered(gathered) }
        if let compared = compared(for: comparison) { return .compared(compared) }
        if let test = typeTest(for: comparison) { return .typeTest(test) }
        if let count = subqueryCount(for: comparison) { return .subqueryCount(count) }
        if let groups = groupCompared(for: comparison) { return .groups(groups) }
        return nil
    }

    private mutating func emit(_ lowered: ComparisonLowering, of predicate: BoundPredicate, into register: Int32) {
        switch lowered {
        case .kernel(let kernel): emit(kernel, into: register)
        case .gathered(let gathered): emit(gathered, into: register, comment: summary(predicate))
        case .compared(let compared): emit(compared, into: register, comment: summary(predicate))
        case .typeTest(let test): emit(test, into: register, comment: summary(predicate))
        case .subqueryCount(let count): emit(count, into: register, comment: summary(predicate))
        case .groups(let groups): emit(groups, into: register, comment: summary(predicate))
        case .parameterGroups(let groups): emit(groups, into: register, comment: summary(predicate))
        }
    }

    /// The comment of an instruction: spelled only for EXPLAIN's program (`planRows`).
    private func summary(_ predicate: BoundPredicate) -> String {
        planRows ? Self.summary(predicate) : ""
    }

    /// A short text for EXPLAIN's comment column.
    static func summary(_ predicate: BoundPredicate) -> String {
        let text = IRPrinter.print(predicate)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
