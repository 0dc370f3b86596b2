/// Why the optimizer could not produce a plan. `unknownPass` and `unknownClass` are the
/// caller's mistakes (`rqlc --disable-pass typo`); the verification cases are internal errors:
/// a pass (or the binder, for `invalidInput`) broke an IR invariant, and tests surface them.
///
/// ```swift
/// do { _ = try Optimizer.optimize(plan, store: store, options: OptimizerOptions(disabledPasses: ["nope"])) }
/// catch { print(error) }  // unknown optimizer pass 'nope'; the passes are: chain-merging, …
/// ```
public enum OptimizerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A disabled pass name that is not in `Optimizer.passes`; `known` lists the valid names in order.
    case unknownPass(String, known: [String])
    /// The plan's class is not in the store.
    case unknownClass(String)
    /// The plan given to the optimizer fails the IR verifier (a binder bug); the problems found.
    case invalidInput(problems: [String])
    /// The plan fails the IR verifier after the named pass (a bug in that pass); the problems found.
    case verificationFailed(pass: String, problems: [String])

    public var description: String {
        switch self {
        case .unknownPass(let name, let known):
            "unknown optimizer pass '\(name)'; the passes are: \(known.joined(separator: ", "))"
        case .unknownClass(let name):
            "unknown class '\(name)'"
        case .invalidInput(let problems):
            "internal error: the plan to optimize is not valid IR: \(problems.joined(separator: "; "))"
        case .verificationFailed(let pass, let problems):
            "internal error: the plan is not valid IR after pass '\(pass)': \(problems.joined(separator: "; "))"
        }
    }
}
