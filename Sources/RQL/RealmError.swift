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
        /// What kind of failure it is: Realm Swift's codes and numbers, then RQL's own for the
        /// failures Realm Swift stops the program on and RQL throws instead.
        public enum Code: Int, Hashable, Sendable {
            /// Anything not covered below.
            case fail = 1
            /// The file could not be read or written (an I/O error other than the ones below).
            case fileAccess = 2
            /// The file or its directory does not allow the access asked for.
            case filePermissionDenied = 3
            /// A file was to be created where one already exists.
            case fileExists = 4
            /// No file exists at the path (a read-only open of a missing file).
            case fileNotFound = 5
            /// The file's format needs an upgrade this open may not make.
            case fileFormatUpgradeRequired = 6
            /// Another process holds the file in a way this one cannot share.
            case incompatibleLockFile = 8
            /// The file cannot be mapped into memory.
            case addressSpaceExhausted = 9
            /// The file's schema or schema version differs from the configuration's and no
            /// migration applies.
            case schemaMismatch = 10
            /// The operation cannot be performed on a file that is open.
            case alreadyOpen = 12
            /// A configuration value cannot be honoured (an `encryptionKey`, a bad seed file).
            case invalidInput = 13
            /// The disk is full.
            case outOfDiskSpace = 14
            /// The file was written in a format version this build cannot read.
            case unsupportedFileFormatVersion = 16
            /// A file operation (a copy, a removal) failed.
            case fileOperationFailed = 19
            /// The file is not a realm file, or is damaged: the reason names what was found.
            case invalidDatabase = 20
            /// A model class cannot be part of a schema (see `SchemaDiscoveryError`).
            case invalidSchema = 101
            /// A write was attempted on a read-only or frozen realm.
            case readOnly = 102
            /// Another object of the class already has this primary key.
            case primaryKeyExists = 103
            /// A value does not fit its property (wrong type, null for a required property, a
            /// value `create(_:value:)` cannot convert).
            case invalidValue = 104
            /// The object was deleted, belongs to another realm, or cannot be added (an embedded
            /// object on its own).
            case invalidObject = 105
            /// `beginWrite()` inside a write, `commitWrite()` outside one.
            case invalidTransaction = 106
            /// More versions are pinned than `maximumNumberOfActiveVersions` allows.
            case tooManyActiveVersions = 107
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
    }
}
