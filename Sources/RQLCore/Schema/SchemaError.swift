/// Why a schema is invalid. Every case names the class and, where one is involved, the property.
///
/// ```swift
/// do { _ = try Schema([ObjectSchema(name: "Dog", properties: [], primaryKey: "id")]) }
/// catch { print(error) }  // class 'Dog': primary key 'id' is not a property of the class
/// ```
public enum SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A class has an empty name.
    case emptyClassName
    /// Two classes share a name.
    case duplicateClass(String)
    /// A property of the class has an empty name.
    case emptyPropertyName(className: String)
    /// Two properties of the class share a name.
    case duplicateProperty(className: String, property: String)
    /// The property's type text is not valid type syntax; `type` is the text.
    case unknownType(className: String, property: String, type: String)
    /// The property links to (or backlinks from) a class that is not in the schema.
    case unknownClass(className: String, property: String, target: String)
    /// A to-one link must be optional (`DogToy?`); `target` is the linked class.
    case linkNotOptional(className: String, property: String, target: String)
    /// A list or set of links cannot hold null (`list<Dog?>`); maps of links may.
    case optionalLinkInCollection(className: String, property: String)
    /// Embedded objects cannot be held in a set.
    case setOfEmbeddedObjects(className: String, property: String)
    /// The primary key names a property the class does not have.
    case unknownPrimaryKey(className: String, property: String)
    /// An embedded class cannot have a primary key.
    case primaryKeyOnEmbeddedClass(className: String, property: String)
    /// The primary key must be a single `int`, `string`, `objectId` or `uuid`; `type` is its syntax.
    case invalidPrimaryKeyType(className: String, property: String, type: String)
    /// An index or full-text index names a property the class does not have.
    case unknownIndexedProperty(className: String, property: String)
    /// An index needs a single `bool`, `int`, `float`, `double`, `decimal128`, `string`, `date`,
    /// `objectId`, `uuid` or `mixed` property.
    case invalidIndexType(className: String, property: String, type: String)
    /// A full-text index needs a single `string` property.
    case invalidFullTextType(className: String, property: String, type: String)
    /// `linkingObjects<C.p>` where class `C` has no property `p`; `origin` is `"C.p"`.
    case unknownBacklinkOrigin(className: String, property: String, origin: String)
    /// `linkingObjects<C.p>` where `C.p` is not a link to this class; `origin` is `"C.p"`.
    case backlinkToNonLink(className: String, property: String, origin: String)

    public var description: String {
        switch self {
        case .emptyClassName:
            "a class has an empty name"
        case .duplicateClass(let name):
            "class '\(name)' is declared twice"
        case .emptyPropertyName(let c):
            "class '\(c)': a property has an empty name"
        case .duplicateProperty(let c, let p):
            "class '\(c)', property '\(p)': declared twice"
        case .unknownType(let c, let p, let type):
            "class '\(c)', property '\(p)': unknown type '\(type)'"
        case .unknownClass(let c, let p, let target):
            "class '\(c)', property '\(p)': unknown class '\(target)'"
        case .linkNotOptional(let c, let p, let target):
            "class '\(c)', property '\(p)': a link to '\(target)' must be optional ('\(target)?')"
        case .optionalLinkInCollection(let c, let p):
            "class '\(c)', property '\(p)': a list or set of links cannot hold null"
        case .setOfEmbeddedObjects(let c, let p):
            "class '\(c)', property '\(p)': a set cannot hold embedded objects"
        case .unknownPrimaryKey(let c, let p):
            "class '\(c)': primary key '\(p)' is not a property of the class"
        case .primaryKeyOnEmbeddedClass(let c, let p):
            "class '\(c)', property '\(p)': an embedded class cannot have a primary key"
        case .invalidPrimaryKeyType(let c, let p, let type):
            "class '\(c)', property '\(p)': type '\(type)' cannot be a primary key "
                + "(int, string, objectId or uuid, optional allowed)"
        case .unknownIndexedProperty(let c, let p):
            "class '\(c)': indexed property '\(p)' is not a property of the class"
        case .invalidIndexType(let c, let p, let type):
            "class '\(c)', property '\(p)': type '\(type)' cannot be indexed"
        case .invalidFullTextType(let c, let p, let type):
            "class '\(c)', property '\(p)': a full-text index needs a string property, not '\(type)'"
        case .unknownBacklinkOrigin(let c, let p, let origin):
            "class '\(c)', property '\(p)': backlink origin '\(origin)' does not exist"
        case .backlinkToNonLink(let c, let p, let origin):
            "class '\(c)', property '\(p)': backlink origin '\(origin)' is not a link to '\(c)'"
        }
    }
}
