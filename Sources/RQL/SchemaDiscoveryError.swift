import RQLCore

/// Why a model class cannot be part of a schema. Every case names the class and, where one is
/// involved, the property.
///
/// ```swift
/// class Broken: Object { @Persisted var toy: DogToy }   // a to-one link must be optional
/// // class 'Broken', property 'toy': a to-one link must be optional ('DogToy?')
/// ```
public enum SchemaDiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class declares no `@Persisted` property.
    case noProperties(className: String)
    /// The class name is longer than 57 UTF-8 bytes.
    case classNameTooLong(className: String, byteCount: Int)
    /// A property name (or its mapped column name) is longer than 63 UTF-8 bytes.
    case propertyNameTooLong(className: String, property: String, byteCount: Int)
    /// A to-one link declared without `?`.
    case linkNotOptional(className: String, property: String, target: String)
    /// A property type that cannot be stored; `reason` says what and why.
    case unsupportedType(className: String, property: String, reason: String)
    /// Two properties are marked as the primary key.
    case duplicatePrimaryKey(className: String, first: String, second: String)
    /// `primaryKey()` or `indexedProperties()` names a property the class does not persist.
    case unknownProperty(className: String, property: String, declaredBy: String)
    /// An embedded class with a primary key.
    case primaryKeyOnEmbeddedClass(className: String, property: String)
    /// A `LinkingObjects` property declared without `@Persisted(originProperty:)`.
    case missingOriginProperty(className: String, property: String)
    /// A class links to a class that the explicit list of object types leaves out.
    case missingLinkTarget(className: String, property: String, target: String)
    /// Two different Swift classes have the same class name.
    case duplicateClassName(className: String)
    /// The runtime could not list the class's stored properties.
    case unreflectable(className: String)
    /// The classes together break a schema rule (a backlink to a missing property, an index on
    /// a type that cannot have one, …).
    case invalidSchema(SchemaError)

    public var description: String {
        switch self {
        case .noProperties(let c):
            "class '\(c)': no properties are defined; mark the properties to store with @Persisted"
        case .classNameTooLong(let c, let n):
            "class '\(c)': the class name is \(n) UTF-8 bytes long; the limit is 57"
        case .propertyNameTooLong(let c, let p, let n):
            "class '\(c)', property '\(p)': the name is \(n) UTF-8 bytes long; the limit is 63"
        case .linkNotOptional(let c, let p, let target):
            "class '\(c)', property '\(p)': a to-one link must be optional ('\(target)?')"
        case .unsupportedType(let c, let p, let reason):
            "class '\(c)', property '\(p)': \(reason)"
        case .duplicatePrimaryKey(let c, let first, let second):
            "class '\(c)': properties '\(first)' and '\(second)' are both marked as the primary key"
        case .unknownProperty(let c, let p, let declaredBy):
            "class '\(c)': \(declaredBy) names '\(p)', which is not a persisted property of the class"
        case .primaryKeyOnEmbeddedClass(let c, let p):
            "class '\(c)', property '\(p)': an embedded class cannot have a primary key"
        case .missingOriginProperty(let c, let p):
            "class '\(c)', property '\(p)': a LinkingObjects property must be declared with "
                + "@Persisted(originProperty: \"…\")"
        case .missingLinkTarget(let c, let p, let target):
            "class '\(c)', property '\(p)': it links to '\(target)', which is not one of the configured object types"
        case .duplicateClassName(let c):
            "two different classes are named '\(c)'"
        case .unreflectable(let c):
            "class '\(c)': its stored properties cannot be listed"
        case .invalidSchema(let error):
            error.description
        }
    }
}
