/// The control-flow rules, which the VM's termination and completeness rest on: checked for every
/// program codegen makes, release builds included (one pass, no allocation when the program is
/// sound; codegen runs it once per compiled query, so a run pays nothing).
///
/// - The program ends in `Halt`.
/// - There is at most one batch loop: a `NextBatch` at L whose exit P2 is after it, and whose
///   body (L+1 ..< exit) ends in a `Goto L`, so a batch never falls through into the code after
///   the loop.
/// - Every jump goes forward, except a jump from the loop's body back to its `NextBatch`: the
///   program reaches `Halt` after at most one pass over its instructions per batch, with no
///   step cap, and nothing jumps into the body from outside it.
/// - Instructions that read a batch (filters, loads, `Emit`, …) are inside the body; the table,
///   access path, `Halt` and the result steps are outside it (`placement(of:)`).
/// - The same holds for every SUBQUERY's program.
///
///     ProgramVerifier.controlFlowProblems(program)   // [] for every program codegen makes
extension ProgramVerifier {
    /// Where in a program an instruction may be.
    public enum Placement: Sendable {
        /// Inside the batch loop's body: it reads the current batch.
        case loopBody
        /// Outside the body: before the loop (table, access path) or after it (result steps, `Halt`).
        case outsideLoop
        /// Either (`Explain` has no effect; `Goto` closes the loop or skips forward).
        case anywhere
    }

    /// Where `opcode` may be. Exhaustive, with no `default`: a new opcode is placed when it is added.
    public static func placement(of opcode: Opcode) -> Placement {
        switch opcode {
        case .explain, .goto:
            .anywhere
        case .halt, .openTable, .scanTable, .scanNothing, .seekPrimaryKey, .seekIndexEqual, .seekIndexRange,
            .nextBatch, .sort, .topN, .distinct, .limit:
            .outsideLoop
        case .filterInt, .filterDouble, .filterFloat, .filterBool, .filterDate, .filterString, .filterNull,
            .filterIntIn, .filterStringIn, .gatherLink, .loadColumn, .countElements, .countMatching,
            .aggregateElements, .filterValue, .filterValueIn, .loadConstant, .arithmetic, .compareValues,
            .filterType, .valueSize, .countBacklinks, .selectCopy, .selectUnion, .selectExcept, .selectClear,
            .emit, .loadElement, .reducePath, .gatherElement, .filterValueList, .reducePathAgainst, .filterText,
            .filterGeoWithin, .filterMatches, .countSubquery, .loadGroups, .compareGroups, .loadParameter,
            .loadObjectLink, .compareSequences:
            .loopBody
        }
    }

    /// The control-flow rules above broken by `program` (and its SUBQUERY programs, reported at
    /// the `CountSubquery` that holds them); empty when it keeps them all.
    public static func controlFlowProblems(_ program: Program) -> [Problem] {
        var problems: [Problem] = []
        // Read field by field: copying whole instructions (their comments) cost as much again.
        let instructions = program.instructions
        let count = instructions.count
        if instructions.last?.opcode != .halt {
            problems.append(Problem(address: -1, opcode: nil, message: "the program does not end in Halt"))
        }
        // The batch loop: its head and exit, or an empty range.
        var loop = -1
        var exit = -1
        for address in 0..<count where instructions[address].opcode == .nextBatch {
            guard loop < 0 else {
                let message = "a second batch loop (the first is at \(loop))"
                problems.append(Problem(address, instructions[address], message))
                continue
            }
            loop = address
            exit = Int(instructions[address].p2)
            if exit <= address + 1 || exit >= count {
                problems.append(Problem(address, instructions[address], "exits to \(exit), not after its body"))
                exit = -1
            } else if instructions[exit - 1].opcode != .goto || Int(instructions[exit - 1].p2) != address {
                let message = "the batch loop's body does not end in Goto \(address)"
                problems.append(Problem(exit - 1, instructions[exit - 1], message))
            }
        }
        for address in 0..<count {
            let opcode = instructions[address].opcode
            let inBody = address > loop && address < exit
            switch placement(of: opcode) {
            case .loopBody where !inBody:
                problems.append(Problem(address, instructions[address], "runs on a batch, outside the batch loop"))
            case .outsideLoop where inBody:
                problems.append(Problem(address, instructions[address], "runs inside the batch loop"))
            case .loopBody, .outsideLoop, .anywhere:
                break
            }
            let jumps = opcode == .goto || (opcode == .emit && instructions[address].p5 == 1)
            if jumps {
                let target = Int(instructions[address].p2)
                var problem: String?
                if target < 0 || target >= count {
                    problem = "jumps to \(target), outside the program"
                } else if inBody && target == loop {
                    // The loop's next batch.
                } else if target <= address {
                    problem = "jumps back to \(target)"
                } else if !inBody && target > loop && target < exit {
                    problem = "jumps into the batch loop's body at \(target)"
                }
                if let problem { problems.append(Problem(address, instructions[address], problem)) }
            }
            if opcode == .countSubquery, let problem = subprogramProblem(instructions[address].p4, program.constants) {
                problems.append(Problem(address, instructions[address], problem))
            }
        }
        return problems
    }

    /// The control-flow problems of the SUBQUERY program in constant `index`, as one message.
    private static func subprogramProblem(_ index: Int32, _ pool: ConstantPool) -> String? {
        guard pool.contains(index) else { return nil }
        let nested: Program
        switch pool[index] {
        case .program(let program, _), .subquery(let program, _, _, _): nested = program
        default: return nil
        }
        let problems = controlFlowProblems(nested)
        if problems.isEmpty { return nil }
        return "its SUBQUERY program: " + problems.map(\.description).joined(separator: "; ")
    }

    /// Throws `InvalidProgram` naming every problem `verify` finds (all the rules: operands,
    /// constants, registers and control flow).
    public static func check(_ program: Program) throws(InvalidProgram) {
        let problems = verify(program)
        if !problems.isEmpty { throw InvalidProgram(className: program.className, problems: problems) }
    }

    /// Throws `InvalidProgram` naming every control-flow problem (`controlFlowProblems`).
    public static func checkControlFlow(_ program: Program) throws(InvalidProgram) {
        let problems = controlFlowProblems(program)
        if !problems.isEmpty { throw InvalidProgram(className: program.className, problems: problems) }
    }
}

extension ProgramVerifier.Problem {
    /// A problem of the instruction at `address`, its message prefixed with the opcode's name.
    init(_ address: Int, _ instruction: Instruction, _ message: String) {
        self.init(address: address, opcode: instruction.opcode, message: "\(instruction.opcode.name): \(message)")
    }
}
