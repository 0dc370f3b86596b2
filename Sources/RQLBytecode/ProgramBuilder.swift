import RQLCore

/// Builds a program instruction by instruction. Forward jumps name a `Label` that is placed
/// later; placing it patches every use with the label's address, and `finish()` refuses a
/// label used but never placed.
///
///     var b = ProgramBuilder(className: "Person")
///     let done = b.makeLabel()
///     let loop = b.here
///     b.emit(.nextBatch, p1: 0, jump: done)
///     b.emit(.goto, jump: b.label(at: loop))
///     b.place(done)
///     b.emit(.halt)
///     let program = try b.finish()
public struct ProgramBuilder {
    /// A jump target, placed once.
    public struct Label: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// A label used but never placed.
    public struct UnplacedLabel: Error, Hashable, Sendable {
        public let label: Int
    }

    public private(set) var instructions: [Instruction] = []
    public private(set) var constants = ConstantPool()
    public private(set) var registerCount = 0
    public private(set) var positionRegisterCount = 0
    public private(set) var valueRegisterCount = 0
    public let className: String
    /// Whether instructions keep their comments. EXPLAIN shows them; a program that only runs
    /// never does, and spelling them cost a tenth of code generation.
    public var recordsComments = true
    private var labelAddresses: [Int?] = []
    /// Instructions whose P2 waits for a label not yet placed, in the order they were emitted.
    private var patches: [(instruction: Int, label: Int)] = []

    public init(className: String) {
        self.className = className
        // Room for a typical program up front: growing the arrays from empty reallocated and
        // copied them three or four times per program (a tenth of code generation).
        instructions.reserveCapacity(16)
        labelAddresses.reserveCapacity(4)
        patches.reserveCapacity(4)
    }

    /// The address the next instruction gets.
    public var here: Int { instructions.count }

    public mutating func makeLabel() -> Label {
        labelAddresses.append(nil)
        return Label(id: labelAddresses.count - 1)
    }

    /// A label already placed at `address` (for backward jumps).
    public mutating func label(at address: Int) -> Label {
        labelAddresses.append(address)
        return Label(id: labelAddresses.count - 1)
    }

    /// Places `label` at the next instruction, and patches the jumps that were waiting for it.
    public mutating func place(_ label: Label) {
        let address = instructions.count
        labelAddresses[label.id] = address
        patches.removeAll { patch in
            guard patch.label == label.id else { return false }
            instructions[patch.instruction].p2 = Int32(address)
            return true
        }
    }

    /// A fresh selection register.
    public mutating func makeRegister() -> Int32 {
        registerCount += 1
        return Int32(registerCount - 1)
    }

    /// A fresh position register.
    public mutating func makePositionRegister() -> Int32 {
        positionRegisterCount += 1
        return Int32(positionRegisterCount - 1)
    }

    /// A fresh value register.
    public mutating func makeValueRegister() -> Int32 {
        valueRegisterCount += 1
        return Int32(valueRegisterCount - 1)
    }

    public mutating func constant(_ constant: Constant) -> Int32 {
        constants.add(constant)
    }

    /// Appends an instruction; with `jump`, its P2 is the label's address (patched when the label
    /// is placed). The comment is spelled only when the builder `recordsComments`.
    @discardableResult
    public mutating func emit(
        _ opcode: Opcode,
        p1: Int32 = 0,
        p2: Int32 = 0,
        p3: Int32 = 0,
        p4: Int32 = -1,
        p5: UInt16 = 0,
        jump: Label? = nil,
        comment: @autoclosure () -> String = ""
    ) -> Int {
        var p2 = p2
        if let jump {
            if let address = labelAddresses[jump.id] {
                p2 = Int32(address)
            } else {
                patches.append((instructions.count, jump.id))
            }
        }
        let text = recordsComments ? comment() : ""
        instructions.append(Instruction(opcode, p1: p1, p2: p2, p3: p3, p4: p4, p5: p5, comment: text))
        return instructions.count - 1
    }

    /// The program, with every jump patched.
    public func finish() throws(UnplacedLabel) -> Program {
        if let unplaced = patches.first { throw UnplacedLabel(label: unplaced.label) }
        return Program(
            instructions: instructions,
            constants: constants,
            registerCount: registerCount,
            className: className,
            positionRegisterCount: positionRegisterCount,
            valueRegisterCount: valueRegisterCount
        )
    }
}
