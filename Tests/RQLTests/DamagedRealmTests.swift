import Foundation
import RQLCore
import Testing

@testable import RQL
@testable import RQLStorage

/// A realm file with a damaged block: the block reads as empty values when a query first meets
/// it (nothing traps), and the next throwing call (`write`, `commitWrite`) throws the damage,
/// naming the file and the block, instead of writing those empty values back as data.
@Suite("File-backed realms: a damaged block")
struct DamagedRealmTests {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
    }

    final class Counter: Object {
        @Persisted var value = 0
    }

    /// A realm file of 20 Notes and a Counter whose block's row keys no longer ascend (checked on first use).
    static func damagedRealm() throws -> Realm.Configuration {
        // This process keeps the store of a path it opened: the damage goes into a copy.
        let written = Realm.Configuration(
            fileURL: URL(fileURLWithPath: FileRealmTests.temporaryPath("written")),
            objectTypes: [Note.self, Counter.self]
        )
        try Thread.run {
            let realm = try Realm(configuration: written)
            try realm.write {
                for id in 0..<20 { realm.add(Note(value: ["id": id, "text": "note \(id)"])) }
            }
            try realm.write { realm.add(Counter(value: ["value": 1])) }
        }
        // Closing writes the commits of the log as a checkpoint, whose pages are synced before
        // its slot: the slot's checksum covers its root, not the Notes' block (open would
        // otherwise fall back to the version before).
        try StoreRegistry.close(path: try #require(written.fileURL).standardizedFileURL.path)
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("damaged"))
        try FileManager.default.copyItem(at: try #require(written.fileURL), to: url)
        // With its log: the checkpoint names it (a file copied alone does not open).
        try FileManager.default.copyItem(
            atPath: try #require(written.fileURL).path + ".log",
            toPath: url.path + ".log"
        )
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Note.self, Counter.self])
        let snapshot = try BlockStore.open(path: url.path, readOnly: true).snapshot
        let table = try #require(snapshot.schema.classIndex(named: "Note"))
        let place = try #require(snapshot.tables[table].blocks[0].place)
        let handle = try FileHandle(forUpdating: url)
        try handle.seek(toOffset: place.offset + 8)
        handle.write(Data(repeating: 0, count: 8))
        try handle.close()
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: url.path) }
        return configuration
    }

    static func namesDamage(_ error: any Error, _ configuration: Realm.Configuration) -> Bool {
        let text = "\(error)"
        return text.contains(configuration.fileURL?.path ?? "?") && text.contains("block 0 of 'Note'")
    }

    @Test("write throws the damage a query met; the file keeps its data")
    func writeThrows() throws {
        let configuration = try Self.damagedRealm()
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            // The query reads the damaged block: its rows read as empty values.
            let texts = realm.objects(Note.self).map(\.text)
            #expect(texts.count == 20)
            do {
                try realm.write { realm.add(Note(value: ["id": 100, "text": "new"])) }
                Issue.record("a write over a damaged block succeeded")
            } catch {
                #expect(Self.namesDamage(error, configuration), "\(error)")
            }
            #expect(!realm.isInWriteTransaction)
            #expect(realm.object(ofType: Note.self, forPrimaryKey: 100) == nil)
        }
    }

    @Test("commitWrite throws the damage met inside the transaction")
    func commitWriteThrows() throws {
        let configuration = try Self.damagedRealm()
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            realm.beginWrite()
            for note in realm.objects(Note.self) { note.text += "!" }
            do {
                try realm.commitWrite()
                Issue.record("a commit over a damaged block succeeded")
            } catch {
                #expect(Self.namesDamage(error, configuration), "\(error)")
            }
        }
    }

    @Test("a sound realm file writes after a full scan")
    func soundFileWrites() throws {
        let url = URL(fileURLWithPath: FileRealmTests.temporaryPath("sound"))
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Note.self, Counter.self])
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                for id in 0..<20 { realm.add(Note(value: ["id": id, "text": "note \(id)"])) }
            }
        }
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(Note.self).filter { $0.text.hasPrefix("note") }.count == 20)
            try realm.write { realm.add(Note(value: ["id": 100, "text": "new"])) }
            #expect(realm.object(ofType: Note.self, forPrimaryKey: 100)?.text == "new")
        }
    }
}
