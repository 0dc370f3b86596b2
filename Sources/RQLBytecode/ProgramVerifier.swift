import RQLCore

/// Checks a program's structure before it runs: every operand fits its role in the opcode
/// table (registers allocated, jumps inside the program, constants of the right kind, known
/// operators), the program has exactly one access path before its batch loop, and keeps the
/// control-flow rules (`controlFlowProblems`: it ends in `Halt`, jumps go forward but for the
/// batch loop's, batch instructions are in the loop). Returns the problems found; an empty list
/// means the VM can run the program without meeting a malformed instruction. `check` throws
/// them as `InvalidProgram`.
///
///     ProgramVerifier.verify(program)   // [] for every program codegen makes
public enum ProgramVerifier {
    /// One thing wrong with a program.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The instruction's address, or -1 for the whole program.
        public let address: Int
        /// The instruction's opcode; nil for the whole program.
        public let opcode: Opcode?
        /// What is wrong, after the opcode's name (`FilterInt: P1 names no register`).
        public let message: String

        public init(address: Int, opcode: Opcode?, message: String) {
            self.address = address
            self.opcode = opcode
            self.message = message
        }

        public var description: String { address < 0 ? message : "\(address): \(message)" }
    }

    public static func verify(_ program: Program) -> [Problem] {
        var problems: [Problem] = []
        let count = program.instructions.count
        var accessPaths = 0
        var opened = false
        // Registers written by an earlier instruction: a read must follow a write.
        var gathered: Set<Int64> = []
        var written: Set<Int64> = []
        for (address, instruction) in program.instructions.enumerated() {
            func report(_ message: String) {
                problems.append(Problem(address, instruction, message))
            }
            let shape = Int(instruction.opcode.rawValue)
            let roles = OperandShapes.roles(shape)
            for index in 0..<roles.count {
                let role = OperandShapes.table[roles.start + index]
                let operand = instruction.operand(index)
                // Spelled only when a problem is reported: codegen verifies every program it makes.
                func operandProblem(_ problem: String) { report("P\(index + 1) \(problem)") }
                switch role {
                case .unused:
                    if operand != (index == 3 ? -1 : 0) { operandProblem("is unused but set to \(operand)") }
                case .register:
                    if operand < 0 || operand >= program.registerCount { operandProblem("names no register") }
                case .jump:
                    if operand < 0 || operand >= count { operandProblem("jumps outside the program") }
                case .column:
                    if operand < 0 { operandProblem("is a negative column") }
                case .comparison:
                    if let op = ComparisonOperator(code: Int32(operand)) {
                        if op.isLowered { operandProblem("is \(op.rawValue), which the binder lowers") }
                    } else {
                        operandProblem("is not an operator")
                    }
                case .arithmetic:
                    if ArithmeticOperator(code: Int32(operand)) == nil {
                        operandProblem("is not an arithmetic operator")
                    }
                case .count, .options, .planRow:
                    if operand < 0 { operandProblem("is negative") }
                case .positionRegister:
                    if operand < 0 || operand >= program.positionRegisterCount {
                        operandProblem("names no position register")
                    }
                case .valueRegister:
                    if operand < 0 || operand >= program.valueRegisterCount {
                        operandProblem("names no value register")
                    } else if index != 2 && !written.contains(operand) {
                        operandProblem("reads value register \(operand) before any instruction writes it")
                    }
                case .source:
                    if operand < 0 || operand > program.positionRegisterCount {
                        operandProblem("names no source")
                    } else if operand > 0 && !gathered.contains(operand - 1) {
                        operandProblem("reads position register \(operand - 1) before any GatherLink writes it")
                    }
                case .constant:
                    if !program.constants.contains(Int32(operand)) { operandProblem("names no constant") }
                }
            }
            if OperandShapes.flags[shape].contains(.accessPath) {
                accessPaths += 1
                if !opened { report("an access path before OpenTable") }
            }
            if let problem = constantProblem(instruction, program.constants) { report(problem) }
            let p3Role = roles.count > 2 ? OperandShapes.table[roles.start + 2] : .unused
            if p3Role == .positionRegister { gathered.insert(Int64(instruction.p3)) }
            if p3Role == .valueRegister { written.insert(Int64(instruction.p3)) }
            switch instruction.opcode {
            case .openTable:
                opened = true
            case .nextBatch:
                if accessPaths != 1 { report("the batch loop needs exactly one access path before it") }
            case .halt, .goto, .explain, .scanTable, .scanNothing, .seekPrimaryKey, .seekIndexEqual,
                .seekIndexRange, .filterInt, .filterDouble, .filterFloat, .filterBool, .filterDate,
                .filterString, .filterNull, .filterIntIn, .filterStringIn, .gatherLink, .loadColumn, .countElements,
                .countMatching, .aggregateElements, .filterValue, .filterValueIn, .loadConstant, .arithmetic,
                .compareValues, .filterType, .valueSize, .countBacklinks,
                .selectCopy, .selectUnion, .selectExcept, .selectClear, .emit, .sort,
                .topN, .distinct, .limit, .loadElement, .reducePath, .gatherElement, .filterValueList,
                .reducePathAgainst:
                break
            case .filterText, .filterGeoWithin, .filterMatches, .countSubquery:
                break
            case .loadGroups:
                // The value registers an operand reads must have been written before.
                if program.constants.contains(instruction.p4),
                    case .groupOperand(let operand, _) = program.constants[instruction.p4]
                {
                    for v in operand.valueRegisters
                    where v >= program.valueRegisterCount || !written.contains(Int64(v)) {
                        report("K[P4] reads value register \(v) before any instruction writes it")
                    }
                }
            case .compareGroups:
                break
            case .loadParameter, .loadObjectLink, .compareSequences:
                break
            }
            // A correlated SUBQUERY's parameters, and the register its walk starts from, are
            // value registers written before it.
            if instruction.opcode == .countSubquery, program.constants.contains(instruction.p4),
                case .subquery(_, _, let parameters, let start) = program.constants[instruction.p4]
            {
                if let unwritten = parameters.first(where: { !written.contains(Int64($0)) || $0 == instruction.p3 }) {
                    report("parameter v[\(unwritten)] is not written before")
                }
                if let start, !written.contains(Int64(start)) || start == instruction.p3 {
                    report("start v[\(start)] is not written before")
                }
            }
        }
        if accessPaths > 1 { problems.append(Problem(address: -1, opcode: nil, message: "more than one access path")) }
        problems += controlFlowProblems(program)
        return problems
    }

    /// Whether P4 holds the kind of constant the opcode reads.
    private static func constantProblem(_ instruction: Instruction, _ pool: ConstantPool) -> String? {
        let roles = OperandShapes.roles(Int(instruction.opcode.rawValue))
        guard roles.count > 3, OperandShapes.table[roles.start + 3] == .constant, pool.contains(instruction.p4) else {
            return nil
        }
        let constant = pool[instruction.p4]
        let fits: Bool
        switch (instruction.opcode, constant) {
        case (.explain, .text), (.openTable, .text): fits = true
        case (.seekPrimaryKey, .values), (.seekIndexEqual, .values): fits = true
        case (.seekIndexRange, .range): fits = true
        case (.filterInt, .value(.int)), (.filterDouble, .value(.double)), (.filterFloat, .value(.float)),
            (.filterBool, .value(.bool)), (.filterDate, .value(.date)), (.filterString, .value(.string)):
            fits = true
        case (.filterIntIn, .values(let values)):
            fits = values.allSatisfy { if case .int = $0 { true } else { false } }
        case (.filterStringIn, .values(let values)):
            fits = values.allSatisfy { if case .string = $0 { true } else { false } }
        case (.filterType, .values(let names)):
            fits =
                names.allSatisfy { if case .string = $0 { true } else { false } }
                && (ComparisonOperator(code: instruction.p3).map { $0 == .equal || $0 == .notEqual } ?? false)
        case (.sort, .sortKeys), (.topN, .sortKeys), (.distinct, .paths): fits = true
        case (.gatherLink, .text): fits = true
        case (.countMatching, .elementTest(let test)): fits = (test.targetColumn ?? 0) >= 0
        case (.aggregateElements, .aggregate(_, _, let targetColumn)): fits = (targetColumn ?? 0) >= 0
        case (.filterValue, .value), (.filterValueIn, .values), (.loadConstant, .value): fits = true
        case (.loadElement, .element(let selectors)): fits = !selectors.isEmpty
        case (.gatherElement, .element(let selectors)): fits = selectors.count == 1
        case (.filterValueList, .quantifiedList): fits = true
        case (.reducePathAgainst, .pathWalk(let walk)):
            if case .quantifiedAgainst = walk.reduction { fits = true } else { fits = false }
        case (.reducePath, .pathWalk(let walk)):
            // A comparison with a per-row value needs that value: `ReducePathAgainst`.
            if case .quantifiedAgainst = walk.reduction {
                fits = false
            } else {
                fits = !walk.hops.isEmpty || walk.end != .objects
            }
        case (.filterText, .textSearch(_, let targetColumn)), (.filterGeoWithin, .geoRegion(_, _, let targetColumn)):
            fits = (targetColumn ?? 0) >= 0
        case (.filterMatches, .pattern): fits = true
        case (.countSubquery, .program(let nested, _)): fits = verify(nested).isEmpty
        case (.loadGroups, .groupOperand(let operand, _)): fits = operand.isWellFormed
        case (.compareGroups, .groupComparison): fits = true
        case (.compareSequences, .sequenceComparison(let lhs, let rhs, let comparison)):
            fits = lhs.isSequence && rhs.isSequence && comparison.form == .elementwise
        case (.countSubquery, .subquery(let nested, let hops, _, let start)):
            // The parameters and the start are value registers this program wrote before
            // (checked by `verify`); a walk from a link in a register has at least one hop.
            fits =
                verify(nested).isEmpty && instruction.p2 == 0 && instruction.p5 == 0 && (start == nil || !hops.isEmpty)
        default: fits = false
        }
        return fits ? nil : "P4 holds the wrong kind of constant"
    }
}

/// Each opcode's operand roles and flags from `OpcodeInfo.table`, in arrays of plain values:
/// reading `opcode.info` copies the opcode's name and documentation too, which cost a third of
/// verifying a program (codegen verifies every program it makes).
private enum OperandShapes {
    /// The roles of every opcode, one after another.
    static let table: [OpcodeInfo.Role] = OpcodeInfo.table.flatMap(\.roles)
    /// Where each opcode's roles start in `table`, by raw value; one extra entry at the end.
    static let starts: [Int] = OpcodeInfo.table.reduce(into: [0]) { starts, info in
        starts.append(starts[starts.count - 1] + info.roles.count)
    }
    static let flags: [OpcodeInfo.Flags] = OpcodeInfo.table.map(\.flags)

    static func roles(_ opcode: Int) -> (start: Int, count: Int) {
        (starts[opcode], starts[opcode + 1] - starts[opcode])
    }
}
