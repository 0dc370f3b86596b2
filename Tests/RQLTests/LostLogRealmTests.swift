import Foundation
import RQLCore
import Testing

@testable import RQL

/// `Realm.replaceLostCommitLog(for:)`: a realm whose commit log was lost does not open (never
/// its older checkpoint read as the newest version), and opens at its checkpoint only when asked.
@Suite("File-backed realms: replacing a lost commit log")
struct LostLogRealmTests {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    /// A closed realm file of `count` Notes whose checkpoint names its log.
    static func writtenRealm(_ name: String, count: Int) throws -> Realm.Configuration {
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: FileRealmTests.temporaryPath(name)),
            objectTypes: [Note.self]
        )
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                for id in 0..<count { realm.add(Note(value: ["id": id, "text": "note \(id)"])) }
            }
        }
        // Closing checkpoints the log's commits; the checkpoint names the log.
        try StoreRegistry.close(path: try #require(configuration.fileURL).standardizedFileURL.path)
        return configuration
    }

    static func remove(_ configuration: Realm.Configuration) {
        guard let path = configuration.fileURL?.path else { return }
        for file in [path, path + ".log", path + ".lock"] { try? FileManager.default.removeItem(atPath: file) }
    }

    @Test("a realm whose log is lost does not open; replacing the log opens it at its checkpoint")
    func replacesLostLog() throws {
        let configuration = try Self.writtenRealm("lost-log", count: 20)
        defer { Self.remove(configuration) }
        let path = try #require(configuration.fileURL).path
        #expect(try Realm.replaceLostCommitLog(for: configuration) == nil, "the log is there: nothing to replace")

        try FileManager.default.removeItem(atPath: path + ".log")
        let missing = try Thread.run { () -> Realm.Error? in
            do {
                _ = try Realm(configuration: configuration)
                return nil
            } catch let error as Realm.Error {
                return error
            }
        }
        #expect(missing?.code == .invalidDatabase)
        #expect(missing?.description.contains(".log") == true, "\(String(describing: missing))")

        let version = try Realm.replaceLostCommitLog(for: configuration)
        #expect(version != nil)
        #expect(FileManager.default.fileExists(atPath: path + ".log"))
        let notes = try Thread.run { () -> [String] in
            let realm = try Realm(configuration: configuration)
            return Array(realm.objects(Note.self).sorted(byKeyPath: "id").map(\.text))
        }
        #expect(notes == (0..<20).map { "note \($0)" })
    }

    @Test("a realm open in this process, or with another hard link, keeps its files")
    func refusesOpenOrLinkedFile() throws {
        let configuration = try Self.writtenRealm("lost-log-refused", count: 3)
        let path = try #require(configuration.fileURL).path
        let link = FileRealmTests.temporaryPath("lost-log-link")
        defer {
            Self.remove(configuration)
            try? FileManager.default.removeItem(atPath: link)
        }
        let whileOpen = try Thread.run { () -> Realm.Error? in
            let realm = try Realm(configuration: configuration)
            defer { withExtendedLifetime(realm) {} }
            do {
                try Realm.replaceLostCommitLog(for: configuration)
                return nil
            } catch let error as Realm.Error {
                return error
            }
        }
        #expect(whileOpen?.code == .fileAccess)
        #expect(whileOpen?.description.contains("open in this process") == true)
        try StoreRegistry.close(path: path)

        try FileManager.default.linkItem(atPath: path, toPath: link)
        try FileManager.default.removeItem(atPath: path + ".log")
        #expect {
            try Realm.replaceLostCommitLog(for: configuration)
        } throws: { error in
            (error as? Realm.Error)?.code == .fileAccess && "\(error)".contains("names")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".log"), "nothing written beside a linked file")
    }
}
