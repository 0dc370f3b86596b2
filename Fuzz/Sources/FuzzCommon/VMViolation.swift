/// One broken compile or execution invariant of `FuzzCompile` / `FuzzDifferential`, with
/// everything needed to reproduce it (the input's data and query, and what differed).
public struct VMViolation: Error, Sendable, CustomStringConvertible {
    public enum Invariant: String, Sendable {
        /// The optimizer failed on a bound query (a pass broke the IR verifier).
        case optimizer = "optimizer"
        /// Codegen refused a bound query's plan.
        case codegen = "codegen refused"
        /// `ProgramVerifier` rejected a program codegen returned.
        case verifier = "program verifier"
        /// The three ways (VM with all passes, VM with none, reference) disagreed.
        case disagreement = "three ways disagree"
    }

    public var invariant: Invariant
    public var input: VMInput
    /// The bound query as `IRPrinter` prints it, when the query bound.
    public var bound: String?
    /// What differed.
    public var detail: String

    public init(invariant: Invariant, input: VMInput, bound: String? = nil, detail: String) {
        self.invariant = invariant
        self.input = input
        self.bound = bound
        self.detail = detail
    }

    public var description: String {
        var lines = ["RQL VM invariant violated: \(invariant.rawValue)", input.summary]
        if let bound { lines.append("bound:   \(bound)") }
        lines.append(detail)
        return lines.joined(separator: "\n")
    }
}
