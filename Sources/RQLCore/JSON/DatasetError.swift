/// Why a JSON dataset could not be loaded (or written). Errors about objects name the class, the object's
/// zero-based position in that class's array, and the property (`address.city` inside an
/// embedded object). A document that fails loads nothing.
///
/// ```swift
/// do { _ = try DatasetLoader.load(json: text) }
/// catch { print(error) }  // Dog[3].age: expected an integer, found a string
/// ```
public enum DatasetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not JSON; the payload has the line and column.
    case syntax(JSONSyntaxError)
    /// The document's structure is wrong at `path` (such as `schema.Dog.properties`).
    case invalidDocument(path: String, reason: String)
    /// The schema section is well-formed JSON but not a valid schema.
    case schema(SchemaError)
    /// `objects` has an array for a class the schema does not declare.
    case unknownClass(String)
    /// `objects` has an array for an embedded class (embedded objects are written inline).
    case embeddedClassInObjects(String)
    /// The element at `position` of the class's array is not a JSON object.
    case notAnObject(className: String, position: Int)
    /// The object has a property its class does not declare.
    case unknownProperty(className: String, position: Int, property: String)
    /// An embedded object has a property its (embedded) class does not declare; `path` is where
    /// it is inside the top-level object (`address.zip`), `property` the name itself.
    case unknownEmbeddedProperty(
        className: String,
        position: Int,
        path: String,
        embeddedClass: String,
        property: String
    )
    /// The property's JSON value has the wrong type; `expected` and `found` describe both.
    case wrongType(className: String, position: Int, property: String, expected: String, found: String)
    /// The JSON type is right but the content is not a valid value (bad date, ObjectId, base64…).
    case invalidValue(className: String, position: Int, property: String, reason: String)
    /// The object has no value for its class's primary key.
    case missingPrimaryKey(className: String, position: Int, property: String)
    /// Another object of the class already has this primary key; `key` is the value as text.
    case duplicatePrimaryKey(className: String, position: Int, property: String, key: String)
    /// A link names an object that does not exist; `key` is the primary key or position given.
    case danglingLink(className: String, position: Int, property: String, target: String, key: String)
    /// The object gives a value for a computed `linkingObjects` property.
    case backlinkGiven(className: String, position: Int, property: String)
    /// The input could not be read to its end (an I/O error, not a problem with the text).
    case unreadable(InputFailure)
    /// An embedded object more than `limit` levels below the object at `position` of the
    /// class's array, inside its `property`: deeper than a store holds them. A load refuses it;
    /// a writer meets it only in a damaged store, or one whose embedded objects own each other.
    case embeddedTooDeep(className: String, position: Int, property: String, limit: Int)

    public var description: String {
        switch self {
        case .syntax(let error):
            return error.description
        case .invalidDocument(let path, let reason):
            return "invalid dataset at '\(path)': \(reason)"
        case .schema(let error):
            return "invalid schema: \(error)"
        case .unknownClass(let name):
            return "objects: unknown class '\(name)'"
        case .embeddedClassInObjects(let name):
            return "objects: class '\(name)' is embedded; write its objects inline in their parents"
        case .notAnObject(let c, let position):
            return "\(c)[\(position)]: expected an object"
        case .unknownProperty(let c, let position, let p):
            return "\(c)[\(position)].\(p): class '\(c)' has no property '\(p)'"
        case .unknownEmbeddedProperty(let c, let position, let path, let embedded, let p):
            return "\(c)[\(position)].\(path): embedded class '\(embedded)' has no property '\(p)'"
        case .wrongType(let c, let position, let p, let expected, let found):
            return "\(c)[\(position)].\(p): expected \(expected), found \(found)"
        case .invalidValue(let c, let position, let p, let reason):
            return "\(c)[\(position)].\(p): \(reason)"
        case .missingPrimaryKey(let c, let position, let p):
            return "\(c)[\(position)].\(p): missing primary key"
        case .duplicatePrimaryKey(let c, let position, let p, let key):
            return "\(c)[\(position)].\(p): duplicate primary key \(key)"
        case .danglingLink(let c, let position, let p, let target, let key):
            return "\(c)[\(position)].\(p): no '\(target)' object with key \(key)"
        case .backlinkGiven(let c, let position, let p):
            return "\(c)[\(position)].\(p): '\(p)' is a computed linkingObjects property and cannot be given"
        case .unreadable(let failure):
            return failure.message
        case .embeddedTooDeep(let c, let position, let p, let limit):
            return "\(c)[\(position)].\(p): embedded objects nested more than \(limit) levels deep"
        }
    }
}
