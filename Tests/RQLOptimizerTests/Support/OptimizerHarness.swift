import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import Testing

@testable import RQLOptimizer

/// Queries as text against one store: bind them, run single passes or the whole optimizer, and
/// print plans for golden comparisons.
///
///     let h = try OptimizerHarness(json: dataset, className: "Person")
///     let (before, after, fired) = try h.apply(FilterCombining(), to: "age > 5 AND age > 7")
struct OptimizerHarness {
    let store: BlockSnapshot
    let className: String
    /// A private cache, so tests do not share statistics through `StatisticsCache.shared`.
    let cache = StatisticsCache()

    init(store: BlockSnapshot, className: String) {
        self.store = store
        self.className = className
    }

    init(json: String, className: String) throws {
        self.init(store: try DatasetLoader.load(json: json), className: className)
    }

    func bind(_ text: String, arguments: [QueryArgument] = []) throws -> BoundQuery {
        try Binder(schema: store.schema).bind(try Parser.parse(text), className: className, arguments: arguments)
    }

    func context() throws -> PassContext {
        try PassContext(store: store, className: className, cache: cache)
    }

    var options: OptimizerOptions {
        OptimizerOptions(verifiesEachPass: true, statisticsCache: cache)
    }

    /// The whole pipeline on one query.
    func optimize(
        _ text: String,
        arguments: [QueryArgument] = [],
        disabling disabled: Set<String> = []
    ) throws -> (PhysicalPlan, OptimizerTrace) {
        var options = options
        options.disabledPasses = disabled
        return try Optimizer.optimize(LogicalPlan(try bind(text, arguments: arguments)), store: store, options: options)
    }

    /// One pass alone on the logical plan of `text` (lowered first for physical passes, when
    /// `lowered` is set): the plan printed before and after, and whether the pass fired. The
    /// plan after the pass must pass the verifier.
    func apply(
        _ pass: any Pass,
        to text: String,
        lowered: Bool = false,
        estimates: Bool = false
    ) throws -> (before: String, after: String, fired: Bool) {
        let logical = LogicalPlan(try bind(text))
        return try apply(
            pass,
            to: lowered ? .physical(PhysicalPlan.unoptimized(logical.query)) : .logical(logical),
            estimates: estimates
        )
    }

    func apply(
        _ pass: any Pass,
        to plan: OptimizerPlan,
        estimates: Bool = false
    ) throws -> (before: String, after: String, fired: Bool) {
        var plan = plan
        let before = PlanPrinter.print(plan, estimates: estimates)
        let fired = pass.run(&plan, in: try context())
        let problems = PlanVerifier(schema: store.schema).verify(plan)
        #expect(problems.isEmpty, "\(pass.name) left invalid IR: \(problems)")
        return (before, PlanPrinter.print(plan, estimates: estimates), fired)
    }

    /// The predicate of `text`, printed (for expectations written as queries).
    func printed(_ text: String) throws -> String {
        IRPrinter.print(try bind(text))
    }
}
