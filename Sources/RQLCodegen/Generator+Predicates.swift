import RQLBytecode
import RQLCore
import RQLIR

/// Predicates → filter instructions over one selection register.
extension Generator {
    mutating func compile(_ predicate: BoundPredicate, into register: Int32) {
        // A comparison looks for its register form once, instead of once in `hasKernel` and
        // again to emit it.
        if case .comparison(let comparison) = predicate {
            if let lowered = lowering(for: comparison) {
                emit(lowered, of: predicate, into: register)
            } else {
                emitRowFilter(predicate, into: register)
            }
            return
        }
        guard hasKernel(predicate) else {
            emitRowFilter(predicate, into: register)
            return
        }
        switch predicate {
        case .and(let operands):
            // Runs of operands without a kernel share one row-at-a-time filter.
            var pending: [BoundPredicate] = []
            for operand in operands {
                if case .comparison(let comparison) = operand {
                    if let lowered = lowering(for: comparison) {
                        flush(&pending, into: register)
                        emit(lowered, of: operand, into: register)
                    } else {
                        pending.append(operand)
                    }
                } else if hasKernel(operand) {
                    flush(&pending, into: register)
                    compile(operand, into: register)
                } else {
                    pending.append(operand)
                }
            }
            flush(&pending, into: register)
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
        case .comparison:
            break  // compiled above
        case .fullText, .geoWithin, .matches:
            if let test = searchTest(for: predicate) { emit(test, into: register, comment: summary(predicate)) }
        case .constant(let keepsEveryRow):
            // TRUEPREDICATE keeps the selection as it is; FALSEPREDICATE empties it.
            if !keepsEveryRow { builder.emit(.selectClear, p1: register) }
        }
    }

    /// `predicate` tested row at a time (`FilterRow`).
    private mutating func emitRowFilter(_ predicate: BoundPredicate, into register: Int32) {
        builder.emit(
            .filterRow,
            p1: register,
            p4: builder.constant(.predicate(Lowering.predicate(predicate))),
            comment: Self.summary(predicate)
        )
    }

    private mutating func flush(_ pending: inout [BoundPredicate], into register: Int32) {
        guard !pending.isEmpty else { return }
        compile(pending.count == 1 ? pending[0] : .and(pending), into: register)
        pending = []
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

    /// Whether some part of `predicate` compiles to register instructions (a constant compiles to
    /// none, or to one `SelectClear`).
    func hasKernel(_ predicate: BoundPredicate) -> Bool {
        switch predicate {
        case .and(let operands), .or(let operands): operands.contains { hasKernel($0) }  // no copy of self
        case .not(let operand): hasKernel(operand)
        case .comparison(let comparison): lowering(for: comparison) != nil
        case .fullText, .geoWithin, .matches: searchTest(for: predicate) != nil
        case .constant: true
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
