import RQLBytecode
import RQLCodegen
import RQLCore
import RQLIR
import RQLOptimizer
import RQLVM
import Testing

/// Bound query → plan (all passes or none) → program, verified.
enum VMHarness {
    static let cache = StatisticsCache()

    static func plan<Store: StoreReader>(_ bound: BoundQuery, store: Store, optimized: Bool) throws -> PhysicalPlan {
        if !optimized { return PhysicalPlan.unoptimized(bound) }
        let options = OptimizerOptions(verifiesEachPass: false, recordsPlans: false, statisticsCache: cache)
        return try Optimizer.optimize(LogicalPlan(bound), store: store, options: options).0
    }

    static func compile<Store: StoreReader>(_ bound: BoundQuery, store: Store, optimized: Bool) throws -> Program {
        let program = try Codegen.generate(
            try plan(bound, store: store, optimized: optimized),
            schema: store.schema,
            planRows: true
        )
        try ProgramVerifier.check(program)
        return program
    }
}
