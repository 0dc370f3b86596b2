import RQLCore
import RQLStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The one place the storage engine's typed errors become `Realm.Error` codes. The switches name
// every case with no `default`, so a case the storage engine adds fails to compile here until
// it is given its code.

extension Realm.Error {
    /// A store file that could not be opened, read or written, as Realm Swift classifies it:
    /// damage is `invalidDatabase`, a system call's failure is classified by its `errno`.
    ///
    /// ```swift
    /// catch Realm.Error.invalidDatabase { … }   // not a realm file, or a damaged one
    /// ```
    init(_ error: StoreFileError) {
        let message = "Unable to open a realm at path '\(error.path)': \(error.problem.description)"
        switch error.problem {
        case .badMagic, .headerChecksum, .slotChecksum, .newestVersionUnreadable, .truncated, .dataChecksum,
            .pointerOutOfRange, .blockOffsets, .malformed, .emptyFile, .commitLogMissing:
            self.init(.invalidDatabase, message)
        case .notRegularFile:
            self.init(.fileAccess, message)
        case .unsupportedFormat:
            self.init(.unsupportedFileFormatVersion, message)
        case .io(_, let reason):
            self.init(Self.code(forSystemError: reason), message)
        case .exists:
            self.init(.fileExists, message)
        case .readOnly:
            self.init(.readOnly, message)
        case .conflict:
            self.init(.fail, message)
        }
    }

    /// The code of a failed system call, from the `strerror` text the store recorded.
    private static func code(forSystemError reason: String) -> Code {
        func text(_ number: Int32) -> String { String(cString: strerror(number)) }
        switch reason {
        case text(ENOENT), text(ENOTDIR): return .fileNotFound
        case text(EACCES), text(EPERM), text(EROFS): return .filePermissionDenied
        case text(EEXIST): return .fileExists
        case text(ENOSPC), text(EDQUOT): return .outOfDiskSpace
        case text(ENOMEM): return .addressSpaceExhausted
        case text(EWOULDBLOCK), text(EBUSY): return .incompatibleLockFile
        default: return .fileAccess
        }
    }

    /// A storage engine refusal, classified.
    init(_ error: WriteError) {
        switch error {
        case .file(let fileError):
            self.init(fileError)
        case .duplicatePrimaryKey:
            self.init(.primaryKeyExists, error.description)
        case .typeMismatch, .nullNotAllowed, .invalidMapKey, .primaryKeyChanged, .indexOutOfRange, .wrongCollection,
            .computedProperty:
            self.init(.invalidValue, error.description)
        case .unknownObject, .danglingLink, .linkToEmbeddedObject, .embeddedClass:
            self.init(.invalidObject, error.description)
        case .schema, .classExists, .propertyExists, .noSuchIndex, .incompatibleSchema, .unknownClass,
            .unknownProperty:
            self.init(.schemaMismatch, error.description)
        case .transactionEnded:
            self.init(.invalidTransaction, error.description)
        case .rowCountMismatch, .embeddedOwnerCount:
            // Bulk loads' refusals: the input, not the realm, is at fault.
            self.init(.invalidInput, error.description)
        }
    }
}

extension Realm.Error {
    // Realm Swift's spelling of each code as a member of the error, so that a `catch` names the
    // code the way it does there (`catch Realm.Error.fileNotFound`).

    /// `Code.fail`.
    public static var fail: Code { .fail }
    /// `Code.fileAccess`.
    public static var fileAccess: Code { .fileAccess }
    /// `Code.filePermissionDenied`.
    public static var filePermissionDenied: Code { .filePermissionDenied }
    /// `Code.fileExists`.
    public static var fileExists: Code { .fileExists }
    /// `Code.fileNotFound`: `catch Realm.Error.fileNotFound { … }`.
    public static var fileNotFound: Code { .fileNotFound }
    /// `Code.fileFormatUpgradeRequired`.
    public static var fileFormatUpgradeRequired: Code { .fileFormatUpgradeRequired }
    /// `Code.incompatibleLockFile`.
    public static var incompatibleLockFile: Code { .incompatibleLockFile }
    /// `Code.addressSpaceExhausted`.
    public static var addressSpaceExhausted: Code { .addressSpaceExhausted }
    /// `Code.schemaMismatch`.
    public static var schemaMismatch: Code { .schemaMismatch }
    /// `Code.alreadyOpen`.
    public static var alreadyOpen: Code { .alreadyOpen }
    /// `Code.invalidInput`.
    public static var invalidInput: Code { .invalidInput }
    /// `Code.outOfDiskSpace`.
    public static var outOfDiskSpace: Code { .outOfDiskSpace }
    /// `Code.unsupportedFileFormatVersion`.
    public static var unsupportedFileFormatVersion: Code { .unsupportedFileFormatVersion }
    /// `Code.fileOperationFailed`.
    public static var fileOperationFailed: Code { .fileOperationFailed }
    /// `Code.invalidDatabase`.
    public static var invalidDatabase: Code { .invalidDatabase }
}

extension Realm.Error.Code {
    /// Whether `error` is a `Realm.Error` of this code: what lets a `catch` clause name a code.
    ///
    /// ```swift
    /// do {
    ///     _ = try Realm(configuration: Realm.Configuration(fileURL: missing, readOnly: true))
    /// } catch Realm.Error.fileNotFound {
    ///     // no file there yet
    /// }
    /// ```
    public static func ~= (code: Realm.Error.Code, error: any Swift.Error) -> Bool {
        (error as? Realm.Error)?.code == code
    }
}
