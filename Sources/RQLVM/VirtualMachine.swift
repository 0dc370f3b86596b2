import RQLBytecode
import RQLCore
import RQLStorage

/// Runs programs over a store snapshot, one storage block at a time.
///
///     let program = try Codegen.generate(plan, schema: store.schema)
///     let vm = VirtualMachine()
///     try vm.run(program, on: store)                      // row keys, after SORT / DISTINCT / LIMIT
///     try vm.count(program, on: store)                    // matches; clauses ignored, no rows built
///     try vm.run(program, on: store, positions: [4, 1, 4]) // a collection's query, in its order
///
/// Programs should pass `ProgramVerifier` (every program `Codegen` makes does). A run that meets
/// an instruction it cannot run where it is (a hand-built program the verifier would reject)
/// throws `InvalidProgram` naming it: it never traps, loops, or returns a shortened answer.
public struct VirtualMachine: Sendable {
    public init() {}

    /// The keys of the matching rows, in table order, then shaped by the program's result steps.
    // Specialized for the two stores RQLStorage has, so that a caller in another module (which
    // cannot specialize this generic function itself) still runs concrete code.
    @_specialize(where Store == BlockSnapshot)
    public func run<Store: StoreReader>(_ program: Program, on store: Store) throws(InvalidProgram) -> [RowKey] {
        let plan = RunPlan.plan(for: program)
        if let direct = plan.direct { return direct.rowKeys(on: store) }
        let execution = Execution(plan: plan, store: store, mode: .rows, positions: nil)
        execution.execute()
        if let failure = execution.failure { throw failure }
        return execution.keys
    }

    /// The number of matching rows, ignoring SORT, DISTINCT and LIMIT as realm-core's
    /// `Query::count()` does; no row list is built.
    // Specialized for the two stores RQLStorage has, so that a caller in another module (which
    // cannot specialize this generic function itself) still runs concrete code.
    @_specialize(where Store == BlockSnapshot)
    public func count<Store: StoreReader>(_ program: Program, on store: Store) throws(InvalidProgram) -> Int {
        let plan = RunPlan.plan(for: program)
        if let direct = plan.direct { return direct.count(on: store) }
        let execution = Execution(plan: plan, store: store, mode: .count, positions: nil)
        execution.execute()
        if let failure = execution.failure { throw failure }
        return execution.matchCount
    }

    /// The keys of the rows at `positions` (in that order, repeats kept) that match, then shaped
    /// by the result steps: a query over a collection's elements. Positions outside the table
    /// are skipped.
    // Specialized for the two stores RQLStorage has, so that a caller in another module (which
    // cannot specialize this generic function itself) still runs concrete code.
    @_specialize(where Store == BlockSnapshot)
    public func run<Store: StoreReader>(
        _ program: Program,
        on store: Store,
        positions: [Int]
    ) throws(InvalidProgram) -> [RowKey] {
        let execution = Execution(program: program, store: store, mode: .rows, positions: positions)
        execution.execute()
        if let failure = execution.failure { throw failure }
        return execution.keys
    }
}
