import RQLOptimizer

/// How a `QueryEngine` compiles and runs queries: which executor runs them, whether the
/// optimizer runs and which of its passes are skipped, and whether compiling records the
/// optimizer's trace (the plan printed after every pass, which `explain` shows).
///
/// ```swift
/// var options = EngineOptions()
/// options.disabledPasses = ["filter-combining"]    // rqlc --disable-pass filter-combining
/// options.optimizes = false                         // rqlc --no-optimize
/// options.backend = .reference                      // rqlc --engine reference
/// let engine = try QueryEngine(options: options)    // an unknown pass name throws here
/// ```
public struct EngineOptions: Hashable, Sendable {
    /// Which executor runs compiled queries.
    public var backend: EngineBackend
    /// Whether the optimizer runs; when false the physical plan is a full scan testing the whole
    /// predicate (`PhysicalPlan.unoptimized`).
    public var optimizes: Bool
    /// Names of optimizer passes to skip (`Optimizer.passNames`).
    public var disabledPasses: Set<String>
    /// Whether compiling keeps the plan printed after every pass (for `explain`); running a
    /// query does not need it, and printing a large IN list once per pass costs.
    public var recordsTrace: Bool

    public init(
        backend: EngineBackend = .vm,
        optimizes: Bool = true,
        disabledPasses: Set<String> = [],
        recordsTrace: Bool = false
    ) {
        self.backend = backend
        self.optimizes = optimizes
        self.disabledPasses = disabledPasses
        self.recordsTrace = recordsTrace
    }

    /// The first disabled name that is not a pass, in sorted order, or nil.
    func unknownPass() -> String? {
        disabledPasses.sorted().first { !Optimizer.passNames.contains($0) }
    }
}

/// Which executor runs a compiled query.
public enum EngineBackend: String, Hashable, Sendable, CaseIterable {
    /// The optimized path: the physical plan (access path, residual conditions in cost order,
    /// result steps) compiled to a program the VM runs (see `Executable`).
    case vm
    /// The oracle: `ReferenceEvaluator` on the bound query, row by row, ignoring the plan.
    case reference
}

/// Why `EngineOptions` cannot be used.
public enum EngineOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A disabled pass name that is not a pass; `known` lists the passes in pipeline order.
    case unknownPass(String, known: [String])

    public var description: String {
        switch self {
        case .unknownPass(let name, let known):
            "unknown optimizer pass '\(name)'; the passes are: \(known.joined(separator: ", "))"
        }
    }
}
