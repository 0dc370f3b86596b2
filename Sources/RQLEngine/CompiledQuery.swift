import RQLBytecode
import RQLCore
import RQLIR
import RQLOptimizer
import RQLSyntax

/// A query compiled once and run many times: every stage the compiler went through, kept for
/// `explain`, and the executable form the chosen backend runs.
///
/// ```swift
/// let engine = QueryEngine()
/// let compiled = try engine.compile("age > $0 SORT(name ASC)", className: "Dog", store: store,
///                                   arguments: [.value(.int(2))])
/// compiled.physical.access          // .fullScan
/// engine.run(compiled, on: store)   // [RowKey], sorted by name
/// ```
///
/// A compiled query stays valid at every later version of a store with the same schema: the
/// optimizer's statistics only choose between equivalent plans.
public struct CompiledQuery: Sendable {
    /// The query text and its dialect, when compiled from text (not from a DSL-built or chained plan).
    public let source: (text: String, dialect: Dialect)?
    /// The parsed syntax tree, when compiled from text.
    public let syntax: QuerySyntax?
    /// The bound, type-checked query: the plan's filters merged, its clauses in order.
    public let bound: BoundQuery
    /// The logical plan the optimizer started from.
    public let logical: LogicalPlan
    /// The plan that runs: access path, residual conditions, result steps.
    public let physical: PhysicalPlan
    /// What each optimizer pass did (empty plans when the engine does not record the trace).
    public let trace: OptimizerTrace
    /// Set when the optimizer failed on this query (a bug: it broke the IR verifier); the
    /// physical plan is then the unoptimized one, so the query still runs correctly.
    public let optimizerFailure: OptimizerError?
    /// The options it was compiled with.
    public let options: EngineOptions
    /// What the backend runs.
    let executable: Executable

    /// The class the query selects from.
    public var className: String { bound.className }

    /// The query as an `EngineError` names it: its text, or the bound query printed as IR.
    var queryText: String { source?.text ?? IRPrinter.print(bound) }

    /// `error`, the VM's refusal of this query's program, as the engine reports it.
    func engineError(_ error: InvalidProgram) -> EngineError {
        EngineError(query: queryText, className: className, reason: .execution(error))
    }
}
