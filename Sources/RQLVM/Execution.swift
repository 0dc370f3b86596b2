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
    /// Per instruction, its constant decoded once for the whole run.
    var prepared: [PreparedOperand]

    var table: Store.Table?
    var candidates: Candidates = .all
    /// The matching positions, in order (rows mode).
    var result: [Int] = []
    var matchCount = 0

    init(program: Program, store: Store, mode: Mode, positions: [Int]?) {
        self.program = program
        self.store = store
        self.mode = mode
        self.callerPositions = positions
        self.evaluator = RowEvaluator(store: store)
        self.registers = SelectionRegisters(count: program.registerCount)
        self.prepared = []
        self.prepared = program.instructions.map { PreparedOperand($0, program.constants) }
    }

    func constant(_ index: Int32) -> Constant? {
        program.constants.contains(index) ? program.constants[index] : nil
    }

    func resultKeys() -> [RowKey] {
        guard let table else { return [] }
        return result.map { table.rowKey(at: $0) }
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
        let instructions = program.instructions
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
                } else {
                    registers.fill(register, count: block.count)
                }
                var pc = loop + 1
                while pc > loop && pc < program.instructions.count {
                    switch step(pc, block: block) {
                    case .next: pc += 1
                    case .jump(let target):
                        if target == loop { return nil }
                        pc = target
                    case .halt: return program.instructions.count
                    case .batchLoop: return program.instructions.count
                    }
                }
                return pc
            }
            if let outcome { return outcome }
        }
        return exit
    }
}
