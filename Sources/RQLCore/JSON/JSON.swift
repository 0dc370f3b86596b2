/// A parsed JSON document that keeps what the dataset format needs and `JSONSerialization`
/// blurs: integer literals apart from numbers with a fraction or exponent, the exact text of
/// every number (64-bit integers never pass through `Double`), and the order of object members.
///
/// ```swift
/// let doc = try JSONValue.parse(#"{"a": 1, "b": 1.0}"#)
/// // .object([("a", .number(JSONNumber(text: "1"))), ("b", .number(JSONNumber(text: "1.0")))])
/// ```
public enum JSONValue: Hashable, Sendable {
    /// `null`
    case null
    /// `true` / `false`
    case bool(Bool)
    /// A number, as written.
    case number(JSONNumber)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in document order. The parser refuses a repeated key, so a parsed
    /// object has each key once.
    case object([JSONMember])

    /// The value of the member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A short name of the JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let n): n.isInteger ? "an integer" : "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public let key: String
    public let value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON number kept as its text.
public struct JSONNumber: Hashable, Sendable {
    /// The literal exactly as written (`-12`, `1.0`, `3e5`).
    public let text: String

    public init(text: String) {
        self.text = text
    }

    /// Whether the literal has neither a fraction nor an exponent.
    public var isInteger: Bool { !text.contains { $0 == "." || $0 == "e" || $0 == "E" } }

    /// The value as an `Int64` if the literal is an integer in range.
    public var int64Value: Int64? { isInteger ? Int64(text) : nil }

    /// The nearest `Double`: infinite when the literal is beyond `Double`'s range (`1e400`).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The nearest `Double` if the literal is within `Double`'s range.
    public var finiteDoubleValue: Double? {
        let value = doubleValue
        return value.isFinite ? value : nil
    }
}

extension JSONValue {
    /// Parses one JSON document (RFC 8259). A key repeated in an object, nesting deeper than 512
    /// levels and text that is not UTF-8 are errors.
    ///
    ///     try JSONValue.parse(#"{"a": [1, 2.5]}"#)
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }

    /// Parses one JSON document given as bytes, which must be UTF-8: an invalid byte is an
    /// error with its offset, never replaced.
    public static func parse(utf8 bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}
