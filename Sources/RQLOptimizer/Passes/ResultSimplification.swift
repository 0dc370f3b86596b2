import RQLCore
import RQLIR

/// Drops result steps that cannot change the rows and merges neighbours:
///
///     LIMIT(10) LIMIT(5)                  → LIMIT(5)
///     SORT(age ASC) LIMIT(0)              → LIMIT(0)
///     SORT(name ASC) SORT(age DESC)       → SORT(age DESC, name ASC)
///     DISTINCT(name) DISTINCT(name)       → DISTINCT(name)
///     primary-key access, SORT(name ASC)  → no steps (at most one row)
///     empty access, any steps             → no steps
///
/// With the steps merged, a LIMIT that no SORT or DISTINCT precedes is the first step, which is
/// the shape that lets the scan stop after that many matches (`PhysicalPlan.scanLimit`).
///
/// Exact: LIMIT(a) then LIMIT(b) keeps min(a, b) rows; nothing survives LIMIT(0); two stable
/// sorts are one sort on the later keys then the earlier ones (realm-core merges them alike);
/// DISTINCT is idempotent; sorting or limiting (to at least one) a single row changes nothing;
/// no step finds rows in an empty access. DISTINCT of a single row is kept: it drops a row
/// whose key crosses a null link. `count` ignores the steps either way.
public struct ResultSimplification: Pass {
    public let name = "result-simplification"
    public let reason = "result steps that cannot change the rows go; adjacent LIMITs and SORTs merge"

    public init() {}

    public func mayApply(to plan: OptimizerPlan) -> Bool {
        // A logical plan is lowered by `run` (access-path selection was disabled).
        guard case .physical(let ready) = plan else { return true }
        return !ready.result.isEmpty
    }

    public func run(_ plan: inout OptimizerPlan, in context: PassContext) -> Bool {
        if case .physical(let ready) = plan, ready.result.isEmpty { return false }
        var physical = plan.physicalPlan
        let simplified = Self.simplify(physical.result, access: physical.access)
        let fired = simplified != physical.result
        physical.result = simplified
        plan = .physical(physical)
        return fired
    }

    static func simplify(_ steps: [ResultStep], access: AccessPath) -> [ResultStep] {
        if access == .empty { return [] }
        var result: [ResultStep] = []
        for step in steps {
            // Nothing follows LIMIT(0) into the result.
            if result == [.limit(0)] { break }
            switch (result.last, step) {
            case (_, .limit(0)):
                result = [.limit(0)]
            case (.limit(let a)?, .limit(let b)):
                result[result.count - 1] = .limit(Swift.min(a, b))
            case (.sort(let earlier)?, .sort(let later)):
                result[result.count - 1] = .sort(later + earlier)
            case (.distinct(let earlier)?, .distinct(let later)) where earlier == later:
                continue
            default:
                result.append(step)
            }
        }
        if case .primaryKey = access {
            // At most one row: sorting it, or keeping at least one, changes nothing.
            result.removeAll { step in
                switch step {
                case .sort, .topN(_, 1...): true
                case .limit(let n): n >= 1
                case .topN, .distinct: false
                }
            }
        }
        return result
    }
}

extension PhysicalPlan {
    /// The number of matches after which the scan may stop: the count of a LIMIT that comes
    /// before any SORT, DISTINCT or top-N (a LIMIT after those needs every match). `nil` when the
    /// scan must see every row. `count` ignores it, as it ignores every result step.
    ///
    ///     [.limit(10), .sort(k)]   → 10
    ///     [.sort(k), .limit(10)]   → nil (that is a top-N)
    public var scanLimit: Int? {
        guard case .limit(let n)? = result.first else { return nil }
        return n
    }
}
