import RQLBytecode
import RQLCore

/// An instruction's constant decoded once per run into the form its loop wants (a typed
/// scalar, a string matcher, a hash set), so that no batch decodes a `Value`.
enum PreparedOperand {
    /// Nothing to prepare (or a constant of the wrong kind: the instruction then keeps no row).
    case none
    case int(Int64)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case date(Timestamp)
    case matcher(StringMatcher)
    case intSet(Set<Int64>)
    case stringSet(ByteStringSet)

    init(_ instruction: Op, _ pool: ConstantPool) {
        // Only the typed filters have something to prepare: the others skip the pool (reading
        // a constant copies it, which a probe's few instructions would pay for nothing).
        guard Self.prepares(instruction.opcode), pool.contains(instruction.p4) else {
            self = .none
            return
        }
        let op = ComparisonOperator(code: instruction.p3) ?? .equal
        switch (instruction.opcode, pool[instruction.p4]) {
        case (.filterInt, .value(.int(let k))): self = .int(k)
        case (.filterDouble, .value(.double(let k))): self = .double(k)
        case (.filterFloat, .value(.float(let k))): self = .float(k)
        case (.filterBool, .value(.bool(let k))): self = .bool(k)
        case (.filterDate, .value(.date(let k))): self = .date(k)
        case (.filterString, .value(.string(let needle))):
            self = .matcher(
                StringMatcher(
                    StringMatcher.Operation(op) ?? .equal,
                    needle: needle,
                    options: StringOptions(rawValue: UInt8(truncatingIfNeeded: instruction.p5))
                )
            )
        case (.filterIntIn, .values(let values)):
            self = .intSet(Set(values.compactMap { if case .int(let i) = $0 { i } else { nil } }))
        case (.filterStringIn, .values(let values)):
            self = .stringSet(
                ByteStringSet(values.compactMap { if case .string(let s) = $0 { Array(s.utf8) } else { nil } })
            )
        default:
            self = .none
        }
    }

    /// Whether an instruction of `opcode` has an operand to prepare.
    static func prepares(_ opcode: Opcode) -> Bool {
        switch opcode {
        case .filterInt, .filterDouble, .filterFloat, .filterBool, .filterDate, .filterString, .filterIntIn,
            .filterStringIn:
            return true
        default:
            return false
        }
    }
}
