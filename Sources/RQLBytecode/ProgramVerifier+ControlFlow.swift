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

    /// The address `instruction` may transfer control to, if it jumps: `Goto` and `NextBatch`
    /// always name one, `Emit` only with a LIMIT (P5 = 1).
    public static func jumpTarget(of instruction: Instruction) -> Int? {
        switch instruction.opcode {
        case .goto, .nextBatch: Int(instruction.p2)
        case .emit: instruction.p5 == 1 ? Int(instruction.p2) : nil
        default: nil
        }
    }

    /// The control-flow rules above broken by `program` (and its SUBQUERY programs, reported at
    /// the `CountSubquery` that holds them); empty when it keeps them all.
    public static func controlFlowProblems(_ program: Program) -> [Problem] {
        var problems: [Problem] = []
        let instructions = program.instructions
        let count = instructions.count
        if instructions.last?.opcode != .halt {
            problems.append(Problem(address: -1, opcode: nil, message: "the program does not end in Halt"))
        }
        // The batch loop: its head and exit, or an empty range.
        var loop = -1
        var exit = -1
        for (address, instruction) in instructions.enumerated() where instruction.opcode == .nextBatch {
            guard loop < 0 else {
                problems.append(Problem(address, instruction, "a second batch loop (the first is at \(loop))"))
                continue
            }
            loop = address
            exit = Int(instruction.p2)
            if exit <= address + 1 || exit >= count {
                problems.append(Problem(address, instruction, "exits to \(exit), not after its body"))
                exit = -1
            } else if instructions[exit - 1].opcode != .goto || Int(instructions[exit - 1].p2) != address {
                problems.append(
                    Problem(exit - 1, instructions[exit - 1], "the batch loop's body does not end in Goto \(address)")
                )
            }
        }
        for (address, instruction) in instructions.enumerated() {
            let inBody = address > loop && address < exit
            switch placement(of: instruction.opcode) {
            case .loopBody where !inBody:
                problems.append(Problem(address, instruction, "runs on a batch, outside the batch loop"))
            case .outsideLoop where inBody:
                problems.append(Problem(address, instruction, "runs inside the batch loop"))
            case .loopBody, .outsideLoop, .anywhere:
                break
            }
            if instruction.opcode != .nextBatch, let target = jumpTarget(of: instruction) {
                if target < 0 || target >= count {
                    problems.append(Problem(address, instruction, "jumps to \(target), outside the program"))
                } else if inBody && target == loop {
                    // The loop's next batch.
                } else if target <= address {
                    problems.append(Problem(address, instruction, "jumps back to \(target)"))
                } else if !inBody && target > loop && target < exit {
                    problems.append(Problem(address, instruction, "jumps into the batch loop's body at \(target)"))
                }
            }
            if instruction.opcode == .countSubquery, program.constants.contains(instruction.p4) {
                let nested: Program? =
                    switch program.constants[instruction.p4] {
                    case .program(let nested, _), .subquery(let nested, _, _, _): nested
                    default: nil
                    }
                let inner = nested.map(controlFlowProblems) ?? []
                if !inner.isEmpty {
                    let text = inner.map(\.description).joined(separator: "; ")
                    problems.append(Problem(address, instruction, "its SUBQUERY program: \(text)"))
                }
            }
        }
        return problems
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
