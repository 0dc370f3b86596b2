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

    /// The attribute a compared value names (`m.@type == 'int'`), nil for a value that is not a
    /// known type name, which matches no value.
    ///
    /// ```swift
    /// TypeAttribute(naming: .string("Int"))?.matches(.int(1))   // true
    /// TypeAttribute(naming: .int(1))                          // nil
    /// ```
    public init?(naming name: Value) {
        guard case .string(let text) = name, let attribute = try? TypeAttribute(text) else { return nil }
        self = attribute
    }

    /// The `@type` name of every value of a property that is not mixed (realm-core's constant
    /// `TypeOfValue(column)`): `int.@type` is `'int'` whatever the object, null included; `nil`
    /// for `mixed`, whose values have types of their own. Lower case, a name `init(_:)` accepts.
    ///
    /// ```swift
    /// TypeAttribute.name(of: PropertyType.date)         // "timestamp"
    /// TypeAttribute.name(of: PropertyType.object("Dog")) // "link"
    /// ```
    public static func name(of type: PropertyType) -> String? {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "binary"
        case .date: "timestamp"
        case .decimal128: "decimal128"
        case .objectId: "objectid"
        case .uuid: "uuid"
        case .object, .linkingObjects: "link"
        case .mixed: nil
        }
    }

    /// `lhs.@type == rhs.@type` for two values: whether they are of the same type (realm-core's
    /// `TypeOfValue::matches`, whose attributes of single values are single types). Numbers of
    /// different types differ: `int` is not `double`; two nulls are the same type.
    ///
    /// ```swift
    /// TypeAttribute.sameType(.int(1), .int(7))       // true
    /// TypeAttribute.sameType(.int(1), .double(1))    // false
    /// ```
    public static func sameType(_ lhs: Value, _ rhs: Value) -> Bool { lhs.kind == rhs.kind }

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
