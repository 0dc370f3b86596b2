/// How `Optimizer.optimize` runs: whether at all, which passes to skip, and what it checks and
/// records on the way.
///
/// ```swift
/// var options = OptimizerOptions()
/// options.disabledPasses = ["filter-combining"]     // rqlc --disable-pass filter-combining
/// let (plan, trace) = try Optimizer.optimize(logical, store: store, options: options)
/// OptimizerOptions(isEnabled: false)                // rqlc --no-optimize
/// ```
public struct OptimizerOptions: Sendable, Hashable {
    /// When false, the optimizer returns `PhysicalPlan.unoptimized` and marks every pass disabled.
    public var isEnabled: Bool
    /// Names of passes to skip (`Optimizer.passes`); an unknown name is an error.
    public var disabledPasses: Set<String>
    /// Whether the IR verifier runs on the input and after every pass. On by default in debug
    /// builds (tests, fuzzing), off in release builds, where it would dominate compile time.
    public var verifiesEachPass: Bool
    /// Whether the trace holds the plan printed after every pass (`rqlc explain` needs it;
    /// running a query does not, and printing a 40,000-value IN list eight times costs).
    public var recordsPlans: Bool
    /// Where column statistics are cached; `.shared` unless a caller wants its own.
    public var statisticsCache: StatisticsCache
    /// The cost model's constants.
    public var costModel: CostModel

    public init(
        isEnabled: Bool = true,
        disabledPasses: Set<String> = [],
        verifiesEachPass: Bool = _isDebugAssertConfiguration(),
        recordsPlans: Bool = true,
        statisticsCache: StatisticsCache = .shared,
        costModel: CostModel = CostModel()
    ) {
        self.isEnabled = isEnabled
        self.disabledPasses = disabledPasses
        self.verifiesEachPass = verifiesEachPass
        self.recordsPlans = recordsPlans
        self.statisticsCache = statisticsCache
        self.costModel = costModel
    }

    public static func == (lhs: OptimizerOptions, rhs: OptimizerOptions) -> Bool {
        lhs.isEnabled == rhs.isEnabled && lhs.disabledPasses == rhs.disabledPasses
            && lhs.verifiesEachPass == rhs.verifiesEachPass && lhs.recordsPlans == rhs.recordsPlans
            && lhs.statisticsCache === rhs.statisticsCache && lhs.costModel == rhs.costModel
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isEnabled)
        hasher.combine(disabledPasses)
        hasher.combine(verifiesEachPass)
        hasher.combine(recordsPlans)
        hasher.combine(ObjectIdentifier(statisticsCache))
        hasher.combine(costModel)
    }
}
