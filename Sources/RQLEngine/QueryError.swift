import RQLCore
import RQLSema
import RQLSyntax

/// Why a query string could not become a bound query: a syntax error or a binding error.
public enum QueryError: LocatedError, Equatable {
    /// The text does not follow the grammar.
    case syntax(SyntaxError)
    /// The text parses, but does not fit the schema or the arguments.
    case binding(BindError)

    public var diagnostic: Diagnostic {
        switch self {
        case .syntax(let error): error.diagnostic
        case .binding(let error): error.diagnostic
        }
    }

    /// The error's category: `syntax`, or the binding error's (`unknown_property`, …).
    public var category: String {
        switch self {
        case .syntax: "syntax"
        case .binding(let error): error.kind.category
        }
    }
}
