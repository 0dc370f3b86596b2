import RQLIR

/// Fuses a SORT followed by a LIMIT into a top-N step, which keeps the first rows of the sort in
/// a bounded heap instead of sorting every match:
///
///     age > 50 SORT(score DESC) LIMIT(10)   → top-n 10 (score DESC)
///
/// Exact by definition: `ResultStep.topN` is the first `count` rows of the stable sort.
public struct TopNFusion: Pass {
    public let name = "top-n"
    public let reason = "SORT then LIMIT keeps a bounded heap instead of sorting every match"

    public init() {}

    public func mayApply(to plan: OptimizerPlan) -> Bool {
        // A logical plan is lowered by `run` (access-path selection was disabled).
        guard case .physical(let ready) = plan else { return true }
        return ready.result.count >= 2
    }

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        if case .physical(let ready) = plan, ready.result.count < 2 { return false }
        var physical = plan.physicalPlan
        var fused: [ResultStep] = []
        for step in physical.result {
            if case .limit(let count) = step, case .sort(let keys)? = fused.last {
                fused[fused.count - 1] = .topN(keys: keys, count: count)
            } else {
                fused.append(step)
            }
        }
        let fired = fused != physical.result
        physical.result = fused
        plan = .physical(physical)
        return fired
    }
}
