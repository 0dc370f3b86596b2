import Foundation
import Synchronization

extension Realm {
    /// Where a realm's data lives and which classes it holds.
    ///
    /// ```swift
    /// var config = Realm.Configuration(inMemoryIdentifier: "scratch")
    /// config.objectTypes = [Person.self, Dog.self]
    /// let realm = try Realm(configuration: config)
    ///
    /// let onDisk = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: "/tmp/dogs.realm")))
    /// ```
    ///
    /// `fileURL` and `inMemoryIdentifier` exclude each other: setting one clears the other.
    /// Without `objectTypes`, the schema is every class the realm is used with and every class
    /// those link to (Linux has no list of all classes to start from).
    public struct Configuration: Sendable, Equatable, CustomStringConvertible {
        private var location: Location

        private enum Location: Hashable, Sendable {
            case file(URL)
            case memory(String)
        }

        /// The file the realm is stored in (nil for an in-memory realm).
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: URL(fileURLWithPath: "/tmp/dogs.realm"))
        /// config.fileURL?.lastPathComponent  // "dogs.realm"
        /// ```
        public var fileURL: URL? {
            get {
                if case .file(let url) = location { return url }
                return nil
            }
            set {
                location = .file(newValue ?? Configuration.defaultFileURL)
            }
        }

        /// The name of an in-memory realm: its data lives while some realm with this identifier
        /// is open, and is shared by every realm opened with it.
        ///
        /// ```swift
        /// let scratch = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "scratch"))
        /// ```
        public var inMemoryIdentifier: String? {
            get {
                if case .memory(let identifier) = location { return identifier }
                return nil
            }
            set {
                location = newValue.map(Location.memory) ?? .file(Configuration.defaultFileURL)
            }
        }

        /// Open the realm for reading only: writes fail, and a missing file is an error.
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: url, readOnly: true)
        /// let realm = try Realm(configuration: config)  // realm.write { } throws Realm.Error (.readOnly)
        /// ```
        public var readOnly: Bool
        /// The version of the schema, recorded in the file: opening a file last used with a higher
        /// version fails; a higher one migrates the file to the declared classes (see
        /// `migrationBlock`); the same one with different classes fails ("Migration is required
        /// due to the following errors: …").
        ///
        /// ```swift
        /// let v2 = Realm.Configuration(fileURL: url, schemaVersion: 2, objectTypes: [Dog.self])
        /// let realm = try Realm(configuration: v2)  // the file now records version 2
        /// // schemaVersion 1 now throws "Provided schema version 1 is less than last set version 2."
        /// ```
        public var schemaVersion: UInt64
        /// Run when the file's schema version is lower than `schemaVersion`, inside the
        /// migration's write transaction (see `Migration`). Without one, a raised version still
        /// applies the declared classes' added and removed properties and classes.
        ///
        /// ```swift
        /// config.migrationBlock = { migration, oldVersion in
        ///     migration.enumerateObjects(ofType: "Dog") { old, new in new?["name"] = (old?["name"] as? String)?.capitalized }
        /// }
        /// ```
        public var migrationBlock: MigrationBlock?
        /// When the declared classes differ from the file's and no migration applies (or the
        /// version is lower), replace the file's classes and their objects with the declared
        /// ones instead of failing.
        ///
        /// ```swift
        /// let cache = Realm.Configuration(fileURL: url, deleteRealmIfMigrationNeeded: true, objectTypes: [Entry.self])
        /// ```
        public var deleteRealmIfMigrationNeeded: Bool
        /// Asked with the file's size and the bytes its data uses on the first open of the file
        /// in this process; true compacts the file first (skipped while another process has it
        /// open).
        ///
        /// ```swift
        /// config.shouldCompactOnLaunch = { total, used in total > 100 * 1024 * 1024 && used < total / 2 }
        /// ```
        public var shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)?
        /// The classes the realm holds (each link target must be among them); nil for every
        /// class the realm is used with.
        ///
        /// ```swift
        /// let config = Realm.Configuration(inMemoryIdentifier: "pets", objectTypes: [Person.self, Dog.self])
        /// ```
        public var objectTypes: [ObjectBase.Type]?

        /// The 64-byte key of an encrypted realm file. RQL does not encrypt files yet: a
        /// non-nil key makes opening the realm throw `Realm.Error.invalidInput`, so that data
        /// meant to be encrypted is never written in the clear.
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: url, encryptionKey: key)
        /// _ = try Realm(configuration: config)  // throws Realm.Error (.invalidInput)
        /// ```
        public var encryptionKey: Data?

        /// A realm file copied to `fileURL` when no file exists there yet (a prebuilt database
        /// shipped with the program); ignored once the file exists. A missing seed file is
        /// `Realm.Error.fileNotFound`.
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: documents, seedFilePath: bundledCatalogue)
        /// let realm = try Realm(configuration: config)  // starts from the catalogue's objects
        /// ```
        public var seedFilePath: URL?

        /// How many versions of the realm may be pinned at once (the version being written, and
        /// every older one a frozen realm, object or collection still reads). A write that would
        /// exceed it throws `Realm.Error` (`.tooManyActiveVersions`) instead of letting the
        /// pinned versions pile up; nil for no limit.
        ///
        /// ```swift
        /// var config = Realm.Configuration(inMemoryIdentifier: "bounded")
        /// config.maximumNumberOfActiveVersions = 8
        /// ```
        public var maximumNumberOfActiveVersions: UInt?

        /// A configuration; the defaults are a file named `default.realm` in the current
        /// directory, writable, schema version 0, every class used.
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [Dog.self])
        /// ```
        public init(
            fileURL: URL? = nil,
            inMemoryIdentifier: String? = nil,
            encryptionKey: Data? = nil,
            readOnly: Bool = false,
            schemaVersion: UInt64 = 0,
            migrationBlock: MigrationBlock? = nil,
            deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil,
            objectTypes: [ObjectBase.Type]? = nil,
            seedFilePath: URL? = nil
        ) {
            if let inMemoryIdentifier {
                location = .memory(inMemoryIdentifier)
            } else {
                location = .file(fileURL ?? Configuration.defaultFileURL)
            }
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
            self.encryptionKey = encryptionKey
            self.seedFilePath = seedFilePath
        }

        /// Refuses what this build cannot honour before anything is opened.
        func validate() throws(Realm.Error) {
            if let encryptionKey { throw Self.encryptionUnsupported(encryptionKey) }
        }

        /// The error for an encryption key: files are not encrypted yet, and a key is never ignored.
        static func encryptionUnsupported(_ key: Data) -> Realm.Error {
            Realm.Error(
                .invalidInput,
                "Encrypted realms are not supported yet: open the realm with encryptionKey nil "
                    + "(a \(key.count)-byte key was given)"
            )
        }

        /// `default.realm` in the current directory.
        ///
        /// ```swift
        /// Realm.Configuration.defaultFileURL.lastPathComponent  // "default.realm"
        /// ```
        public static var defaultFileURL: URL {
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("default.realm")
        }

        private static let defaultStorage = Mutex(Configuration())

        /// The configuration `Realm()` uses.
        ///
        /// ```swift
        /// Realm.Configuration.defaultConfiguration = Realm.Configuration(inMemoryIdentifier: "tests")
        /// let realm = try Realm()
        /// ```
        public static var defaultConfiguration: Configuration {
            get { defaultStorage.withLock { $0 } }
            set { defaultStorage.withLock { $0 = newValue } }
        }

        /// The key of the store this configuration opens.
        var storeKey: StoreKey {
            switch location {
            case .file(let url): .file(url.standardizedFileURL.path)
            case .memory(let identifier): .memory(identifier)
            }
        }

        public static func == (lhs: Configuration, rhs: Configuration) -> Bool {
            // Blocks cannot be compared: two configurations differing only in them are equal.
            lhs.location == rhs.location && lhs.readOnly == rhs.readOnly && lhs.schemaVersion == rhs.schemaVersion
                && lhs.encryptionKey == rhs.encryptionKey && lhs.seedFilePath == rhs.seedFilePath
                && lhs.maximumNumberOfActiveVersions == rhs.maximumNumberOfActiveVersions
                && lhs.deleteRealmIfMigrationNeeded == rhs.deleteRealmIfMigrationNeeded
                && lhs.objectTypes.map { $0.map(ObjectIdentifier.init) }
                    == rhs.objectTypes.map {
                        $0.map(ObjectIdentifier.init)
                    }
        }

        public var description: String {
            let place =
                switch location {
                case .file(let url): "fileURL = \(url.path)"
                case .memory(let identifier): "inMemoryIdentifier = \(identifier)"
                }
            let types =
                objectTypes.map { "[" + $0.map { $0.className() }.joined(separator: ", ") + "]" } ?? "(all used)"
            return "Realm.Configuration {\n\t\(place);\n\treadOnly = \(readOnly);\n\tschemaVersion = "
                + "\(schemaVersion);\n\tobjectTypes = \(types);\n}"
        }
    }
}

/// Which store a configuration opens: a file path, or an in-memory identifier.
enum StoreKey: Hashable, Sendable, CustomStringConvertible {
    case file(String)
    case memory(String)

    var description: String {
        switch self {
        case .file(let path): path
        case .memory(let identifier): "in-memory realm '\(identifier)'"
        }
    }
}
