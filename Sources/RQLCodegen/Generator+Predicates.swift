import RQLBytecode
import RQLCore
import RQLIR

/// Predicates → filter instructions over one selection register.
extension Generator {
    mutating func compile(_ predicate: BoundPredicate, into register: Int32) {
        guard hasKernel(predicate) else {
            builder.emit(
                .filterRow,
                p1: register,
                p4: builder.constant(.predicate(Lowering.predicate(predicate))),
                comment: Self.summary(predicate)
            )
            return
        }
        switch predicate {
        case .and(let operands):
            // Runs of operands without a kernel share one row-at-a-time filter.
            var pending: [BoundPredicate] = []
            for operand in operands {
                if hasKernel(operand) {
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
        case .comparison(let comparison):
            if let kernel = kernel(for: comparison) {
                emit(kernel, into: register)
            } else if let gathered = gathered(for: comparison) {
                emit(gathered, into: register, comment: Self.summary(predicate))
            } else if let compared = compared(for: comparison) {
                emit(compared, into: register, comment: Self.summary(predicate))
            } else if let test = typeTest(for: comparison) {
                emit(test, into: register, comment: Self.summary(predicate))
            } else if let count = subqueryCount(for: comparison) {
                emit(count, into: register, comment: Self.summary(predicate))
            } else if let groups = groupCompared(for: comparison) {
                emit(groups, into: register, comment: Self.summary(predicate))
            }
        case .fullText, .geoWithin, .matches:
            if let test = searchTest(for: predicate) { emit(test, into: register, comment: Self.summary(predicate)) }
        case .constant(let keepsEveryRow):
            // TRUEPREDICATE keeps the selection as it is; FALSEPREDICATE empties it.
            if !keepsEveryRow { builder.emit(.selectClear, p1: register) }
        }
    }

    private mutating func flush(_ pending: inout [BoundPredicate], into register: Int32) {
        guard !pending.isEmpty else { return }
        compile(pending.count == 1 ? pending[0] : .and(pending), into: register)
        pending = []
    }

    /// Whether some part of `predicate` compiles to register instructions (a constant compiles to
    /// none, or to one `SelectClear`).
    func hasKernel(_ predicate: BoundPredicate) -> Bool {
        switch predicate {
        case .and(let operands), .or(let operands): operands.contains { hasKernel($0) }  // no copy of self
        case .not(let operand): hasKernel(operand)
        case .comparison(let comparison):
            kernel(for: comparison) != nil || gathered(for: comparison) != nil || compared(for: comparison) != nil
                || typeTest(for: comparison) != nil || subqueryCount(for: comparison) != nil
                || groupCompared(for: comparison) != nil
        case .fullText, .geoWithin, .matches: searchTest(for: predicate) != nil
        case .constant: true
        }
    }

    /// A short text for EXPLAIN's comment column.
    static func summary(_ predicate: BoundPredicate) -> String {
        let text = IRPrinter.print(predicate)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
