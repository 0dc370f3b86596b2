import RQLCore

/// Why a write-transaction operation was refused. Every operation validates before it changes
/// anything, so after a thrown error the transaction is exactly as it was and can go on.
/// Cases name the class, the property and the object's key where they apply (`key` is `nil`
/// for an object not inserted yet).
///
/// ```swift
/// do { try transaction.set("age", of: dog, to: .string("old")) }
/// catch { print(error) }  // Dog[O3].age: expected int, found string
/// ```
public enum WriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The transaction was already committed or rolled back.
    case transactionEnded
    /// A file-backed store could not write the commit (the file keeps the previous version).
    case file(StoreFileError)
    /// The schema has no class of this name.
    case unknownClass(String)
    /// Objects of an embedded class are created through their owner's property, not inserted.
    case embeddedClass(String)
    /// The class has no object with this key.
    case unknownObject(className: String, key: RowKey)
    /// The class has no property of this name.
    case unknownProperty(className: String, property: String)
    /// The property is computed (`linkingObjects`) and cannot be written.
    case computedProperty(className: String, property: String)
    /// The value's type does not fit the property; `expected` is the property's type syntax.
    case typeMismatch(className: String, property: String, key: RowKey?, expected: String, found: String)
    /// Null given for a property (or element) that is not optional.
    case nullNotAllowed(className: String, property: String, key: RowKey?)
    /// Another object of the class already has this primary key.
    case duplicatePrimaryKey(className: String, property: String, key: RowKey?, value: Value)
    /// A primary key cannot change once the object exists.
    case primaryKeyChanged(className: String, property: String, key: RowKey)
    /// The link points at no object.
    case danglingLink(className: String, property: String, key: RowKey?, target: ObjectLink)
    /// An embedded object can have only its one owner: give its values (a `.map`) to create a
    /// new one instead of linking to an existing one.
    case linkToEmbeddedObject(className: String, property: String, key: RowKey?, target: ObjectLink)
    /// The operation needs a property of another collection kind (a list operation on a set…).
    case wrongCollection(className: String, property: String, expected: CollectionKind)
    /// A list index outside `0 ..< count` (`0 ... count` for an insertion).
    case indexOutOfRange(className: String, property: String, key: RowKey, index: Int, count: Int)
    /// A map key that Realm refuses: one containing `.` or starting with `$`.
    case invalidMapKey(className: String, property: String, key: RowKey?, mapKey: String)
    /// The schema change would make the schema invalid.
    case schema(SchemaError)
    /// `addClass` for a class that exists.
    case classExists(String)
    /// `addProperty` or `renameProperty` to a name the class already has.
    case propertyExists(className: String, property: String)
    /// The property has no index of this kind to remove, or cannot have one.
    case noSuchIndex(className: String, property: String)
    /// Bulk columns of one class disagree in length.
    case rowCountMismatch(className: String, property: String, expected: Int, found: Int)
    /// An imported store's class does not match this store's: a missing or differently typed
    /// property (`property` names it), or a class this store lacks (`property` is `nil`).
    case incompatibleSchema(className: String, property: String?)
    /// An embedded object must have exactly one owner; an import found `owners`.
    case embeddedOwnerCount(className: String, key: RowKey, owners: Int)

    public var description: String {
        func object(_ c: String, _ p: String, _ key: RowKey?) -> String {
            key.map { "\(c)[\($0)].\(p)" } ?? "new \(c).\(p)"
        }
        switch self {
        case .transactionEnded: return "the write transaction has already ended"
        case .file(let error): return error.description
        case .unknownClass(let c): return "unknown class '\(c)'"
        case .embeddedClass(let c): return "class '\(c)' is embedded; create its objects through their owner"
        case .unknownObject(let c, let key): return "class '\(c)' has no object \(key)"
        case .unknownProperty(let c, let p): return "class '\(c)' has no property '\(p)'"
        case .computedProperty(let c, let p): return "\(c).\(p) is computed (linkingObjects) and cannot be written"
        case .typeMismatch(let c, let p, let key, let expected, let found):
            return "\(object(c, p, key)): expected \(expected), found \(found)"
        case .nullNotAllowed(let c, let p, let key): return "\(object(c, p, key)): null is not allowed"
        case .duplicatePrimaryKey(let c, let p, let key, let value):
            return "\(object(c, p, key)): primary key \(value) already exists"
        case .primaryKeyChanged(let c, let p, let key):
            return "\(object(c, p, key)): a primary key cannot change once the object exists"
        case .danglingLink(let c, let p, let key, let target):
            return "\(object(c, p, key)): link to \(target), which does not exist"
        case .linkToEmbeddedObject(let c, let p, let key, let target):
            return "\(object(c, p, key)): \(target) is embedded and already has an owner"
        case .wrongCollection(let c, let p, let expected):
            return "\(c).\(p) is not a \(expected)"
        case .indexOutOfRange(let c, let p, let key, let index, let count):
            return "\(object(c, p, key)): index \(index) is out of range for \(count) elements"
        case .invalidMapKey(let c, let p, let key, let mapKey):
            return "\(object(c, p, key)): invalid map key '\(mapKey)' (map keys cannot contain '.' or start with '$')"
        case .schema(let error): return error.description
        case .classExists(let c): return "class '\(c)' already exists"
        case .propertyExists(let c, let p): return "class '\(c)' already has a property '\(p)'"
        case .noSuchIndex(let c, let p): return "\(c).\(p) has no such index"
        case .rowCountMismatch(let c, let p, let expected, let found):
            return "\(c).\(p): \(found) rows where the other columns have \(expected)"
        case .incompatibleSchema(let c, let p):
            return p.map { "\(c).\($0) does not match this store's schema" }
                ?? "class '\(c)' is not in this store's schema"
        case .embeddedOwnerCount(let c, let key, let owners):
            return "embedded object \(c)[\(key)] has \(owners) owners; it needs exactly one"
        }
    }
}
