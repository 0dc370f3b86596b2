import RQLBytecode
import RQLCore
import Synchronization

/// What every run of one program derives from the program alone: the instructions as the
/// dispatch loop reads them, their decoded constants, the columns the batch loop opens, what
/// the result keeps, and a spare set of selection registers. Made once per program and kept in
/// `RunPlan.cache`, so that a run that reads one row (a primary-key probe, ~1 µs in
/// realm-core) does not rebuild it each time: decoding the program and allocating the
/// registers were a third of such a run's instructions.
final class RunPlan: @unchecked Sendable {
    // Immutable after `init` (hence `@unchecked Sendable`): runs on several threads read it at once.
    let program: Program
    /// The instructions without their comments: plain values, copied without reference counting.
    let ops: [Op]
    /// Per instruction, its constant decoded once (typed filters only).
    let prepared: [PreparedOperand]
    /// The columns of the scanned table that the program reads from blocks (`ColumnsRead`).
    let openColumns: ColumnSelection
    /// Whether a result step (SORT, top-N, DISTINCT) reads the matching positions.
    let stepsReadPositions: Bool
    /// The LIMIT an `emit` stops at, or `Int.max`.
    let emitLimit: Int
    /// The program's run without the batch loop, when it only emits an access path's candidates.
    let direct: DirectProbe?
    /// Selection registers a finished run gave back, for the next run to take.
    private let spare = Mutex<SelectionRegisters?>(nil)

    init(_ program: Program) {
        self.program = program
        let ops = program.instructions.map(Op.init)
        self.ops = ops
        prepared = ops.map { PreparedOperand($0, program.constants) }
        openColumns = ColumnsRead.selection(ops, program)
        var readsPositions = false
        var emitLimit = Int.max
        for op in ops {
            switch op.opcode {
            case .sort, .topN, .distinct: readsPositions = true
            case .emit where op.p5 == 1: emitLimit = min(emitLimit, max(0, Int(op.p3)))
            default: break
            }
        }
        stepsReadPositions = readsPositions
        self.emitLimit = emitLimit
        direct = DirectProbe(ops, program)
    }

    /// Registers for a run: the spare ones, cleared, or new ones.
    func takeRegisters() -> SelectionRegisters {
        if let registers = spare.withLock({ $0.take() }) {
            registers.reset()
            return registers
        }
        return SelectionRegisters(count: program.registerCount)
    }

    /// Keeps a finished run's registers for the next run (one set is kept; a concurrent run's
    /// are dropped).
    func giveBack(_ registers: SelectionRegisters) {
        spare.withLock { if $0 == nil { $0 = registers } }
    }
}

extension RunPlan {
    /// The plans of the programs run most recently, newest last.
    private static let cache = Mutex<[RunPlan]>([])
    /// Programs a cache holds at most; the oldest is dropped first.
    static let cacheLimit = 16

    /// The plan of `program`, from the cache or made now. Finding it compares programs, which
    /// is quick when it is the same program again (its arrays are the cached ones).
    static func plan(for program: Program) -> RunPlan {
        if let found = cache.withLock({ plans in plans.last(where: { $0.program == program }) }) { return found }
        let plan = RunPlan(program)
        cache.withLock { plans in
            if plans.count >= cacheLimit { plans.removeFirst() }
            plans.append(plan)
        }
        return plan
    }
}
