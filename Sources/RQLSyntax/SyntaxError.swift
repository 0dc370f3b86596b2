import RQLCore

/// Why a query string could not be parsed. Parsing stops at the first error.
///
///     do { _ = try Parser.parse("age >") }
///     catch { print(error.rendered(in: "age >")) }
///     // error: expected a value after '>' but found end of input
///     //   age >
///     //        ^
public struct SyntaxError: LocatedError, Equatable {
    /// The category of a syntax error, stable for tests and tools (`Grammar/examples/invalid`).
    public enum Kind: String, Sendable, CaseIterable {
        /// The token found cannot continue the query here; the message says what could.
        case unexpectedToken
        /// A character that starts no token, such as `#` or `&` alone.
        case invalidCharacter
        /// A quote with no closing quote before the end of the input.
        case unterminatedString
        /// A backslash escape that is not one of the grammar's (`\a`, `\u12`).
        case invalidEscape
        /// A malformed or out-of-range number (`0x`, an integer beyond 64 bits).
        case invalidNumber
        /// A malformed literal with a fixed shape: timestamp, date, `oid(…)`, `uuid(…)`, `B64"…"`.
        case invalidLiteral
        /// An `@` word that does not exist (`@prop`).
        case unknownAtWord
        /// A construct the grammar has but not in this position or dialect, such as `[c]` after `<`.
        case unsupported
        /// More nested parentheses, NOTs or subqueries than the parser allows.
        case nestingTooDeep
    }

    public var kind: Kind
    public var diagnostic: Diagnostic

    public init(_ kind: Kind, _ message: String, at span: SourceSpan) {
        self.kind = kind
        self.diagnostic = Diagnostic(.error, message, at: span)
    }
}
