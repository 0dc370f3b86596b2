import RQLBytecode
import RQLCore

/// Instructions over value registers alone: a constant operand (`LoadConstant`), arithmetic
/// (`Arithmetic`) and the comparison of two registers (`CompareValues`): `age > owner.age`,
/// `price * 2 > owner.price + 1`.
extension Execution {
    /// `LoadConstant`: v[P3] := K[P4] at the rows of r[P1].
    func loadConstant(_ instruction: Op) {
        let r = Int(instruction.p1)
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let value: Value
        if case .value(let k)? = constant(instruction.p4) { value = k } else { value = .null }
        for j in 0..<registers.counts[r] { out[Int(rows[j])] = value }
    }

    /// `Arithmetic`: v[P3] := v[P2] op v[P4] by `ValueArithmetic`; a row whose pair has no result
    /// leaves r[P1], as the comparison it feeds cannot match.
    func arithmetic(_ instruction: Op) {
        let r = Int(instruction.p1)
        let lhs = gathers.values(Int(instruction.p2))
        let rhs = gathers.values(Int(instruction.p4))
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard let op = ArithmeticOperator(code: Int32(instruction.p5)) else {
            registers.clear(r)
            return
        }
        var m = 0
        for j in 0..<count {
            let row = rows[j]
            rows[m] = row
            guard let value = ValueArithmetic.apply(op, lhs[Int(row)], rhs[Int(row)]) else { continue }
            out[Int(row)] = value
            m &+= 1
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }

    /// `CompareValues`: keeps the rows whose v[P2] compares with v[P4], by `ValueComparison`.
    func compareValues(_ instruction: Op) {
        let r = Int(instruction.p1)
        let lhs = gathers.values(Int(instruction.p2))
        let rhs = gathers.values(Int(instruction.p4))
        guard let op = ComparisonOperator(code: instruction.p3) else {
            registers.clear(r)
            return
        }
        let options = StringOptions(rawValue: UInt8(truncatingIfNeeded: instruction.p5))
        registers.keep(r) { row in ValueComparison.evaluate(lhs[Int(row)], op, rhs[Int(row)], options: options) }
    }

    /// `FilterType`: keeps the rows for which some name of K[P4] is (`==`) or is not (`!=`) the
    /// type of v[P2]; the names are read once per instruction.
    func filterType(_ instruction: Op) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        guard case .values(let names)? = constant(instruction.p4), let op = ComparisonOperator(code: instruction.p3),
            op == .equal || op == .notEqual
        else {
            registers.clear(r)
            return
        }
        let attributes = names.map { TypeAttribute(naming: $0) }
        let wanted = op == .equal
        registers.keep(r) { row in
            let value = values[Int(row)]
            return attributes.contains { ($0?.matches(value) ?? false) == wanted }
        }
    }

    /// `ValueSize`: v[P3] := `ValueAggregation.reachedSize` of v[P2]; a row whose value has no
    /// size leaves r[P1].
    func valueSize(_ instruction: Op) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        let out = gathers.values(Int(instruction.p3))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        var m = 0
        for j in 0..<count {
            let row = rows[j]
            rows[m] = row
            guard let size = ValueAggregation.reachedSize(of: values[Int(row)]) else { continue }
            out[Int(row)] = .int(Int64(size))
            m &+= 1
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }
}
