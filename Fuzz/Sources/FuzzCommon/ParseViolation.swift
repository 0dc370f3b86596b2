import RQLSyntax

/// One broken parser invariant, with everything needed to reproduce it.
public struct ParseViolation: Error, Sendable, CustomStringConvertible {
    public enum Invariant: String, Sendable {
        /// A `SyntaxError` whose span is outside the input or disagrees with its line and column.
        case errorSpan = "error span"
        /// A parsed tree whose canonical text does not parse back to it, or prints differently.
        case printFixpoint = "print fixpoint"
    }

    public var invariant: Invariant
    public var dialect: Dialect
    /// The input as the parser saw it (after UTF-8 decoding with replacement).
    public var input: String
    /// The canonical text of the first tree, for fixpoint violations.
    public var printed: String?
    /// What differed.
    public var detail: String

    public init(invariant: Invariant, dialect: Dialect, input: String, printed: String? = nil, detail: String) {
        self.invariant = invariant
        self.dialect = dialect
        self.input = input
        self.printed = printed
        self.detail = detail
    }

    public var description: String {
        var lines = [
            "RQL parse invariant violated: \(invariant.rawValue) (dialect \(dialect.rawValue))",
            "input:   \(input.debugDescription)",
            "hex:     \(hexDump(input.utf8))",
        ]
        if let printed { lines.append("printed: \(printed.debugDescription)") }
        lines.append(detail)
        return lines.joined(separator: "\n")
    }
}
