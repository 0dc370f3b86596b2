import RQLBytecode
import RQLCore

/// A count's last filter, counted instead of written.
///
/// In a count (`vm.count`), `emit` reads only its register's row count, never the rows. So when
/// a typed filter is followed directly by the `emit` of its own register (`age > 90`:
/// `FilterInt r0 …; Emit r0`), the filter need not write the surviving offsets at all: a
/// counting kernel adds predicate bits, which vectorises, where writing a selection is a
/// dependency chain through the output cursor. The register is left holding the count and
/// no valid rows, which nothing reads: `Codegen` places the one `emit` right before the loop's
/// `goto`, and the next batch refills the register.
extension Execution {
    /// Counts the filter at `pc` into its register when it feeds `emit` in a count and a
    /// counting kernel answers its shape; false (nothing done) otherwise.
    func countFeedingEmit(_ pc: Int, block: TableBlock) -> Bool {
        guard mode == .count, pc + 1 < ops.count else { return false }
        let instruction = ops[pc]
        let next = ops[pc + 1]
        guard next.opcode == .emit, next.p1 == instruction.p1 else { return false }
        let r = Int(instruction.p1)
        let column = Int(instruction.p2)
        guard column >= 0 && column < block.columns.count else { return false }
        assert(openColumns.contains(column), "column \(column) read but not opened (ColumnsRead)")
        let op = ComparisonOperator(code: instruction.p3) ?? .equal
        let rows = UnsafePointer(registers.rows(r))
        let count = registers.counts[r]
        let dense = registers.dense[r]
        let counted: Int?
        switch (instruction.opcode, block.columns[column], prepared[pc]) {
        case (.filterInt, .int(let view), .int(let k)):
            counted = Kernels.countMatches(view, op, k, rows, count, dense: dense)
        case (.filterDouble, .double(let view), .double(let k)):
            counted = Kernels.countMatches(view, op, k, rows, count, dense: dense)
        case (.filterFloat, .float(let view), .float(let k)):
            counted = Kernels.countMatches(view, op, k, rows, count, dense: dense)
        case (.filterNull, let view, _) where dense:
            counted = Kernels.countNull(Self.nulls(of: view), wantNull: op != .notEqual, count)
        default:
            counted = nil
        }
        guard let counted else { return false }
        registers.counts[r] = counted
        registers.dense[r] = false
        registers.pending[r] = false
        return true
    }
}
