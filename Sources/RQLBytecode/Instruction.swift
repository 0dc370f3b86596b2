import RQLCore

/// One instruction: an opcode and five operands, SQLite-style. P1–P3 are small integers whose
/// meaning the opcode's `OpcodeInfo.roles` give (registers, columns, jump targets, counts,
/// operator codes); P4 is a constant-pool index (-1 for none); P5 holds flag bits.
///
///     Instruction(.filterInt, p1: 0, p2: 2, p3: ComparisonOperator.greater.code, p4: 3)
public struct Instruction: Hashable, Sendable {
    public var opcode: Opcode
    public var p1: Int32
    public var p2: Int32
    public var p3: Int32
    /// A constant-pool index, or -1.
    public var p4: Int32
    public var p5: UInt16
    /// What EXPLAIN prints in the comment column (the source of a filter, a label).
    public var comment: String

    public init(
        _ opcode: Opcode,
        p1: Int32 = 0,
        p2: Int32 = 0,
        p3: Int32 = 0,
        p4: Int32 = -1,
        p5: UInt16 = 0,
        comment: String = ""
    ) {
        self.opcode = opcode
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
        self.p4 = p4
        self.p5 = p5
        self.comment = comment
    }

    /// Operand P`index + 1` (0 … 4), widened so every operand reads the same way.
    public func operand(_ index: Int) -> Int64 {
        switch index {
        case 0: Int64(p1)
        case 1: Int64(p2)
        case 2: Int64(p3)
        case 3: Int64(p4)
        default: Int64(p5)
        }
    }
}

/// An operator enum as a number in an instruction operand: its position in `inCodeOrder`, so
/// the numbering is derived from the enum's own cases rather than kept beside it.
///
///     ComparisonOperator(code: ComparisonOperator.greater.code)   // .greater
///     ArithmeticOperator(code: 99)                                // nil
public protocol InstructionOperand: Equatable {
    /// The cases in code order (`allCases`, kept once so decoding does not allocate).
    static var inCodeOrder: [Self] { get }
}

extension InstructionOperand {
    /// The operand number of the operator.
    @inlinable
    public var code: Int32 { Int32(Self.inCodeOrder.firstIndex(of: self) ?? 0) }

    /// The operator numbered `code`, or nil when it is out of range.
    @inlinable
    public init?(code: Int32) {
        let cases = Self.inCodeOrder
        guard code >= 0 && Int(code) < cases.count else { return nil }
        self = cases[Int(code)]
    }
}

extension ComparisonOperator: InstructionOperand {
    public static let inCodeOrder = allCases
}

extension ArithmeticOperator: InstructionOperand {
    public static let inCodeOrder = allCases
}
