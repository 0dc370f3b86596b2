import Foundation
import Testing

@testable import RQL
@testable import RQLStorage

/// `Realm.Error` carries Realm Swift's codes, so a ported `catch Realm.Error.fileNotFound` (or
/// `error.code == .invalidDatabase`) means what it meant there.
@Suite("Realm.Error codes")
struct RealmErrorCodeTests {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    static func missingPath(_ name: String) -> String {
        FileRealmTests.temporaryPath(name)
    }

    @Test("realm-swift: opening a missing file read-only is Realm.Error.fileNotFound")
    func readOnlyMissingFileIsFileNotFound() throws {
        let url = URL(fileURLWithPath: Self.missingPath("missing"))
        var caught = false
        do {
            _ = try Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true, objectTypes: [Note.self]))
        } catch Realm.Error.fileNotFound {
            caught = true
        }
        #expect(caught)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("realm-core: a file that is not a realm is Realm.Error.invalidDatabase")
    func notARealmIsInvalidDatabase() throws {
        let path = Self.missingPath("garbage")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Note.self])
            )
        } throws: { error in
            guard let error = error as? Realm.Error else { return false }
            return error.code == .invalidDatabase && error.message.contains(path)
        }
    }

    @Test("the codes keep Realm Swift's numbers")
    func codesKeepRealmSwiftNumbers() {
        let numbers: [(Realm.Error.Code, Int)] = [
            (.fail, 1), (.fileAccess, 2), (.filePermissionDenied, 3), (.fileExists, 4), (.fileNotFound, 5),
            (.fileFormatUpgradeRequired, 6), (.incompatibleLockFile, 8), (.addressSpaceExhausted, 9),
            (.schemaMismatch, 10), (.alreadyOpen, 12), (.invalidInput, 13), (.outOfDiskSpace, 14),
            (.unsupportedFileFormatVersion, 16), (.fileOperationFailed, 19), (.invalidDatabase, 20),
        ]
        for (code, number) in numbers { #expect(code.rawValue == number, "\(code)") }
        #expect(Realm.Error.fileNotFound == .fileNotFound && Realm.Error.invalidDatabase == .invalidDatabase)
    }

    @Test(
        "each store file problem maps to Realm Swift's code",
        arguments: [
            (StoreFileError.Problem.badMagic, Realm.Error.Code.invalidDatabase),
            (.headerChecksum, .invalidDatabase),
            (.truncated(expected: 10, actual: 2), .invalidDatabase),
            (.dataChecksum(version: 3), .invalidDatabase),
            (.pointerOutOfRange(what: "block", offset: 9), .invalidDatabase),
            (.blockOffsets(className: "Dog", block: 0, reason: "x"), .invalidDatabase),
            (.malformed(what: "schema", reason: "x"), .invalidDatabase),
            (.unsupportedFormat(version: 99), .unsupportedFileFormatVersion),
            (.exists, .fileExists),
            (.readOnly, .readOnly),
            (.io(operation: "open", reason: String(cString: strerror(EACCES))), .filePermissionDenied),
            (.io(operation: "open", reason: String(cString: strerror(ENOENT))), .fileNotFound),
            (.io(operation: "write", reason: String(cString: strerror(ENOSPC))), .outOfDiskSpace),
            (.io(operation: "read", reason: String(cString: strerror(EIO))), .fileAccess),
        ]
    )
    func storeFileProblemCodes(problem: StoreFileError.Problem, code: Realm.Error.Code) {
        let error = Realm.Error(StoreFileError(path: "/tmp/x.realm", problem: problem))
        #expect(error.code == code)
        #expect(error.message.contains("/tmp/x.realm"))
        // A commit that failed on its file is classified the same way.
        #expect(Realm.Error(WriteError.file(StoreFileError(path: "/tmp/x.realm", problem: problem))).code == code)
    }

    @Test("a code names a catch clause only for errors of that code")
    func codePatternMatchesOnlyItsCode() {
        let error: any Error = Realm.Error(.schemaMismatch, "Migration is required")
        #expect(Realm.Error.schemaMismatch ~= error)
        #expect(!(Realm.Error.fileNotFound ~= error))
        #expect(!(Realm.Error.fail ~= CocoaError(.fileNoSuchFile)))
    }
}
