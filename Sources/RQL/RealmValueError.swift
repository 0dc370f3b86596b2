/// A value that could not be read: text that is not an ObjectId, a Decimal128 or a UUID.
///
/// ```swift
/// do { _ = try ObjectId(string: "xyz") } catch { print(error) }
/// // 'xyz' is not an ObjectId: expected 24 hexadecimal digits
/// ```
public enum RealmValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not 24 hexadecimal digits.
    case invalidObjectId(String)
    /// The text is not a decimal number, `NaN` or an infinity.
    case invalidDecimal128(String)

    public var description: String {
        switch self {
        case .invalidObjectId(let text): "'\(text)' is not an ObjectId: expected 24 hexadecimal digits"
        case .invalidDecimal128(let text): "'\(text)' is not a Decimal128 number"
        }
    }
}
