import RQLBytecode
import RQLCodegen
import RQLCore
import RQLIR
import RQLVM

/// What a backend runs for one compiled query, and the one place that decides how each backend
/// runs it.
///
/// - `.program`: the optimized physical plan compiled to bytecode (`Codegen`) and run by the
///   `VirtualMachine` block by block: `--engine vm`, the default.
/// - `.reference`: `ReferenceEvaluator` on the bound query (`--engine reference`, the oracle).
///
/// There is no third form: when codegen refuses a plan (a codegen bug) compiling throws
/// `EngineError`, and a program the VM refuses to run is never answered another way.
enum Executable: Sendable {
    case program(Program, PhysicalPlan, BoundQuery, Schema)
    case reference(BoundQuery)

    /// The form `backend` runs; throws when codegen refuses the plan.
    static func make(
        backend: EngineBackend,
        bound: BoundQuery,
        physical: PhysicalPlan,
        schema: Schema
    ) throws(CodegenError) -> Executable {
        switch backend {
        case .reference:
            .reference(bound)
        case .vm:
            .program(try Codegen.generate(physical, schema: schema), physical, bound, schema)
        }
    }

    /// The keys of the results, in order (after SORT, DISTINCT, LIMIT).
    func run<Store: StoreReader>(on store: Store) throws(InvalidProgram) -> [RowKey] {
        switch self {
        case .program(let program, _, _, _):
            try VirtualMachine().run(program, on: store)
        case .reference(let bound):
            ReferenceEvaluator(store: store).run(bound)
        }
    }

    /// The number of results (after DISTINCT and LIMIT; SORT does not change it), without a
    /// row list when the result steps cannot change the count.
    func count<Store: StoreReader>(on store: Store) throws(InvalidProgram) -> Int {
        switch self {
        case .program(let program, let physical, _, _):
            let countsMatches = physical.result.allSatisfy { if case .sort = $0 { true } else { false } }
            return countsMatches
                ? try VirtualMachine().count(program, on: store) : try VirtualMachine().run(program, on: store).count
        case .reference(let bound):
            let countsMatches = bound.clauses.allSatisfy { if case .sort = $0 { true } else { false } }
            return countsMatches
                ? ReferenceEvaluator(store: store).count(bound) : ReferenceEvaluator(store: store).run(bound).count
        }
    }

    /// The keys of the results among the objects at `positions` (a collection's elements, in its
    /// order, repeats kept).
    func run<Store: StoreReader>(on store: Store, positions: [Int]) throws(InvalidProgram) -> [RowKey] {
        switch self {
        case .program(let program, _, _, _):
            try VirtualMachine().run(program, on: store, positions: positions)
        case .reference(let bound):
            ReferenceEvaluator(store: store).run(bound, positions: positions)
        }
    }

    /// The `QUERY PLAN` rows: the program's Explain instructions when there is a program, so
    /// that plan and code cannot disagree; otherwise (the reference evaluator) the same lines
    /// from the physical plan.
    func queryPlanRows(_ physical: PhysicalPlan) -> [QueryPlanRow] {
        if let program = explainProgram { return QueryPlanRow.rows(for: program) }
        return QueryPlanRow.rows(for: physical)
    }

    /// The program as EXPLAIN shows it: the one that runs, generated again with its QUERY PLAN
    /// rows as `Explain` instructions at the start (programs that only run leave them out, as
    /// SQLite's do).
    var explainProgram: Program? {
        guard case .program(let program, let physical, _, let schema) = self else { return nil }
        return (try? Codegen.generate(physical, schema: schema, planRows: true)) ?? program
    }

    /// The bytecode listing (`addr opcode p1 p2 p3 p4 p5 comment`), when the VM runs the query.
    var bytecode: [BytecodeRow]? {
        guard let program = explainProgram else { return nil }
        return ExplainFormatter.rows(program).map {
            BytecodeRow(
                address: $0.address,
                opcode: $0.opcode,
                p1: Int($0.p1),
                p2: Int($0.p2),
                p3: Int($0.p3),
                p4: $0.p4,
                p5: Int($0.p5),
                comment: $0.comment
            )
        }
    }

    /// Which executor runs the query, for `explain`.
    var executorName: String {
        switch self {
        case .program: "vm"
        case .reference: "reference evaluator"
        }
    }
}

/// One instruction of a program as EXPLAIN lists it, in SQLite's columns.
public struct BytecodeRow: Hashable, Sendable {
    public var address: Int
    public var opcode: String
    public var p1: Int
    public var p2: Int
    public var p3: Int
    /// The fourth operand as text (a constant, a column name), empty when unused.
    public var p4: String
    public var p5: Int
    public var comment: String

    public init(address: Int, opcode: String, p1: Int, p2: Int, p3: Int, p4: String, p5: Int, comment: String) {
        self.address = address
        self.opcode = opcode
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
        self.p4 = p4
        self.p5 = p5
        self.comment = comment
    }
}
