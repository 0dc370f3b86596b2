import RQLBytecode

/// An instruction the VM cannot run where it is. The run stops there and `VirtualMachine` throws
/// `InvalidProgram` naming the instruction: it never returns the rows gathered so far as if they
/// were the answer. Codegen's programs meet none (`ProgramVerifier` checks each, its control-flow
/// rules in release builds too); a hand-built program can.
enum Fault {
    /// An instruction that reads a batch, run outside the batch loop.
    case outsideBatchLoop
    /// `Halt` or `NextBatch` inside the batch loop's body.
    case insideBatchLoop
    /// P4 does not hold the kind of constant the opcode reads.
    case wrongConstant
    /// An access path before `OpenTable`.
    case noTable
    /// A jump to this address or an earlier one, other than the batch loop's back to its head.
    case jumpBack(Int)
    /// A jump to an address outside the program.
    case jumpOutside(Int)
    /// A `NextBatch` whose exit (P2) is not after its body.
    case exitBeforeBody(Int)
    /// The batch loop's body ran into its exit without the `Goto` back to its head (P2 of the
    /// `NextBatch` at the given address).
    case bodyFallsThrough(loop: Int)
    /// The run went past the last instruction without a `Halt`.
    case noHalt
    /// The SUBQUERY program this `CountSubquery` runs was refused.
    case subprogram

    var message: String {
        switch self {
        case .outsideBatchLoop: "runs on a batch, outside the batch loop"
        case .insideBatchLoop: "runs inside the batch loop"
        case .wrongConstant: "P4 holds the wrong kind of constant"
        case .noTable: "an access path before OpenTable"
        case .jumpBack(let target): "jumps back to \(target)"
        case .jumpOutside(let target): "jumps to \(target), outside the program"
        case .exitBeforeBody(let exit): "exits to \(exit), not after its body"
        case .bodyFallsThrough(let loop): "the batch loop's body does not end in Goto \(loop)"
        case .noHalt: "the program does not end in Halt"
        case .subprogram: "its SUBQUERY program was refused"
        }
    }
}

extension Execution {
    /// Records that the run stopped at `address` (-1: the program as a whole) because of `fault`;
    /// the first fault is the one reported. A refused SUBQUERY program's own problems follow.
    func fail(_ fault: Fault, at address: Int) {
        guard failure == nil else { return }
        var problems: [ProgramVerifier.Problem] = []
        if address >= 0 && address < ops.count {
            let opcode = ops[address].opcode
            problems.append(
                ProgramVerifier.Problem(address: address, opcode: opcode, message: "\(opcode.name): \(fault.message)")
            )
        } else {
            problems.append(ProgramVerifier.Problem(address: -1, opcode: nil, message: fault.message))
        }
        if case .subprogram = fault, let nested = searchState.subqueries[address]?.execution.failure {
            problems += nested.problems.map {
                ProgramVerifier.Problem(address: $0.address, opcode: $0.opcode, message: "(SUBQUERY) \($0.message)")
            }
        }
        failure = InvalidProgram(className: program.className, problems: problems)
    }
}
