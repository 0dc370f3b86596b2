import Foundation
import RQLCore
import RQLStorage
import RQLTestSupport
import Synchronization
import Testing

@testable import RQL

/// A realm's commit log (`<path>.log`, on by default) through every file API: deleting,
/// copying, compacting, seeding and opening read-only all see the log's commits or remove it.
@Suite("Realm files with a commit log")
struct RealmLogFilesTests {
    final class Entry: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    static func configuration(_ path: String, readOnly: Bool = false) -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: readOnly, objectTypes: [Entry.self])
    }

    /// Writes `count` entries, one transaction each, to the realm at `path`, whose store stays
    /// open in this process: the commits are in its log, not yet in a checkpoint.
    static func fill(_ path: String, count: Int) throws {
        try Thread.run {
            let realm = try Realm(configuration: configuration(path))
            for i in 0..<count {
                try realm.write { realm.create(Entry.self, value: ["id": i, "text": "entry \(i)"]) }
            }
        }
        #expect(try BlockStore.info(path: path).logRecords == count)
    }

    static func ids(_ path: String, readOnly: Bool = false) throws -> [Int] {
        try Thread.run {
            Array(try Realm(configuration: configuration(path, readOnly: readOnly)).objects(Entry.self).map(\.id))
                .sorted()
        }
    }

    /// The store file and its log copied to `target`: what a crash leaves beside a file.
    static func copyWithLog(_ path: String, to target: String) throws {
        try FileManager.default.copyItem(atPath: path + ".log", toPath: target + ".log")
        try FileManager.default.copyItem(atPath: path, toPath: target)
    }

    @Test("deleteFiles removes the commit log too; a realm made there again starts empty")
    func deleteFilesRemovesLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let path = directory.path("log-delete.realm")
        try Self.fill(path, count: 3)
        #expect(FileManager.default.fileExists(atPath: path + ".log"))
        #expect(try Realm.deleteFiles(for: Self.configuration(path)))
        #expect(!FileManager.default.fileExists(atPath: path + ".log"))
        #expect(try Self.ids(path) == [])
    }

    @Test("writeCopy holds the log's commits in one file, with no log beside it")
    func writeCopyHasNoLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let path = directory.path("log-copy-source.realm")
        let copy = directory.path("log-copy.realm")
        try Self.fill(path, count: 4)
        try Thread.run {
            try Realm(configuration: Self.configuration(path)).writeCopy(toFile: URL(fileURLWithPath: copy))
        }
        #expect(!FileManager.default.fileExists(atPath: copy + ".log"))
        #expect(try BlockStore.verify(path: copy).classes.first { $0.name == "Entry" }?.objects == 4)
        #expect(try Self.ids(copy) == [0, 1, 2, 3])
    }

    @Test("shouldCompactOnLaunch on a file whose log holds commits keeps them and leaves no log")
    func compactOnLaunchWithLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let source = directory.path("log-compact-source.realm")
        let path = directory.path("log-compact.realm")
        try Self.fill(source, count: 5)
        try Self.copyWithLog(source, to: path)
        #expect(try BlockStore.info(path: path).logRecords == 5)
        let asked = Mutex(0)
        var configuration = Self.configuration(path)
        configuration.shouldCompactOnLaunch = { _, _ in
            asked.withLock { $0 += 1 }
            return true
        }
        let ids = try Thread.run {
            Array(try Realm(configuration: configuration).objects(Entry.self).map(\.id)).sorted()
        }
        #expect(asked.withLock { $0 } == 1)
        #expect(ids == [0, 1, 2, 3, 4])
        #expect(!FileManager.default.fileExists(atPath: path + ".log") || CommitLogSize.of(path) == 0)
        try StoreRegistry.close(path: path)
        #expect(try BlockStore.verify(path: path).classes.first { $0.name == "Entry" }?.objects == 5)
    }

    @Test("seedFilePath copies the seed's commit log with it")
    func seedWithLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let seed = directory.path("log-seed.realm")
        let path = directory.path("log-seeded.realm")
        try Self.fill(seed, count: 3)
        var configuration = Self.configuration(path)
        configuration.seedFilePath = URL(fileURLWithPath: seed)
        let ids = try Thread.run {
            Array(try Realm(configuration: configuration).objects(Entry.self).map(\.id)).sorted()
        }
        #expect(ids == [0, 1, 2])
    }

    @Test("a read-only realm reads the log's commits; a damaged log is an error, never an older version")
    func readOnlyWithLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let source = directory.path("log-read-only-source.realm")
        let path = directory.path("log-read-only.realm")
        let damaged = directory.path("log-read-only-damaged.realm")
        try Self.fill(source, count: 3)
        try Self.copyWithLog(source, to: path)
        #expect(try Self.ids(path, readOnly: true) == [0, 1, 2])
        #expect(try BlockStore.info(path: path).logRecords == 3)
        // The first record's checksum broken, whole records after it: the log is damaged.
        try Self.copyWithLog(source, to: damaged)
        var log = try Data(contentsOf: URL(fileURLWithPath: damaged + ".log"))
        log[64 + 30] ^= 0x40  // past the 64-byte header, inside the first record
        try log.write(to: URL(fileURLWithPath: damaged + ".log"))
        #expect(throws: Realm.Error.self) { _ = try Self.ids(damaged, readOnly: true) }
    }

    @Test("another process's commit is delivered with its writer's change set, read from the log")
    func changesFromTheLog() throws {
        let directory = try TemporaryDirectory("realm-log")
        let path = directory.path("log-changes.realm")
        let modifications = try Thread.run {
            let realm = try Realm(configuration: Self.configuration(path))
            try realm.write { realm.create(Entry.self, value: ["id": 1, "text": "same"]) }
            nonisolated(unsafe) var seen: [[Int]] = []
            let token = realm.objects(Entry.self).observe { change in
                if case .update(_, _, _, let modifications) = change { seen.append(modifications) }
            }
            realm.refresh()
            // Another store of the file, as another process: it writes the value the object
            // has. Its change set says the property was written; comparing the two versions'
            // tables would find nothing changed.
            let other = try BlockStore.open(path: path)
            let key = try #require(other.snapshot.table(named: "Entry")?.allKeys.first)
            try other.write { t in
                try t.set("text", of: ObjectLink(className: "Entry", key: key), to: .string("same"))
            }
            #expect(realm.refresh())
            token.invalidate()
            return seen
        }
        #expect(modifications == [[0]])
    }
}

/// The size of a store's commit log.
enum CommitLogSize {
    static func of(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + ".log"))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
