import RQLCore
import RQLSema
import RQLSyntax

/// Why query text could not become a compiled query: a syntax error, a binding error, or (a bug
/// in the engine, never in the text) an engine error.
public enum QueryError: LocatedError, Equatable {
    /// The text does not follow the grammar.
    case syntax(SyntaxError)
    /// The text parses, but does not fit the schema or the arguments.
    case binding(BindError)
    /// The text binds, but the engine could not compile it (`EngineError`); the span is the whole text.
    case engine(EngineError, span: SourceSpan)

    public var diagnostic: Diagnostic {
        switch self {
        case .syntax(let error): error.diagnostic
        case .binding(let error): error.diagnostic
        case .engine(let error, let span): Diagnostic(.error, error.description, at: span)
        }
    }

    /// The error's category: `syntax`, the binding error's (`unknown_property`, …), or `internal`.
    public var category: String {
        switch self {
        case .syntax: "syntax"
        case .binding(let error): error.kind.category
        case .engine: "internal"
        }
    }
}
