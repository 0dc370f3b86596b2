import Foundation
import RQLStorage
import Testing

@testable import RQL

/// `encryptionKey`, `readOnly`, `seedFilePath`, `maximumNumberOfActiveVersions`, and
/// `invalidate()`: configuration a ported program sets is honoured or refused, never ignored.
@Suite("Configuration options")
struct ConfigurationOptionTests {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    static func path(_ name: String) -> String { FileRealmTests.temporaryPath(name) }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + ".lock")
    }

    @Test("an encryption key is refused at open with invalidInput, and no file is written in the clear")
    func encryptionKeyIsRefused() {
        let path = Self.path("encrypted")
        defer { Self.remove(path) }
        let key = Data(repeating: 7, count: 64)
        #expect {
            _ = try Realm(
                configuration: Realm.Configuration(
                    fileURL: URL(fileURLWithPath: path),
                    encryptionKey: key,
                    objectTypes: [Entry.self]
                )
            )
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidInput && "\(error)".contains("64-byte key")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: Realm.Error.self) {
            try schemaVersionAtURL(URL(fileURLWithPath: path), encryptionKey: key)
        }
    }

    @Test("realm-swift: a read-only realm refuses transactions with its message")
    func readOnlyRefusesTransactions() throws {
        let path = Self.path("read-only")
        defer { Self.remove(path) }
        let url = URL(fileURLWithPath: path)
        let writable = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Entry.self]))
        try writable.write { writable.add(Entry(value: [1, "one"])) }
        try Thread.run {
            let readOnly = try Realm(
                configuration: Realm.Configuration(fileURL: url, readOnly: true, objectTypes: [Entry.self])
            )
            #expect(readOnly.objects(Entry.self).count == 1)
            #expect {
                try readOnly.write {}
            } throws: { error in
                (error as? Realm.Error)?.code == .readOnly
                    && "\(error)".contains("Can't perform transactions on read-only Realms")
            }
        }
    }

    @Test("realm-swift: seedFilePath is copied when no file exists yet, and ignored once one does")
    func seedFileCopiedOnce() throws {
        let seedPath = Self.path("seed")
        let path = Self.path("seeded")
        defer {
            Self.remove(seedPath)
            Self.remove(path)
        }
        try Thread.run {
            let seed = try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: seedPath), objectTypes: [Entry.self])
            )
            try seed.write { seed.add(Entry(value: [1, "from the seed"])) }
        }
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            objectTypes: [Entry.self],
            seedFilePath: URL(fileURLWithPath: seedPath)
        )
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(Entry.self).map(\.text) == ["from the seed"])
            try realm.write { realm.add(Entry(value: [2, "added"])) }
        }
        // The seed is the same file as before; the seeded file keeps its own changes.
        let seedCount = try Thread.run {
            try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: seedPath), objectTypes: [Entry.self])
            )
            .objects(Entry.self).count
        }
        #expect(seedCount == 1)
        #expect(try Thread.run { try Realm(configuration: configuration).objects(Entry.self).count } == 2)
    }

    @Test("seedFilePath through a symbolic link copies the file it names and that file's commit log")
    func seedThroughSymbolicLink() throws {
        let seedPath = Self.path("seed-target")
        let seedLink = Self.path("seed-link")
        let path = Self.path("seeded-through-link")
        defer {
            for file in [seedPath, seedLink, path] {
                Self.remove(file)
                try? FileManager.default.removeItem(atPath: file + ".log")
            }
        }
        try Thread.run {
            let seed = try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: seedPath), objectTypes: [Entry.self])
            )
            try seed.write { seed.add(Entry(value: [1, "from the seed"])) }
        }
        // The seed's commit is in its log, beside the file the link names.
        #expect(try BlockStore.info(path: seedPath).logRecords > 0)
        try FileManager.default.createSymbolicLink(atPath: seedLink, withDestinationPath: seedPath)
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            objectTypes: [Entry.self],
            seedFilePath: URL(fileURLWithPath: seedLink)
        )
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(Entry.self).map(\.text) == ["from the seed"])
            try realm.write { realm.add(Entry(value: [2, "added"])) }
        }
        // A copy of the file, not of the link: the seed keeps its one entry.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        try StoreRegistry.close(path: seedPath)
        let seedCount = try Thread.run {
            try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: seedPath), objectTypes: [Entry.self])
            )
            .objects(Entry.self).count
        }
        #expect(seedCount == 1)
    }

    @Test("a missing seed file is fileNotFound")
    func missingSeedIsFileNotFound() {
        let path = Self.path("unseeded")
        defer { Self.remove(path) }
        var caught = false
        do {
            _ = try Realm(
                configuration: Realm.Configuration(
                    fileURL: URL(fileURLWithPath: path),
                    seedFilePath: URL(fileURLWithPath: Self.path("no-seed"))
                )
            )
        } catch Realm.Error.fileNotFound {
            caught = true
        } catch {}
        #expect(caught)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("realm-core: writes beyond maximumNumberOfActiveVersions throw while a frozen realm pins an old version")
    func maximumNumberOfActiveVersions() throws {
        var configuration = Realm.Configuration(inMemoryIdentifier: "versions-\(UUID().uuidString)")
        configuration.objectTypes = [Entry.self]
        configuration.maximumNumberOfActiveVersions = 3
        let realm = try Realm(configuration: configuration)
        var frozen: Realm? = realm.freeze()
        try realm.write { realm.add(Entry(value: [1, "a"])) }
        try realm.write { realm.add(Entry(value: [2, "b"])) }
        #expect {
            try realm.write { realm.add(Entry(value: [3, "c"])) }
        } throws: { error in
            (error as? Realm.Error)?.code == .tooManyActiveVersions
                && "\(error)".contains("Number of active versions (4) in the Realm exceeded the limit of 3")
        }
        #expect(!realm.isInWriteTransaction)
        #expect(frozen?.objects(Entry.self).count == 0)
        frozen = nil
        try realm.write { realm.add(Entry(value: [3, "c"])) }
        #expect(realm.objects(Entry.self).count == 3)
    }

    @Test("realm-swift: invalidate() invalidates the objects read so far; the realm reads on")
    func invalidateInvalidatesObjects() throws {
        let realm = try makeRealm([Entry.self])
        try realm.write { realm.add(Entry(value: [1, "one"])) }
        let one = try #require(realm.object(ofType: Entry.self, forPrimaryKey: 1))
        let list = realm.objects(Entry.self)
        #expect(!one.isInvalidated)
        realm.invalidate()
        #expect(one.isInvalidated)
        #expect(list.count == 1)
        let again = try #require(realm.object(ofType: Entry.self, forPrimaryKey: 1))
        #expect(!again.isInvalidated && again.text == "one")
        try realm.write { again.text = "uno" }
        #expect(realm.objects(Entry.self).first?.text == "uno")
    }

    @Test("realm-swift: invalidate() inside a write cancels it")
    func invalidateCancelsWrite() throws {
        let realm = try makeRealm([Entry.self])
        realm.beginWrite()
        let created = realm.create(Entry.self, value: [1, "one"])
        realm.invalidate()
        #expect(!realm.isInWriteTransaction)
        #expect(created.isInvalidated)
        #expect(realm.objects(Entry.self).isEmpty)
    }
}
