/// Why text could not be read as a value of a Realm type. Thrown by the parsing initialisers of
/// `Timestamp`, `ObjectId`, `Decimal128` and by `Value.parseUUID(_:)`.
///
/// ```swift
/// do { _ = try ObjectId(hex: "xyz") } catch let error as ValueParseError { print(error) }
/// // invalid ObjectId 'xyz': expected 24 hexadecimal digits
/// ```
public enum ValueParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not an ISO-8601 date; the payload is the text and what is wrong with it.
    case invalidTimestamp(String, reason: String)
    /// The text is not 24 hexadecimal digits; the payload is the text.
    case invalidObjectId(String)
    /// The text is not a decimal number, `NaN` or an infinity, or its exponent is out of range.
    case invalidDecimal(String)
    /// The text is not a UUID in the canonical 8-4-4-4-12 hexadecimal form.
    case invalidUUID(String)

    public var description: String {
        switch self {
        case .invalidTimestamp(let text, let reason): "invalid date '\(text)': \(reason)"
        case .invalidObjectId(let text): "invalid ObjectId '\(text)': expected 24 hexadecimal digits"
        case .invalidDecimal(let text): "invalid decimal128 '\(text)'"
        case .invalidUUID(let text): "invalid UUID '\(text)': expected the 8-4-4-4-12 hexadecimal form"
        }
    }
}
