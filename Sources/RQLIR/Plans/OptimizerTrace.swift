/// What one optimizer pass did to a plan, for `rqlc explain` and golden tests: the pass's name
/// and one-line reason, whether it changed anything, and the plan printed after it.
///
///     OptimizerTrace.Step(name: "filter-combining", reason: "one test per column and bound",
///                         fired: true, planAfter: "(query Dog (> Dog.age 7))")
public struct OptimizerTrace: Hashable, Sendable {
    /// One pass, in pipeline order.
    public struct Step: Hashable, Sendable {
        /// The pass's name, as `--disable-pass` takes it.
        public var name: String
        /// Why the pass exists, in one line.
        public var reason: String
        /// Whether the pass changed the plan (a disabled pass never fires).
        public var fired: Bool
        /// Whether the pass was disabled by the caller.
        public var disabled: Bool
        /// The plan after the pass: the logical plan's IR, or the physical plan once one exists.
        public var planAfter: String

        public init(name: String, reason: String, fired: Bool, disabled: Bool = false, planAfter: String) {
            self.name = name
            self.reason = reason
            self.fired = fired
            self.disabled = disabled
            self.planAfter = planAfter
        }
    }

    public var steps: [Step]

    public init(steps: [Step] = []) {
        self.steps = steps
    }
}
