import RQLCore

/// The classes of a realm, for inspection.
///
/// ```swift
/// let schema = try Schema(objectTypes: [Person.self, Dog.self])
/// schema["Dog"]?.properties.map(\.name)   // ["name", "age", …]
/// ```
public struct Schema: CustomStringConvertible, Equatable {
    /// The classes, in schema order.
    public let objectSchema: [ObjectSchema]

    init(_ discovered: DiscoveredSchema) {
        objectSchema = discovered.classes.map(ObjectSchema.init)
    }

    init(classes: [ClassInfo]) {
        objectSchema = classes.map(ObjectSchema.init)
    }

    /// The schema of `objectTypes` and every class they link to.
    public init(objectTypes: [ObjectBase.Type]) throws {
        self.init(try DiscoveredSchema(types: objectTypes, closingOverLinks: true))
    }

    /// The named class.
    public subscript(className: String) -> ObjectSchema? {
        objectSchema.first { $0.className == className }
    }

    public var description: String {
        "Schema {\n"
            + objectSchema.map { "\t" + $0.description.replacingOccurrences(of: "\n", with: "\n\t") }
            .joined(separator: "\n") + "\n}"
    }
}

/// One class of a schema, for inspection.
///
/// ```swift
/// let schema = Dog().objectSchema
/// schema.className                     // "Dog"
/// schema["age"]?.type                  // .int
/// ```
public struct ObjectSchema: CustomStringConvertible, Equatable {
    /// The persisted properties, in schema order.
    public let properties: [Property]
    /// The class's name in the schema.
    public let className: String
    /// The Swift class.
    public let objectClass: ObjectBase.Type
    /// Whether objects of the class are embedded in a parent.
    public let isEmbedded: Bool
    /// The primary key property, if any.
    public let primaryKeyProperty: Property?

    init(_ info: ClassInfo) {
        let properties = info.properties.map { Property($0, isPrimary: $0.name == info.primaryKey) }
        self.properties = properties
        className = info.className
        objectClass = info.type
        isEmbedded = info.isEmbedded
        primaryKeyProperty = properties.first { $0.isPrimary }
    }

    /// The named property.
    public subscript(propertyName: String) -> Property? {
        properties.first { $0.name == propertyName }
    }

    public var description: String {
        "\(className) {\n" + properties.map { "\t\($0.description)" }.joined(separator: "\n") + "\n}"
    }

    public static func == (lhs: ObjectSchema, rhs: ObjectSchema) -> Bool {
        lhs.className == rhs.className && lhs.objectClass == rhs.objectClass && lhs.properties == rhs.properties
            && lhs.isEmbedded == rhs.isEmbedded && lhs.primaryKeyProperty == rhs.primaryKeyProperty
    }
}

/// One persisted property of a class, for inspection.
///
/// ```swift
/// let dogs = Person().objectSchema["dogs"]!
/// dogs.type             // .object
/// dogs.isArray          // true
/// dogs.objectClassName  // "Dog"
/// ```
public struct Property: CustomStringConvertible, Equatable {
    /// The Swift property name.
    public let name: String
    /// The stored column's name (`propertiesMapping()`), usually `name`.
    public let columnName: String
    /// The type of the value, or of each element of a collection.
    public let type: PropertyType
    public let isArray: Bool
    public let isSet: Bool
    public let isMap: Bool
    public let isIndexed: Bool
    public let isOptional: Bool
    /// The linked class, for links and linking objects.
    public let objectClassName: String?
    /// For linking objects, the origin class's link property.
    public let linkOriginPropertyName: String?
    /// Whether the property is the primary key.
    public let isPrimary: Bool

    init(_ property: PersistedProperty, isPrimary: Bool) {
        name = property.name
        columnName = property.columnName
        let core = property.core
        switch core.type {
        case .bool: type = .bool
        case .int: type = .int
        case .float: type = .float
        case .double: type = .double
        case .string: type = .string
        case .data: type = .data
        case .date: type = .date
        case .decimal128: type = .decimal128
        case .objectId: type = .objectId
        case .uuid: type = .UUID
        case .mixed: type = .any
        case .object: type = .object
        case .linkingObjects: type = .linkingObjects
        }
        isArray = core.collection == .list && !core.isBacklink
        isSet = core.collection == .set
        isMap = core.collection == .map
        isIndexed = core.isIndexed
        isOptional = core.isOptional
        objectClassName = core.type.targetClassName
        if case .linkingObjects(_, let origin) = core.type {
            linkOriginPropertyName = origin
        } else {
            linkOriginPropertyName = nil
        }
        self.isPrimary = isPrimary
    }

    public var description: String {
        "\(name) {\n\t\ttype = \(type);\n\t\tindexed = \(isIndexed ? "YES" : "NO");\n\t\toptional = "
            + "\(isOptional ? "YES" : "NO");\n\t}"
    }
}

/// The type of a property's value, or of each element of a collection (`.any` is
/// `AnyRealmValue`, `.UUID` is `UUID`).
///
/// ```swift
/// Person().objectSchema["id"]?.type == .int
/// ```
public enum PropertyType: Int, Sendable, CustomStringConvertible {
    case int, bool, float, double, string, data, any, date, object, linkingObjects, objectId, decimal128, UUID

    public var description: String {
        switch self {
        case .int: "int"
        case .bool: "bool"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .any: "mixed"
        case .date: "date"
        case .object: "object"
        case .linkingObjects: "linking objects"
        case .objectId: "object id"
        case .decimal128: "decimal128"
        case .UUID: "uuid"
        }
    }
}

extension ObjectBase {
    /// The schema of the object's class.
    public var objectSchema: ObjectSchema { ObjectSchema(_rqlClassInfo) }
}
