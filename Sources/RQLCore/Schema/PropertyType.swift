/// The element type of a property: a scalar, a link to a class, or a backlink.
///
/// ```swift
/// PropertyType(keyword: "decimal128")  // .decimal128
/// PropertyType.object("Dog").keyword   // "Dog"
/// ```
public enum PropertyType: Hashable, Sendable {
    /// `bool`
    case bool
    /// `int` (64-bit)
    case int
    /// `float` (32-bit binary)
    case float
    /// `double` (64-bit binary)
    case double
    /// `string` (UTF-8)
    case string
    /// `data` (bytes)
    case data
    /// `date` (`Timestamp`)
    case date
    /// `decimal128`
    case decimal128
    /// `objectId`
    case objectId
    /// `uuid`
    case uuid
    /// `mixed` (`AnyRealmValue`): any value, including nested lists and maps; always nullable.
    case mixed
    /// A link to (or, for an embedded class, the embedding of) an object of the named class.
    case object(String)
    /// The objects of `className` whose link property `property` points at this object.
    case linkingObjects(className: String, property: String)

    /// The scalar type spelled by `keyword`, or `nil` for any other word (a class name, maybe).
    public init?(keyword: String) {
        switch keyword {
        case "bool": self = .bool
        case "int": self = .int
        case "float": self = .float
        case "double": self = .double
        case "string": self = .string
        case "data": self = .data
        case "date": self = .date
        case "decimal128": self = .decimal128
        case "objectId": self = .objectId
        case "uuid": self = .uuid
        case "mixed": self = .mixed
        default: return nil
        }
    }

    /// The spelling in the dataset format (`int`, `Dog`, `linkingObjects<DogClub.members>`).
    public var keyword: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .decimal128: "decimal128"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .mixed: "mixed"
        case .object(let className): className
        case .linkingObjects(let className, let property): "linkingObjects<\(className).\(property)>"
        }
    }

    /// The linked class for `.object` and `.linkingObjects`.
    public var targetClassName: String? {
        switch self {
        case .object(let className): className
        case .linkingObjects(let className, _): className
        default: nil
        }
    }

    /// Whether values of this type are numbers (compare by value with each other).
    public var isNumeric: Bool {
        switch self {
        case .int, .float, .double, .decimal128: true
        default: false
        }
    }
}

/// Whether a property holds one value or a collection of them.
public enum CollectionKind: Hashable, Sendable {
    /// One value (or one link).
    case single
    /// `list<T>`: ordered, duplicates allowed.
    case list
    /// `set<T>`: unique elements, kept in Realm's value order.
    case set
    /// `map<T>`: string keys to values, kept in key order.
    case map
}
