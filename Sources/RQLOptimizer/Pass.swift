import RQLCore
import RQLIR

/// One rewrite of the optimizer pipeline: a named, documented step that takes the plan one way
/// closer to a fast one without changing which rows it selects, in which order.
///
/// Every pass has a `name` (what `--disable-pass` takes), a one-line `reason`, and an example
/// in its doc comment; `Optimizer.passes` lists them in the order they run, and the optimizer
/// runs the IR verifier after each one. A pass that does not apply leaves the plan as it is and
/// returns `false`.
///
/// ```swift
/// struct DropTruePredicates: Pass {
///     let name = "drop-true"
///     let reason = "TRUEPREDICATE filters nothing"
///     func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool { … }
/// }
/// ```
///
/// Passes must keep the plan valid for *any* data of the schema: the engine caches compiled
/// plans across store versions, so statistics may only choose between equivalent plans
/// (access paths, condition order), never decide what a query matches.
public protocol Pass: Sendable {
    /// The pass's name, in kebab case (`filter-combining`), as `--disable-pass` takes it.
    var name: String { get }
    /// Why the pass exists, in one line.
    var reason: String { get }
    /// Rewrites `plan`; returns whether anything changed.
    func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool
    /// Whether `run` could change `plan`: a test on the plan's shape, read in place, that lets
    /// the optimizer skip a pass that cannot apply without calling it (most passes do not apply
    /// to most queries). `false` promises that `run` would leave the plan as it is and return
    /// `false`; the default, `true`, promises nothing.
    func mayApply(to plan: OptimizerPlan) -> Bool
}

extension Pass {
    public func mayApply(to plan: OptimizerPlan) -> Bool { true }
}

/// The plan while it is being optimized: logical until access-path selection lowers it,
/// physical after. Passes over the logical plan rewrite predicates; passes over the physical
/// plan order conditions and shape the result.
///
///     var plan = OptimizerPlan.logical(LogicalPlan(bound))
///     plan.physicalPlan   // the lowering, if no pass has lowered it yet
public enum OptimizerPlan: Hashable, Sendable {
    /// Before lowering: filters and clauses in chain order.
    case logical(LogicalPlan)
    /// After lowering: access path, residual conditions, result steps.
    case physical(PhysicalPlan)

    /// The physical plan; a logical plan lowers to a full scan testing its whole predicate
    /// (`PhysicalPlan.unoptimized`), which is what runs when access-path selection is disabled.
    public var physicalPlan: PhysicalPlan {
        switch self {
        case .logical(let logical): PhysicalPlan.unoptimized(logical.query)
        case .physical(let physical): physical
        }
    }

    /// The class the plan selects from.
    public var className: String {
        switch self {
        case .logical(let logical): logical.className
        case .physical(let physical): physical.className
        }
    }
}
