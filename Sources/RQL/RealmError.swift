import RQLCore
import RQLStorage

extension Realm {
    /// Why opening a realm or committing a write failed. Writes never trap on a broken constraint
    /// (a duplicate primary key, a deleted object, a value of the wrong type): the transaction
    /// records the first such error, and `commitWrite()` / `write { }` throw it after rolling
    /// everything back.
    ///
    /// ```swift
    /// do {
    ///     try realm.write {
    ///         realm.add(Person(value: ["id": 1]))
    ///         realm.add(Person(value: ["id": 1]))     // duplicate primary key
    ///     }
    /// } catch let error as Realm.Error where error.code == .primaryKeyExists {
    ///     print(error)   // Person[…].id: primary key 1 already exists
    /// }
    /// ```
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// What kind of failure it is.
        public enum Code: Int, Hashable, Sendable {
            /// Anything not covered below.
            case fail = 1
            /// No store exists at the path (a read-only open of a missing file), or it cannot be used.
            case fileAccess = 2
            /// The file's schema or schema version differs from the configuration's and no
            /// migration applies (migrations are not available yet).
            case schemaMismatch = 10
            /// A model class cannot be part of a schema (see `SchemaDiscoveryError`).
            case invalidSchema = 11
            /// A write was attempted on a read-only realm.
            case readOnly = 12
            /// Another object of the class already has this primary key.
            case primaryKeyExists = 20
            /// A value does not fit its property (wrong type, null for a required property, a
            /// value `create(_:value:)` cannot convert).
            case invalidValue = 21
            /// The object was deleted, belongs to another realm, or cannot be added (an embedded
            /// object on its own).
            case invalidObject = 22
            /// `beginWrite()` inside a write, `commitWrite()` outside one.
            case invalidTransaction = 23
        }

        /// What kind of failure it is (`error.code == .primaryKeyExists`).
        ///
        /// ```swift
        /// catch let error as Realm.Error where error.code == .primaryKeyExists { … }
        /// ```
        public let code: Code
        /// The full message.
        ///
        /// ```swift
        /// print(error.message)  // "Attempting to create an object of type 'Person' with an existing primary key value '1'."
        /// ```
        public let message: String

        /// An error of `code` with `message` (`Realm.Error(.fail, "…")`).
        ///
        /// ```swift
        /// throw Realm.Error(.fail, "the import was cancelled")
        /// ```
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        public var description: String { message }

        /// A storage engine refusal, classified.
        init(_ error: WriteError) {
            switch error {
            case .duplicatePrimaryKey: self.init(.primaryKeyExists, error.description)
            case .typeMismatch, .nullNotAllowed, .invalidMapKey, .primaryKeyChanged, .indexOutOfRange,
                .wrongCollection, .computedProperty:
                self.init(.invalidValue, error.description)
            case .unknownObject, .danglingLink, .linkToEmbeddedObject, .embeddedClass:
                self.init(.invalidObject, error.description)
            case .schema, .classExists, .propertyExists, .noSuchIndex, .incompatibleSchema, .unknownClass,
                .unknownProperty:
                self.init(.schemaMismatch, error.description)
            default:
                // The transaction ended, a bulk-load problem, or a failure of the store itself.
                self.init(.fail, error.description)
            }
        }
    }
}
