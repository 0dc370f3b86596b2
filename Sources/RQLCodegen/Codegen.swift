import RQLBytecode
import RQLCore
import RQLIR

/// Physical plan → program. The program opens the plan's table, sets up the access path's
/// candidates, then runs the residual conditions over each batch: comparisons of a column
/// of the class with a constant become one typed filter instruction each; AND narrows one
/// selection register; OR and NOT work on copies that `SelectUnion` / `SelectExcept` combine;
/// paths through links and collections, aggregates, SUBQUERY, TEXT, … load value registers
/// batch by batch and filter on them. Every predicate the binder accepts has a register form;
/// one without is `CodegenError.unsupported` (a codegen bug), never run another way here. The
/// result steps follow the loop.
/// The QUERY PLAN rows are `Explain` instructions at the start.
///
///     let (plan, _) = try Optimizer.optimize(LogicalPlan(bound), store: store)
///     let program = try Codegen.generate(plan, schema: store.schema, planRows: true)
///     print(ExplainFormatter.planTree(program))   // QUERY PLAN / `--SCAN Person
public enum Codegen {
    /// With `planRows`, the program is EXPLAIN's: it starts with one `Explain` instruction per
    /// QUERY PLAN row (`PlanRowText`), as SQLite's EXPLAIN programs do (the VM skips them), and
    /// its instructions carry comments. Programs that only run leave both out, because their
    /// text costs more than the rest of code generation.
    ///
    /// Every program goes through the verifier: with `verifies` (the default in debug builds:
    /// tests and fuzzing) all of `ProgramVerifier.verify`; otherwise its control-flow rules
    /// (`ProgramVerifier.controlFlowProblems`), the ones the VM's termination and complete answers
    /// rest on, which cost a fraction of the rest. A rejected program is
    /// `CodegenError.invalidProgram` (a codegen bug, reported rather than run).
    public static func generate(
        _ plan: PhysicalPlan,
        schema: Schema,
        planRows: Bool = false,
        verifies: Bool = _isDebugAssertConfiguration()
    ) throws(CodegenError) -> Program {
        guard let objectSchema = schema.lookUpClass(plan.className) else { throw .unknownClass(plan.className) }
        var generator = Generator(plan: plan, schema: schema, objectSchema: objectSchema, planRows: planRows)
        let program = generator.generate()
        if let predicate = generator.unlowered { throw .unsupported(predicate: IRPrinter.print(predicate)) }
        do {
            if verifies { try ProgramVerifier.check(program) } else { try ProgramVerifier.checkControlFlow(program) }
        } catch {
            throw .invalidProgram(error)
        }
        return program
    }
}

/// The state of one code generation.
struct Generator {
    let plan: PhysicalPlan
    let schema: Schema
    let objectSchema: ObjectSchema
    var builder: ProgramBuilder
    /// Whether the program starts with the QUERY PLAN rows.
    let planRows: Bool
    /// The first predicate met that has no register form (`noRegisterForm(_:)`).
    var unlowered: BoundPredicate?

    init(plan: PhysicalPlan, schema: Schema, objectSchema: ObjectSchema, planRows: Bool) {
        self.plan = plan
        self.schema = schema
        self.objectSchema = objectSchema
        self.planRows = planRows
        self.builder = ProgramBuilder(className: plan.className)
        builder.recordsComments = planRows
    }

    mutating func generate() -> Program {
        if planRows { explainRows() }
        builder.emit(.openTable, p4: builder.constant(.text(plan.className)))
        accessPath()
        let selection = builder.makeRegister()
        let done = builder.makeLabel()
        let loop = builder.here
        builder.emit(.nextBatch, p1: selection, jump: done)
        for condition in plan.residual {
            compile(condition.predicate, into: selection)
        }
        if case .limit(let count)? = plan.result.first {
            builder.emit(.emit, p1: selection, p3: Self.clamp(count), p5: 1, jump: done)
        } else {
            builder.emit(.emit, p1: selection)
        }
        builder.emit(.goto, jump: builder.label(at: loop))
        builder.place(done)
        for step in plan.result { resultStep(step) }
        builder.emit(.halt)
        do {
            return try builder.finish()
        } catch {
            // Every label above is placed; an unplaced one is a bug in this file.
            fatalError("codegen left label \(error.label) unplaced")
        }
    }

    static func clamp(_ count: Int) -> Int32 { Int32(clamping: max(0, count)) }

    // MARK: Access path

    private mutating func accessPath() {
        switch plan.access {
        case .fullScan:
            builder.emit(.scanTable)
        case .empty:
            builder.emit(.scanNothing)
        case .primaryKey(let property, let name, let value):
            builder.emit(.seekPrimaryKey, p1: Int32(property), p4: builder.constant(.values([value])), comment: name)
        case .primaryKeyIn(let property, let name, let values):
            builder.emit(.seekPrimaryKey, p1: Int32(property), p4: builder.constant(.values(values)), comment: name)
        case .indexEquality(let property, let name, let value):
            builder.emit(.seekIndexEqual, p1: Int32(property), p4: builder.constant(.values([value])), comment: name)
        case .indexIn(let property, let name, let values):
            builder.emit(.seekIndexEqual, p1: Int32(property), p4: builder.constant(.values(values)), comment: name)
        case .indexRange(let property, let name, let lower, let upper):
            let range = Constant.range(
                lower: lower?.value,
                lowerInclusive: lower?.isInclusive ?? false,
                upper: upper?.value,
                upperInclusive: upper?.isInclusive ?? false
            )
            builder.emit(.seekIndexRange, p1: Int32(property), p4: builder.constant(range), comment: name)
        }
    }

    // MARK: Result steps

    private mutating func resultStep(_ step: ResultStep) {
        switch step {
        case .sort(let keys):
            builder.emit(.sort, p4: builder.constant(.sortKeys(keys)))
        case .topN(let keys, let count):
            builder.emit(.topN, p1: Self.clamp(count), p4: builder.constant(.sortKeys(keys)))
        case .distinct(let paths):
            builder.emit(.distinct, p4: builder.constant(.paths(paths)))
        case .limit(let count):
            builder.emit(.limit, p1: Self.clamp(count))
        }
    }
}
