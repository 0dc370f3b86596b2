/// A `MATCHES` pattern: a regular expression compiled once per query (Swift's `Regex`, whose
/// syntax covers the ICU syntax NSPredicate's MATCHES takes) and matched against whole strings.
/// The one rule every executor uses: the reference evaluator calls `matches(_:)` per value, the
/// VM `matches(utf8:)` per string of a column.
///
/// ```swift
/// let pattern = try RegexPattern("R.*x")
/// pattern.matches(.string("Rex"))          // true: the whole string matches
/// pattern.matches(.string("T-Rex"))        // false
/// pattern.matches(.int(3))                 // false: only strings match
/// try RegexPattern("(?i)^r")               // case-insensitive, by the pattern's own flag
/// ```
///
/// Null, numbers and every other non-string value never match; a mixed value matches when it
/// holds a matching string.
// Unchecked: both fields are `let`s. `Regex` is not declared `Sendable` (its output type
// may not be), but matching only reads it; the standard library publishes the program it
// compiles on first use atomically, so threads may match one pattern at once.
public final class RegexPattern: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    private let regex: Regex<AnyRegexOutput>

    /// Compiles `source`; throws `RegexPatternError` naming what is wrong with it.
    public init(_ source: String) throws(RegexPatternError) {
        self.source = source
        do {
            regex = try Regex(source)
        } catch {
            throw RegexPatternError(pattern: source, reason: "\(error)")
        }
    }

    /// Whether `value` is a string that the whole pattern matches.
    public func matches(_ value: Value) -> Bool {
        guard case .string(let text) = value else { return false }
        return matches(text)
    }

    /// Whether the whole pattern matches `text`.
    public func matches(_ text: String) -> Bool {
        (try? regex.wholeMatch(in: text)) != nil
    }

    /// Whether the whole pattern matches the UTF-8 string `bytes` (a string column's item).
    public func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(String(decoding: bytes, as: UTF8.self))
    }

    public static func == (lhs: RegexPattern, rhs: RegexPattern) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
    public var description: String { source }
}

/// A `MATCHES` pattern that is not a valid regular expression.
public struct RegexPatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// What the regular expression parser said.
    public let reason: String

    public var description: String { "invalid regular expression '\(pattern)': \(reason)" }
}
