import RQLCore

/// The classes of a realm, for inspection.
///
/// ```swift
/// let schema = try Schema(objectTypes: [Person.self, Dog.self])
/// schema["Dog"]?.properties.map(\.name)   // ["name", "age", …]
/// ```
public struct Schema: CustomStringConvertible, Equatable {
    /// The classes, in schema order.
    ///
    /// ```swift
    /// realm.schema.objectSchema.map(\.className)  // ["Dog", "DogToy", "Person"]
    /// ```
    public let objectSchema: [ObjectSchema]

    init(_ discovered: DiscoveredSchema) {
        objectSchema = discovered.classes.map(ObjectSchema.init)
    }

    init(classes: [ClassInfo]) {
        objectSchema = classes.map(ObjectSchema.init)
    }

    /// The schema of `objectTypes` and every class they link to.
    ///
    /// ```swift
    /// let schema = try Schema(objectTypes: [Person.self])  // Person, Dog, DogToy, …
    /// ```
    public init(objectTypes: [ObjectBase.Type]) throws {
        self.init(try DiscoveredSchema(types: objectTypes, closingOverLinks: true))
    }

    /// The named class.
    ///
    /// ```swift
    /// realm.schema["Dog"]?.primaryKeyProperty  // nil
    /// ```
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
    ///
    /// ```swift
    /// Dog().objectSchema.properties.map(\.name)  // ["name", "age", …]
    /// ```
    public let properties: [Property]
    /// The class's name in the schema.
    ///
    /// ```swift
    /// Dog().objectSchema.className  // "Dog"
    /// ```
    public let className: String
    /// The Swift class.
    ///
    /// ```swift
    /// Dog().objectSchema.objectClass == Dog.self  // true
    /// ```
    public let objectClass: ObjectBase.Type
    /// Whether objects of the class are embedded in a parent.
    ///
    /// ```swift
    /// Address().objectSchema.isEmbedded  // true
    /// ```
    public let isEmbedded: Bool
    /// The primary key property, if any.
    ///
    /// ```swift
    /// Person().objectSchema.primaryKeyProperty?.name  // "id"
    /// ```
    public let primaryKeyProperty: Property?

    init(_ info: ClassInfo) {
        let properties = info.declaredOrder.map { info.properties[$0] }.map {
            Property($0, isPrimary: $0.name == info.primaryKey)
        }
        self.properties = properties
        className = info.className
        objectClass = info.type
        isEmbedded = info.isEmbedded
        primaryKeyProperty = properties.first { $0.isPrimary }
    }

    /// The named property.
    ///
    /// ```swift
    /// Dog().objectSchema["age"]?.type  // .int
    /// ```
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
    ///
    /// ```swift
    /// Dog().objectSchema["age"]?.name  // "age"
    /// ```
    public let name: String
    /// The stored column's name (`propertiesMapping()`), usually `name`.
    ///
    /// ```swift
    /// Dog().objectSchema["age"]?.columnName  // "age"
    /// ```
    public let columnName: String
    /// The type of the value, or of each element of a collection.
    ///
    /// ```swift
    /// Person().objectSchema["dogs"]?.type  // .object
    /// ```
    public let type: PropertyType
    /// Whether the property is a `List`.
    ///
    /// ```swift
    /// Person().objectSchema["dogs"]?.isArray  // true
    /// ```
    public let isArray: Bool
    /// Whether the property is a `MutableSet`.
    ///
    /// ```swift
    /// Dog().objectSchema["citiesVisited"]?.isSet  // true
    /// ```
    public let isSet: Bool
    /// Whether the property is a `Map`.
    ///
    /// ```swift
    /// Dog().objectSchema["favoriteParksByCity"]?.isMap  // true
    /// ```
    public let isMap: Bool
    /// Whether the property has a search index (`@Persisted(indexed: true)`, a primary key).
    ///
    /// ```swift
    /// Book().objectSchema["title"]?.isIndexed  // true
    /// ```
    public let isIndexed: Bool
    /// Whether the value (or each element) may be nil.
    ///
    /// ```swift
    /// Dog().objectSchema["favoriteToy"]?.isOptional  // true: links are optional
    /// ```
    public let isOptional: Bool
    /// The linked class, for links and linking objects.
    ///
    /// ```swift
    /// Person().objectSchema["dogs"]?.objectClassName  // "Dog"
    /// ```
    public let objectClassName: String?
    /// For linking objects, the origin class's link property.
    ///
    /// ```swift
    /// Person().objectSchema["clubs"]?.linkOriginPropertyName  // "members"
    /// ```
    public let linkOriginPropertyName: String?
    /// Whether the property is the primary key.
    ///
    /// ```swift
    /// Person().objectSchema["id"]?.isPrimary  // true
    /// ```
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
