/// The type names `@type` accepts (`mixed.@type == 'numeric'`), case-insensitively, and the
/// value kinds each one stands for (realm-core's `TypeOfValue`).
///
/// ```swift
/// let numeric = try TypeAttribute("Numeric")
/// numeric.matches(.decimal(.zero))  // true
/// numeric.matches(.bool(true))      // false
/// TypeAttribute.name(of: .list([]))   // "list"
/// ```
public struct TypeAttribute: Hashable, Sendable {
    /// The kinds of value the name covers.
    public let kinds: Set<ValueKind>

    /// Every accepted name, lower-case, in realm-core's order, with its kinds.
    public static let names: [(String, Set<ValueKind>)] = [
        ("null", [.null]),
        ("int", [.int]), ("integer", [.int]), ("int16", [.int]), ("int32", [.int]), ("int64", [.int]),
        ("short", [.int]), ("long", [.int]), ("byte", [.int]), ("char", [.int]),
        ("bool", [.bool]), ("boolean", [.bool]),
        ("string", [.string]),
        ("binary", [.data]), ("data", [.data]), ("bytearray", [.data]), ("byte[]", [.data]), ("bindata", [.data]),
        ("date", [.date]), ("datetimeoffset", [.date]), ("timestamp", [.date]),
        ("float", [.float]), ("double", [.double]),
        ("decimal128", [.decimal]), ("decimal", [.decimal]),
        ("objectlink", [.link]), ("link", [.link]),
        ("objectid", [.objectId]),
        ("uuid", [.uuid]), ("guid", [.uuid]),
        ("numeric", [.int, .double, .float, .decimal]),
        ("object", [.map]), ("dictionary", [.map]),
        ("array", [.list]), ("list", [.list]),
        ("collection", [.list, .map]),
    ]

    /// Reads a type name, ignoring case; unknown names throw realm-core's message.
    public init(_ name: String) throws(TypeAttributeError) {
        let lowered = name.lowercased()
        guard let entry = TypeAttribute.names.first(where: { $0.0 == lowered }) else {
            throw TypeAttributeError(name: name)
        }
        kinds = entry.1
    }

    /// Whether `value`'s type is one the name covers.
    public func matches(_ value: Value) -> Bool { kinds.contains(value.kind) }

    /// The canonical `@type` name of a value (what `@type` evaluates to).
    public static func name(of value: Value) -> String {
        switch value.kind {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .decimal: "decimal128"
        case .string: "string"
        case .data: "binary"
        case .date: "timestamp"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .link: "link"
        case .list: "list"
        case .map: "dictionary"
        }
    }
}

/// An `@type` comparison named a type that does not exist.
public struct TypeAttributeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name as written.
    public let name: String

    public var description: String {
        "Unable to parse the type attribute string '\(name)', supported case insensitive values are: ["
            + TypeAttribute.names.map(\.0).joined(separator: ", ") + "]"
    }
}
