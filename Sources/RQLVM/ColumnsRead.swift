import RQLBytecode
import RQLCore

/// The columns of the scanned table that a program reads from its batches' blocks, so that the
/// batch loop opens only those (`TableReader.withBlock(_:columns:_:)`). Opening a column costs
/// per block: `age > 90` reads one column of seven, an index probe with nothing left to test
/// reads none (Q5 with an index spent three quarters of its run opening all seven).
///
/// An instruction reads the block's column at each operand whose role is `column`
/// (`OpcodeInfo.roles`), unless its `source` operand names a position register (then the column
/// belongs to the linked table, opened whole through `withColumn`) or it is an access path (it
/// reads an index before the batch loop). Besides, the fused top-N
/// (`Execution+FusedTopN.swift`) reads its sort key's column from the block. Every reader of
/// `TableBlock.columns` in the VM is one of these; a new one must be added here, and the
/// debug check in `Execution.column(_:of:)` stops a run that reads a column not opened.
enum ColumnsRead {
    /// Per opcode (by raw value), the operand slots (0 = P1 … 4 = P5) whose role is `column`,
    /// as bits. An access path's column (`SeekIndexEqual`) is read through the index before the
    /// batch loop, not from blocks.
    private static let columnSlots: [UInt8] = OpcodeInfo.table.map { info in
        var bits: UInt8 = 0
        if info.flags.contains(.accessPath) { return 0 }
        for (slot, role) in info.roles.enumerated() where role == .column { bits |= 1 << UInt8(slot) }
        return bits
    }

    /// Per opcode (by raw value), the operand slot whose role is `source`, or -1.
    private static let sourceSlot: [Int8] = OpcodeInfo.table.map { info in
        Int8(info.roles.firstIndex(of: .source) ?? -1)
    }

    /// The columns of `program`'s table read from blocks by `ops` (the program's instructions).
    static func selection(_ ops: [Op], _ program: Program) -> ColumnSelection {
        var selection = ColumnSelection.none
        for op in ops {
            let code = Int(op.opcode.rawValue)
            guard code < columnSlots.count else { return .all }
            let slots = columnSlots[code]
            if slots != 0 {
                let source = sourceSlot[code]
                if source < 0 || operand(op, Int(source)) == 0 {
                    for slot in 0..<5 where slots & (1 << UInt8(slot)) != 0 {
                        selection = selection.adding(Int(operand(op, slot)))
                    }
                }
            }
            if op.opcode == .topN, program.constants.contains(op.p4),
                case .sortKeys(let keys) = program.constants[op.p4]
            {
                // The fused top-N reads a one-step key's column from each block.
                for key in keys where key.path.root == .object && key.path.steps.count == 1 {
                    if case .property(_, let index, _) = key.path.steps[0] { selection = selection.adding(index) }
                }
            }
        }
        return selection
    }

    private static func operand(_ op: Op, _ slot: Int) -> Int32 {
        switch slot {
        case 0: op.p1
        case 1: op.p2
        case 2: op.p3
        case 3: op.p4
        default: Int32(op.p5)
        }
    }
}
