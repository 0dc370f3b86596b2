import RQLCore
import RQLIR

/// Turns a logical plan into the physical plan the VM runs, through the passes of
/// `Optimizer.passes`, and records what each pass did.
///
/// ```swift
/// let bound = try Binder(schema: store.schema).bind(try Parser.parse("age > 30 AND age > 40"), className: "Person")
/// let (plan, trace) = try Optimizer.optimize(LogicalPlan(bound), store: store)
/// trace.steps.filter(\.fired).map(\.name)   // ["filter-combining", "access-path-selection", …]
/// plan.residual.map(\.predicate)            // [(> Person.age 40)]
/// ```
///
/// Every pass keeps the plan's meaning for any data: the rows an optimized plan selects, and
/// their order, are the reference evaluator's for the original query. Statistics of `store`
/// only choose between equivalent plans, so a plan stays valid at later versions of the store.
public enum Optimizer {
    /// Optimizes `plan` for `store`.
    ///
    /// With `options.isEnabled == false` the result is `PhysicalPlan.unoptimized(plan.query)` and
    /// every pass is marked disabled in the trace. Throws `OptimizerError.unknownPass` for a
    /// disabled name that is not a pass, and the verification errors when a pass breaks the IR.
    public static func optimize<Store: StoreReader>(
        _ plan: LogicalPlan,
        store: Store,
        options: OptimizerOptions = OptimizerOptions()
    ) throws(OptimizerError) -> (PhysicalPlan, OptimizerTrace) {
        try checkPassNames(options)
        let context = try PassContext(
            store: store,
            className: plan.className,
            cache: options.statisticsCache,
            costModel: options.costModel
        )
        return try optimize(plan, context: context, options: options)
    }

    /// Optimizes `plan` with a ready context (tests build contexts with chosen statistics).
    public static func optimize(
        _ plan: LogicalPlan,
        context: PassContext,
        options: OptimizerOptions = OptimizerOptions()
    ) throws(OptimizerError) -> (PhysicalPlan, OptimizerTrace) {
        try checkPassNames(options)
        let verifier = PlanVerifier(schema: context.schema)
        var current = OptimizerPlan.logical(plan)
        if options.verifiesEachPass {
            let problems = verifier.verify(current)
            if !problems.isEmpty { throw .invalidInput(problems: problems) }
        }
        let text = { (plan: OptimizerPlan) in options.recordsPlans ? PlanPrinter.print(plan) : "" }
        guard options.isEnabled else {
            let unchanged = text(current)
            let steps = passes.map {
                OptimizerTrace.Step(
                    name: $0.name,
                    reason: $0.reason,
                    fired: false,
                    disabled: true,
                    planAfter: unchanged
                )
            }
            return (PhysicalPlan.unoptimized(plan.query), OptimizerTrace(steps: steps))
        }
        // A pass that leaves the plan as it was needs neither verifying nor printing again.
        // Comparing plans costs too, and so does keeping a copy to compare with: both only
        // when there is something to verify or print.
        let checks = options.verifiesEachPass || options.recordsPlans
        var previous = checks ? current : nil
        var previousText = text(current)
        // Without printing, every step's plan text is empty: the trace starts as the template of
        // unfired steps (one shared array) and is written only where a pass fires or is disabled,
        // instead of being built step by step.
        var trace = OptimizerTrace(steps: options.recordsPlans ? [] : unfiredSteps)
        if options.recordsPlans { trace.steps.reserveCapacity(passes.count) }
        // The passes are read in place: taking each one out of the list copied its existential.
        try passes.withUnsafeBufferPointer { (list) throws(OptimizerError) in
            for index in list.indices {
                if !options.disabledPasses.isEmpty && options.disabledPasses.contains(passNames[index]) {
                    if options.recordsPlans {
                        trace.steps.append(
                            OptimizerTrace.Step(
                                name: passNames[index],
                                reason: passReasons[index],
                                fired: false,
                                disabled: true,
                                planAfter: previousText
                            )
                        )
                    } else {
                        trace.steps[index].disabled = true
                    }
                    continue
                }
                // A pass that cannot apply is not run (`mayApply`): it would leave the plan unfired.
                let fired = list[index].mayApply(to: current) && list[index].run(&current, in: context)
                if checks && current != previous {
                    if options.verifiesEachPass {
                        let problems = verifier.verify(current)
                        if !problems.isEmpty {
                            throw .verificationFailed(pass: passNames[index], problems: problems)
                        }
                    }
                    previous = current
                    previousText = text(current)
                }
                if options.recordsPlans {
                    trace.steps.append(
                        OptimizerTrace.Step(
                            name: passNames[index],
                            reason: passReasons[index],
                            fired: fired,
                            planAfter: previousText
                        )
                    )
                } else if fired {
                    trace.steps[index].fired = true
                }
            }
        }
        return (current.physicalPlan, trace)
    }

    /// The passes' reasons in pipeline order: read once, not through each pass once a query.
    private static let passReasons: [String] = passes.map(\.reason)

    /// The trace of a run in which no pass fires, without plan texts: what a trace starts from
    /// when plans are not printed.
    private static let unfiredSteps: [OptimizerTrace.Step] = passes.map {
        OptimizerTrace.Step(name: $0.name, reason: $0.reason, fired: false, planAfter: "")
    }

    private static func checkPassNames(_ options: OptimizerOptions) throws(OptimizerError) {
        guard !options.disabledPasses.isEmpty else { return }
        let names = passNames
        for name in options.disabledPasses.sorted() where !names.contains(name) {
            throw .unknownPass(name, known: names)
        }
    }
}
