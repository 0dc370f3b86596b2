import RQLCore
import RQLIR

/// What a backend runs for one compiled query, and the one place that decides how each backend
/// runs it: the seam where the VM plugs in.
///
/// Today there are two forms:
/// - `.reference`: `ReferenceEvaluator` on the bound query (`--engine reference`, the oracle);
/// - `.plan`: the optimized physical plan run step by step (`PhysicalPlanRunner`): candidates
///   from the access path (primary key, hash or sorted index, full scan), the residual
///   conditions in the optimizer's order, then the result steps (top-N, LIMIT that stops the
///   scan early). Each condition is decided by the reference evaluator's rules, so this checks
///   the optimizer's plans against the oracle before any bytecode exists.
///
/// **When the VM lands** (`Codegen.generate(_:schema:)`, `VirtualMachine`), the changes are
/// all in this file: add `case program(Program, PhysicalPlan, BoundQuery)`, build it in
/// `make` for `.vm`, run it in `run`/`count`/`run(on:positions:)`, and return the program's
/// listing and Explain rows from `bytecode` and `queryPlanRows`.
enum Executable: Sendable {
    /// The bound query, for the reference evaluator.
    case reference(BoundQuery)
    /// The physical plan, interpreted; the bound query is kept for collection queries (whose
    /// candidates are a collection's elements, not an access path) and as the fallback when the
    /// store lacks an index the plan names.
    case plan(PhysicalPlan, BoundQuery)

    /// The form `backend` runs.
    static func make(backend: EngineBackend, bound: BoundQuery, physical: PhysicalPlan, schema: Schema) -> Executable {
        switch backend {
        case .reference: .reference(bound)
        // VM SEAM: `.program(program, physical, bound)` with the program from
        // `Codegen.generate(physical, schema: schema)`. A `CodegenError` is a codegen bug (every
        // bound construct must compile): keep `.plan(physical, bound)` then, so the query still
        // runs correctly, and let the three-way tests surface it (as `optimizerFailure` does).
        case .vm: .plan(physical, bound)
        }
    }

    /// The keys of the results, in order (after SORT, DISTINCT, LIMIT).
    func run<Store: StoreReader>(on store: Store) -> [RowKey] {
        switch self {
        case .reference(let bound):
            ReferenceEvaluator(store: store).run(bound)
        case .plan(let physical, let bound):
            PhysicalPlanRunner(store: store, plan: physical, fallback: bound).run()
        }
    }

    /// The number of results (after DISTINCT and LIMIT; SORT does not change it), without a
    /// row list when the result steps cannot change the count.
    func count<Store: StoreReader>(on store: Store) -> Int {
        switch self {
        case .reference(let bound):
            let countsMatches = bound.clauses.allSatisfy { if case .sort = $0 { true } else { false } }
            return countsMatches
                ? ReferenceEvaluator(store: store).count(bound) : ReferenceEvaluator(store: store).run(bound).count
        case .plan(let physical, let bound):
            return PhysicalPlanRunner(store: store, plan: physical, fallback: bound).count()
        }
    }

    /// The keys of the results among the objects at `positions` (a collection's elements, in its
    /// order, repeats kept).
    func run<Store: StoreReader>(on store: Store, positions: [Int]) -> [RowKey] {
        switch self {
        case .reference(let bound), .plan(_, let bound):
            // A collection's elements are the candidates: no access path applies.
            ReferenceEvaluator(store: store).run(bound, positions: positions)
        }
    }

    /// The `QUERY PLAN` rows. VM SEAM: from the program's Explain instructions once it exists,
    /// so that plan and code cannot disagree; until then from the physical plan.
    func queryPlanRows(_ physical: PhysicalPlan) -> [QueryPlanRow] {
        QueryPlanRow.rows(for: physical)
    }

    /// The bytecode listing (`addr opcode p1 p2 p3 p4 p5 comment`). VM SEAM: nil until the VM
    /// lands; then the program's instructions, one row each.
    var bytecode: [BytecodeRow]? {
        nil
    }

    /// Which executor runs the query, for `explain`.
    var executorName: String {
        switch self {
        case .reference: "reference evaluator"
        case .plan: "physical plan interpreter (reference semantics; the VM has not landed)"
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
