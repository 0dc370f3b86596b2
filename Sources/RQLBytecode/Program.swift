import RQLCore

/// A compiled query: instructions, their constants, and the number of selection registers
/// they use. Immutable and `Sendable`; one program runs on any snapshot of a store with its
/// schema, as many times as wanted.
///
///     let program = try Codegen.generate(plan, schema: store.schema)
///     print(ExplainFormatter.listing(program))
///     let keys = try VirtualMachine().run(program, on: store)
public struct Program: Hashable, Sendable {
    public var instructions: [Instruction]
    public var constants: ConstantPool
    /// Selection registers `r0 ..< r[registerCount]`.
    public var registerCount: Int
    /// The class whose rows the program selects.
    public var className: String
    /// Position registers `p0 ..< p[positionRegisterCount]` (link gathers).
    public var positionRegisterCount: Int
    /// Value registers `v0 ..< v[valueRegisterCount]` (loaded columns, counts, aggregates).
    public var valueRegisterCount: Int

    public init(
        instructions: [Instruction],
        constants: ConstantPool,
        registerCount: Int,
        className: String,
        positionRegisterCount: Int = 0,
        valueRegisterCount: Int = 0
    ) {
        self.instructions = instructions
        self.constants = constants
        self.registerCount = registerCount
        self.className = className
        self.positionRegisterCount = positionRegisterCount
        self.valueRegisterCount = valueRegisterCount
    }
}
