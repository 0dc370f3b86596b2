/// A message about a query, anchored to the span of source text it is about.
///
/// Every user-facing error of the pipeline (syntax, binding, arguments) carries one, so tools can
/// render it the same way:
///
///     error: expected a value after '>' but found end of input
///       age >
///            ^
public struct Diagnostic: Hashable, Sendable {
    /// How serious the message is; only errors exist today, notes are for later stages.
    public enum Severity: String, Sendable {
        /// The query cannot be used.
        case error
        /// Supplementary information attached to an error.
        case note
    }

    public var severity: Severity
    /// One sentence in a user's words, without a trailing period.
    public var message: String
    /// The source text the message is about.
    public var span: SourceSpan

    public init(_ severity: Severity = .error, _ message: String, at span: SourceSpan) {
        self.severity = severity
        self.message = message
        self.span = span
    }
}

/// An error that points at the query text that caused it.
public protocol LocatedError: Error, CustomStringConvertible {
    /// The message and the span it is about.
    var diagnostic: Diagnostic { get }
}

extension LocatedError {
    public var description: String { diagnostic.message }

    /// The message, without the query or caret.
    public var message: String { diagnostic.message }

    /// The part of the query the error is about.
    public var span: SourceSpan { diagnostic.span }

    /// The message, the offending line of `source` and a caret line under the span.
    public func rendered(in source: String) -> String {
        diagnostic.rendered(in: source)
    }
}
