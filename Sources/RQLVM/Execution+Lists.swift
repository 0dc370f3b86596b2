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
        guard let op = ComparisonOperator(code: instruction.p3) else {
            registers.clear(r)
            return
        }
        let options = StringOptions(rawValue: UInt8(truncatingIfNeeded: instruction.p5))
        registers.keep(r) { row in
            let value = values[Int(row)]
            return quantifier.holds(over: list) { element in
                valueFirst
                    ? ValueComparison.evaluate(value, op, element, options: options)
                    : ValueComparison.evaluate(element, op, value, options: options)
            }
        }
    }
}
