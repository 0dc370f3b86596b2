import Foundation
import RQLCore
import Testing

@testable import RQL
@testable import RQLStorage

/// A realm file whose newest commit cannot be read does not open on the version before it
/// without a word: opening throws `Realm.Error` (`.fileAccess`) naming both versions, so no
/// write can replace the newest version unnoticed.
@Suite("File-backed realms: an unreadable newest version")
struct FallbackRealmTests {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    @Test("opening a realm whose last commit is cut short throws, naming the versions")
    func openThrows() throws {
        // This process keeps the store of a path it opened: the damage goes into a copy.
        let written = Realm.Configuration(
            fileURL: URL(fileURLWithPath: FileRealmTests.temporaryPath("fallback-written")),
            objectTypes: [Note.self]
        )
        let path = try #require(written.fileURL).standardizedFileURL.path
        for id in 0..<3 {
            try Thread.run {
                let realm = try Realm(configuration: written)
                try realm.write { realm.add(Note(value: ["id": id, "text": "note \(id)"])) }
            }
            // Closing writes the commit (in the log) as a checkpoint: one a commit, as a process
            // that writes once and exits leaves them.
            try StoreRegistry.close(path: path)
        }
        let newest = try BlockStore.open(path: path, readOnly: true).snapshot.version
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("fallback-cut"))
        try FileManager.default.copyItem(at: try #require(written.fileURL), to: url)
        // With its log: the checkpoint names it (a file copied alone does not open).
        try FileManager.default.copyItem(
            atPath: try #require(written.fileURL).path + ".log",
            toPath: url.path + ".log"
        )
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(truncate(url.path, off_t(size - 1)) == 0)
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Note.self])
        try Thread.run {
            do {
                let realm = try Realm(configuration: configuration)
                Issue.record("opened at \(realm.objects(Note.self).count) notes")
            } catch let error as Realm.Error {
                #expect(error.code == .fileAccess)
                #expect(error.message.contains("the newest version \(newest) could not be read"), "\(error)")
                #expect(error.message.contains("version \(newest - 1) is intact"), "\(error)")
                #expect(error.message.contains(url.path))
            }
            #expect(throws: Realm.Error.self) { try schemaVersionAtURL(url) }
        }
        // Nothing was written: the file still ends where it was cut.
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size - 1)
    }
}
