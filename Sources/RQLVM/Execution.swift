import RQLBytecode
import RQLCore

/// One run of a program on one store: the registers, the candidates, the result, and the
/// dispatch loop.
final class Execution<Store: StoreReader> {
    enum Mode {
        /// Gather the matching rows and apply the result steps.
        case rows
        /// Count the matches only.
        case count
    }

    let program: Program
    let store: Store
    let mode: Mode
    /// A caller's positions (`run(_:on:positions:)`), intersected with the access path's candidates.
    let callerPositions: [Int]?
    let evaluator: RowEvaluator<Store>
    let memberships = MembershipSets()
    let registers: SelectionRegisters
    /// The instructions without their comments: plain values, copied without reference counting.
    let ops: [Op]
    /// Per instruction, its constant decoded once for the whole run.
    var prepared: [PreparedOperand]

    var table: Store.Table?
    var candidates: Candidates = .all
    /// The matching positions, in order (rows mode), and their row keys.
    var result: [Int] = []
    var keys: [RowKey] = []
    var matchCount = 0

    init(program: Program, store: Store, mode: Mode, positions: [Int]?) {
        self.program = program
        self.store = store
        self.mode = mode
        self.callerPositions = positions
        self.evaluator = RowEvaluator(store: store)
        self.registers = SelectionRegisters(count: program.registerCount)
        self.ops = program.instructions.map(Op.init)
        self.prepared = program.instructions.map { PreparedOperand($0, program.constants) }
    }

    func constant(_ index: Int32) -> Constant? {
        program.constants.contains(index) ? program.constants[index] : nil
    }

    /// What one instruction asks of the loop.
    enum Signal {
        case next
        case jump(Int)
        case halt
        /// Run the batch loop whose body follows; when it is done, continue at the address.
        case batchLoop(register: Int, exit: Int)
    }

    /// Runs the program from address 0.
    func execute() {
        let instructions = ops
        var pc = 0
        var steps = 0
        while pc >= 0 && pc < instructions.count {
            steps += 1
            if steps > instructions.count * 4 + 16 { return }  // no loops outside the batch loop
            switch step(pc, block: nil) {
            case .next: pc += 1
            case .jump(let target): pc = target
            case .halt: return
            case .batchLoop(let register, let exit):
                pc = runBatches(loop: pc, register: register, exit: exit)
            }
        }
    }

    /// Runs the body after the `NextBatch` at `loop` once per batch; returns where to go next.
    private func runBatches(loop: Int, register: Int, exit: Int) -> Int {
        guard let table else { return exit }
        let batches: [Batch]
        switch (candidates, callerPositions) {
        case (.all, nil):
            batches = (0..<table.blockCount).map { Batch(block: $0, offsets: nil) }
        case (.all, let positions?):
            batches = self.batches(of: positions, table: table)
        case (.positions(let found), nil):
            batches = self.batches(of: found, table: table)
        case (.positions(let found), let positions?):
            let allowed = Set(found)
            batches = self.batches(of: positions.filter { allowed.contains($0) }, table: table)
        }
        for batch in batches {
            let outcome: Int? = table.withBlock(batch.block) { block in
                if let offsets = batch.offsets {
                    offsets.withUnsafeBufferPointer { source in
                        registers.rows(register).update(from: source.baseAddress!, count: source.count)
                    }
                    registers.counts[register] = offsets.count
                    registers.dense[register] = false
                    registers.pending[register] = false
                } else {
                    registers.fill(register, count: block.count)
                }
                var pc = loop + 1
                while pc > loop && pc < ops.count {
                    switch step(pc, block: block) {
                    case .next: pc += 1
                    case .jump(let target):
                        if target == loop { return nil }
                        pc = target
                    case .halt: return ops.count
                    case .batchLoop: return ops.count
                    }
                }
                return pc
            }
            if let outcome { return outcome }
        }
        return exit
    }
}

/// An instruction as the dispatch loop reads it: the opcode and operands, no comment.
struct Op {
    var opcode: Opcode
    var p1: Int32
    var p2: Int32
    var p3: Int32
    var p4: Int32
    var p5: UInt16

    init(_ instruction: Instruction) {
        opcode = instruction.opcode
        p1 = instruction.p1
        p2 = instruction.p2
        p3 = instruction.p3
        p4 = instruction.p4
        p5 = instruction.p5
    }
}
