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

    /// The program (the plan's: not copied per run).
    var program: Program { plan.program }
    let store: Store
    let mode: Mode
    /// A caller's positions (`run(_:on:positions:)`), intersected with the access path's candidates.
    var callerPositions: [Int]?
    /// The hash sets of `IN` lists the run meets, made on first use.
    lazy var memberships = MembershipSets()
    let registers: SelectionRegisters
    /// The position and value registers (link gathers, loads, counts, aggregates), made on
    /// first use: plain scans and index probes name none.
    lazy var gathers = GatherRegisters<Store.Table>(
        positions: program.positionRegisterCount,
        values: program.valueRegisterCount
    )
    /// What the run takes from its program alone, shared by the program's runs (`RunPlan`).
    let plan: RunPlan
    /// The instructions without their comments: plain values, copied without reference counting.
    let ops: [Op]
    /// Per instruction, its constant decoded once for all runs.
    let prepared: [PreparedOperand]
    /// The columns the batch loop opens in each block: those the program reads (`ColumnsRead`).
    var openColumns: ColumnSelection { plan.openColumns }

    var table: Store.Table?
    var candidates: Candidates = .all
    /// The matching positions, in order (rows mode), and their row keys. Positions are kept only
    /// when a result step or a caller reads them (`keepsPositions`); keys always.
    var result: [Int] = []
    var keys: [RowKey] = []
    /// Whether `emit` keeps the positions in `result`: a SORT, top-N or DISTINCT reads them, and
    /// a run over a caller's positions (a SUBQUERY's nested run) returns them.
    let keepsPositions: Bool
    /// The most rows this run's batch loop can emit (its candidates, at most its LIMIT): the
    /// result arrays are sized for it once (`Execution.grow`).
    var resultBound = 0
    /// The LIMIT an `emit` stops at, or `Int.max`.
    private var emitLimit: Int { plan.emitLimit }
    var matchCount = 0
    /// The top-N list `emit` feeds when the program's first result step is a fusable `TopN`.
    var fusedTop: FusedTop?
    var fusedTopDecided = false
    /// What search and SUBQUERY instructions keep between batches (`Execution+Search.swift`);
    /// made on first use, so a run without them allocates nothing for it.
    lazy var searchState = SearchState<Store>()
    /// A correlated SUBQUERY's outer values (`LoadParameter`), set by the outer run per row.
    var parameters: [Value] = []
    /// Why the run stopped before its `Halt` (`fail(_:at:)`); nil while it runs as it should.
    var failure: InvalidProgram?

    convenience init(program: Program, store: Store, mode: Mode, positions: [Int]?) {
        self.init(plan: RunPlan.plan(for: program), store: store, mode: mode, positions: positions)
    }

    init(plan: RunPlan, store: Store, mode: Mode, positions: [Int]?) {
        self.plan = plan
        self.store = store
        self.mode = mode
        self.callerPositions = positions
        self.registers = plan.takeRegisters()
        self.ops = plan.ops
        self.prepared = plan.prepared
        self.keepsPositions = positions != nil || plan.stepsReadPositions
    }

    deinit { plan.giveBack(registers) }

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
        /// Stop: the instruction cannot run here (`Fault`).
        case fault(Fault)
    }

    /// Runs the program from address 0 to its `Halt`, or to a fault (`failure`). Control only
    /// moves forward outside the batch loop, and inside it only forward or back to the loop's
    /// head (which ends the batch), so a run ends without a step cap; a jump that breaks this is
    /// a fault, not a silently shortened run.
    func execute() {
        let count = ops.count
        var pc = 0
        while pc < count {
            switch step(pc, block: nil) {
            case .next: pc += 1
            case .jump(let target):
                guard target > pc else { return fail(.jumpBack(target), at: pc) }
                guard target < count else { return fail(.jumpOutside(target), at: pc) }
                pc = target
            case .halt: return
            case .batchLoop(let register, let exit):
                guard exit > pc + 1 && exit < count else { return fail(.exitBeforeBody(exit), at: pc) }
                pc = runBatches(loop: pc, register: register, exit: exit)
                if failure != nil { return }
            case .fault(let fault): return fail(fault, at: pc)
            }
        }
        fail(.noHalt, at: -1)
    }

    /// Runs the body after the `NextBatch` at `loop` once per batch; returns where to go next.
    private func runBatches(loop: Int, register: Int, exit: Int) -> Int {
        guard let table else { return stop(.noTable, at: loop) }
        let positions: [Int]
        switch (candidates, callerPositions) {
        case (.all, nil):
            resultBound = min(table.rowCount, emitLimit)
            for index in 0..<table.blockCount {
                let outcome: Int? = table.withBlock(index, columns: openColumns) { block in
                    registers.fill(register, count: block.count)
                    return runBody(block, loop: loop, exit: exit)
                }
                if let outcome { return outcome }
            }
            return exit
        case (.all, let given?):
            positions = given
        case (.positions(let found), nil):
            positions = found
        case (.positions(let found), let given?):
            let allowed = Set(found)
            positions = given.filter { allowed.contains($0) }
        }
        resultBound = min(positions.count, emitLimit)
        return runBatches(over: positions, table: table, loop: loop, exit: exit, register: register) ?? exit
    }

    /// The batch loop over a list of positions: consecutive positions of one block form a batch
    /// (at most a block's capacity of them). The block holding the next position is found in
    /// the same `withBlock` call that runs its batch (a guess from full blocks, checked there);
    /// only a wrong guess costs a search.
    private func runBatches(over positions: [Int], table: Store.Table, loop: Int, exit: Int, register: Int) -> Int? {
        let rowCount = table.rowCount
        let blockCount = table.blockCount
        var locator = BlockLocator(table: table)
        var index = 0
        var known: (block: Int, range: Range<Int>)?
        while index < positions.count {
            let position = positions[index]
            guard position >= 0 && position < rowCount, blockCount > 0 else {
                index += 1
                continue
            }
            let blockIndex = BlockLocator<Store.Table>.guess(for: position, known: known, blockCount: blockCount)
            var missed = false
            let outcome: Int? = table.withBlock(blockIndex, columns: openColumns) { block in
                guard block.positions.contains(position) else {
                    missed = true
                    return nil
                }
                known = (blockIndex, block.positions)
                let rows = registers.rows(register)
                let lower = block.positions.lowerBound
                let upper = block.positions.upperBound
                // Through locals and a buffer: `index` is captured by reference, and each access
                // to it and to the array went through memory and a bounds check (~32 instructions
                // a position of Q5 with an index).
                var n = 0
                var i = index
                positions.withUnsafeBufferPointer { candidates in
                    while i < candidates.count && n < SelectionRegisters.capacity {
                        let next = candidates[i]
                        if next < 0 || next >= rowCount {
                            i += 1
                            continue
                        }
                        guard next >= lower && next < upper else { break }
                        rows[n] = Int32(truncatingIfNeeded: next &- lower)
                        n += 1
                        i += 1
                    }
                }
                index = i
                registers.counts[register] = n
                registers.dense[register] = false
                registers.pending[register] = false
                return runBody(block, loop: loop, exit: exit)
            }
            if missed {
                // Blocks are not all full: search, then run that block on the next turn.
                guard let (found, _) = locator.block(containing: position) else {
                    index += 1
                    continue
                }
                let range = table.withBlock(found, columns: .none) { $0.positions }
                known = (found, range)
                continue
            }
            if let outcome { return outcome }
        }
        return nil
    }

    /// Runs the loop body on one batch: nil when it reached the loop's head again (next batch),
    /// otherwise the address to continue at after the loop (the end of the program on a fault).
    private func runBody(_ block: TableBlock, loop: Int, exit: Int) -> Int? {
        var pc = loop + 1
        while pc < exit {
            switch step(pc, block: block) {
            case .next: pc += 1
            case .jump(let target):
                if target == loop { return nil }
                guard target > pc else { return stop(.jumpBack(target), at: pc) }
                guard target < ops.count else { return stop(.jumpOutside(target), at: pc) }
                if target >= exit { return target }
                pc = target
            case .halt, .batchLoop: return stop(.insideBatchLoop, at: pc)
            case .fault(let fault): return stop(fault, at: pc)
            }
        }
        return stop(.bodyFallsThrough(loop: loop), at: exit - 1)
    }

    /// `fail(_:at:)`, then the address that ends the run.
    private func stop(_ fault: Fault, at address: Int) -> Int {
        fail(fault, at: address)
        return ops.count
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
