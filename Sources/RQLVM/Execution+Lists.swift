import RQLBytecode
import RQLCore

/// `FilterValueList`: one value per row compared with a constant list under the list's
/// quantifier (`age > ANY {1, 2}`, `name ENDSWITH {'a', 'b'}`, `id == ALL {1, 2}`), as the
/// reference evaluator quantifies a list operand: ANY is ∃, ALL ∀ and NONE ¬∃, so ALL and NONE
/// hold for an empty list.
extension Execution {
    func filterValueList(_ instruction: Op, _ quantifier: Quantifier, _ list: [Value], valueFirst: Bool) {
        let r = Int(instruction.p1)
        let values = gathers.values(Int(instruction.p2))
        let rows = registers.ready(r)
        let count = registers.counts[r]
        guard let op = ComparisonCode.comparison(instruction.p3) else {
            registers.clear(r)
            return
        }
        let options = StringOptions(rawValue: UInt8(truncatingIfNeeded: instruction.p5))
        var m = 0
        for j in 0..<count {
            let row = rows[j]
            rows[m] = row
            let value = values[Int(row)]
            let pair = { (element: Value) in
                valueFirst
                    ? ValueComparison.evaluate(value, op, element, options: options)
                    : ValueComparison.evaluate(element, op, value, options: options)
            }
            let holds: Bool
            switch quantifier {
            case .any: holds = list.contains(where: pair)
            case .all: holds = list.allSatisfy(pair)
            case .none: holds = !list.contains(where: pair)
            }
            m &+= Kernels.bit(holds)
        }
        if m != count { registers.dense[r] = false }
        registers.counts[r] = m
    }
}
