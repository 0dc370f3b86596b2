/// One broken compile-or-run invariant, with everything needed to reproduce it.
public struct QueryViolation: Error, Sendable, CustomStringConvertible {
    public enum Invariant: String, Sendable {
        /// A `QueryError` whose span is outside the query text or disagrees with its line and column.
        case errorSpan = "error span"
        /// The binder produced a query the `IRVerifier` rejects.
        case verifier = "IR verifier"
        /// Running the query returned a repeated key, a key not in the class's table, or more
        /// rows than its LIMIT.
        case result = "result rows"
    }

    public var invariant: Invariant
    public var input: QueryInput
    /// The bound query as `IRPrinter` prints it, when the query compiled.
    public var bound: String?
    /// What differed.
    public var detail: String

    public init(invariant: Invariant, input: QueryInput, bound: String? = nil, detail: String) {
        self.invariant = invariant
        self.input = input
        self.bound = bound
        self.detail = detail
    }

    public var description: String {
        var lines = [
            "RQL query invariant violated: \(invariant.rawValue)",
            "dialect: \(input.dialect.rawValue)",
            "class:   \(input.className)",
            "args:    [\(input.argumentIndices.map { QueryInput.argumentTexts[$0] }.joined(separator: ", "))]",
            "query:   \(input.text.debugDescription)",
            "hex:     \(hexDump(input.bytes)) (re-encoded: header, argument bytes, query)",
        ]
        if let bound { lines.append("bound:   \(bound)") }
        lines.append(detail)
        return lines.joined(separator: "\n")
    }
}
