import Foundation
import RQLTestSupport
import Testing

@testable import RQL

/// File-backed realms: `fileURL` goes through the one function that opens a store for a path
/// (`StoreRegistry.openStore(atPath:readOnly:)`).
@Suite("File-backed realms")
struct FileRealmTests {
    final class Note: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text = ""
        @Persisted var tags: List<String>
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rql-\(name)-\(UUID().uuidString).realm").path
    }

    @Test("a realm written, closed and reopened in the same process reads its data back")
    func reopenInProcess() throws {
        let url = URL(fileURLWithPath: Self.temporaryPath("reopen"))
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Note.self])
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                realm.add(Note(value: ["id": 1, "text": "first", "tags": ["a", "b"]]))
                realm.add(Note(value: ["id": 2, "text": "second"]))
            }
        }
        // The realm above is gone with its thread; this one opens the store again.
        let summary = try Thread.run {
            let realm = try Realm(configuration: configuration)
            return realm.objects(Note.self).sorted(byKeyPath: "id").map { "\($0.text):\(Array($0.tags))" }
        }
        #expect(summary == ["first:[\"a\", \"b\"]", "second:[]"])
        #expect(try Realm(fileURL: url).object(ofType: Note.self, forPrimaryKey: 2)?.text == "second")
    }

    /// The helper executable (`Tests/RealmFileHelper`, built optimized by the Benchmarks package).
    static var helper: URL {
        get throws { try HelperExecutable.realmFile.url() }
    }

    static func runHelper(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runProcess(try helper, arguments)
    }

    static let expected = "owners=2 dogs=3 Ann@Oslo:Rex/10,Fido/3 Bo@-:Spot/6 rex.tags=big+old rex.owner=Ann"

    @Test("the helper's realm reads back its data in one process")
    func helperInOneProcess() throws {
        let path = Self.temporaryPath("helper")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let both = try Self.runHelper(["both", path])
        #expect(both.status == 0, "\(both.output)")
        #expect(both.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected)
    }

    /// The helper's model, for a realm of this process over the helper's file.
    final class Owner: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
        @Persisted var home: Home?
    }

    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var tags: MutableSet<String>
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<Owner>
    }

    final class Home: EmbeddedObject {
        @Persisted var city = ""
    }

    @Test("refresh() shows what another process committed to the file")
    func refreshSeesOtherProcess() throws {
        let path = Self.temporaryPath("refresh")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            objectTypes: [Owner.self, Dog.self, Home.self]
        )
        let (before, helper, refreshed, after) = try Thread.run {
            let realm = try Realm(configuration: configuration)
            let before = realm.objects(Owner.self).count
            let helper = try Self.runHelper(["write", path])
            let refreshed = realm.refresh()
            let names = realm.objects(Owner.self).sorted(byKeyPath: "id").map(\.name)
            return (before, helper, refreshed, Array(names))
        }
        #expect(before == 0)
        #expect(helper.status == 0, "\(helper.output)")
        #expect(refreshed)
        #expect(after == ["Ann", "Bo"])
    }

    @Test("a realm written by one process is read back by another")
    func reopenInNewProcess() throws {
        let path = Self.temporaryPath("process")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try Self.runHelper(["write", path])
        #expect(written.status == 0, "\(written.output)")
        let read = try Self.runHelper(["read", path])
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected)
    }

    @Test("a realm one process wrote is read and written through a symbolic link by others, logged commits and all")
    func symbolicLinkAcrossProcesses() throws {
        let path = Self.temporaryPath("symlink")
        let link = Self.temporaryPath("symlink-link")
        defer {
            for file in [path, path + ".log", path + ".lock", link] {
                try? FileManager.default.removeItem(atPath: file)
            }
        }
        let written = try Self.runHelper(["write", path])
        #expect(written.status == 0, "\(written.output)")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let read = try Self.runHelper(["read", link])
        #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected, "\(read.output)")
        // This process writes through the link; another reads the store's own path.
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: link),
            objectTypes: [Owner.self, Dog.self, Home.self]
        )
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(Dog.self).count == 3)
            try realm.write { realm.add(Dog(value: ["name": "Max", "age": 1])) }
        }
        #expect(!FileManager.default.fileExists(atPath: link + ".log"))
        let again = try Self.runHelper(["read", path])
        #expect(again.output.contains("owners=2 dogs=4 "), "\(again.output)")
    }

    @Test("a realm read through a hard link by another process is an error naming the missing log, never older data")
    func hardLinkAcrossProcesses() throws {
        let path = Self.temporaryPath("hardlink")
        let link = Self.temporaryPath("hardlink-link")
        defer {
            for file in [path, path + ".log", path + ".lock", link, link + ".lock"] {
                try? FileManager.default.removeItem(atPath: file)
            }
        }
        let written = try Self.runHelper(["write", path])
        #expect(written.status == 0, "\(written.output)")
        try FileManager.default.linkItem(atPath: path, toPath: link)
        let read = try Self.runHelper(["read", link])
        #expect(read.status != 0, "\(read.output)")
        #expect(read.output.contains("'\(link).log' is missing"), "\(read.output)")
        #expect(read.output.contains("hard link"), "\(read.output)")
        #expect(!FileManager.default.fileExists(atPath: link + ".log"))
        let direct = try Self.runHelper(["read", path])
        #expect(direct.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected, "\(direct.output)")
    }

    // MARK: Schema and schema version

    /// `Note` as a later version of the program declares it: `text` now optional, `tags` gone,
    /// `pinned` added.
    final class NoteV2: Object {
        override class func className() -> String { "Note" }
        @Persisted(primaryKey: true) var id = 0
        @Persisted var text: String?
        @Persisted var pinned = false
    }

    @Test("a file opened with a changed schema and no migration says what changed, and stays as it was")
    func changedSchemaInProcess() throws {
        let url = URL(fileURLWithPath: Self.temporaryPath("changed"))
        defer { try? FileManager.default.removeItem(at: url) }
        try Thread.run {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Note.self]))
            try realm.write { realm.add(Note(value: ["id": 1, "text": "kept"])) }
        }
        for schemaVersion: UInt64 in [0] {
            #expect {
                _ = try Thread.run {
                    try Realm(
                        configuration: Realm.Configuration(
                            fileURL: url,
                            schemaVersion: schemaVersion,
                            objectTypes: [NoteV2.self]
                        )
                    )
                }
            } throws: { error in
                guard let error = error as? Realm.Error, error.code == .schemaMismatch else { return false }
                let lines = error.description.split(separator: "\n").map(String.init)
                return lines.first?.hasPrefix("Migration is required due to the following errors") == true
                    && lines.dropFirst().sorted() == [
                        "- Property 'Note.pinned' has been added.",
                        "- Property 'Note.tags' has been removed.",
                        "- Property 'Note.text' has been made optional.",
                    ]
            }
        }
        // The refused opens changed nothing: the old declaration, at version 0, still reads it.
        let text = try Thread.run {
            try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Note.self]))
                .object(ofType: Note.self, forPrimaryKey: 1)?.text
        }
        #expect(text == "kept")
        // A higher version migrates: the text is kept (made optional), pinned starts false.
        let migrated = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [NoteV2.self])
            )
            return realm.object(ofType: NoteV2.self, forPrimaryKey: 1).map { "\($0.text ?? "nil") \($0.pinned)" }
        }
        #expect(migrated == "kept false")
    }

    @Test("the schema version is kept in the file: a lower one is refused, a higher one recorded")
    func schemaVersionInProcess() throws {
        let url = URL(fileURLWithPath: Self.temporaryPath("version"))
        defer { try? FileManager.default.removeItem(at: url) }
        func open(_ version: UInt64) throws -> Int {
            try Thread.run {
                let realm = try Realm(
                    configuration: Realm.Configuration(fileURL: url, schemaVersion: version, objectTypes: [Note.self])
                )
                if realm.isEmpty { try realm.write { realm.add(Note(value: ["id": 1])) } }
                return realm.objects(Note.self).count
            }
        }
        #expect(try open(3) == 1)
        #expect(try open(3) == 1)
        #expect {
            try open(2)
        } throws: { error in
            (error as? Realm.Error)?.code == .schemaMismatch
                && "\(error)".contains("Provided schema version 2 is less than last set version 3")
        }
        #expect(try open(5) == 1)
        #expect(try schemaVersionAtURL(url) == 5)
        #expect(throws: Realm.Error.self) { try open(4) }
        #expect(throws: Realm.Error.self) {
            try schemaVersionAtURL(URL(fileURLWithPath: Self.temporaryPath("missing")))
        }
        // The record is bookkeeping: not a class of the realm, and deleteAll leaves it.
        let (classes, emptyAfterDeleteAll) = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: url, schemaVersion: 5, objectTypes: [Note.self])
            )
            try realm.write { realm.deleteAll() }
            return (realm.schema.objectSchema.map(\.className), realm.isEmpty)
        }
        #expect(classes == ["Note"])
        #expect(emptyAfterDeleteAll)
        #expect(throws: Realm.Error.self) { try open(4) }
    }

    @Test("another process sees the schema version and the schema a process wrote")
    func schemaAcrossProcesses() throws {
        let path = Self.temporaryPath("version-process")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try Self.runHelper(["write", path, "3"])
        #expect(written.status == 0, "\(written.output)")
        #expect(try schemaVersionAtURL(URL(fileURLWithPath: path)) == 3)
        let lower = try Self.runHelper(["read", path, "2"])
        #expect(lower.status == 1)
        #expect(lower.output.contains("Provided schema version 2 is less than last set version 3"), "\(lower.output)")
        let same = try Self.runHelper(["read", path, "3"])
        #expect(same.status == 0, "\(same.output)")
        #expect(same.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected)
        let changed = try Self.runHelper(["read-v2", path, "3"])
        #expect(changed.status == 1)
        #expect(changed.output.contains("Migration is required due to the following errors"), "\(changed.output)")
        #expect(changed.output.contains("- Property 'Dog.age' has been removed."), "\(changed.output)")
        #expect(changed.output.contains("- Property 'Dog.weight' has been added."), "\(changed.output)")
        // The refused open changed nothing: version 3 still opens.
        let again = try Self.runHelper(["read", path, "3"])
        #expect(again.status == 0, "\(again.output)")
        // A process stopped inside its migration block leaves the file as it was.
        let stopped = try Self.runHelper(["migrate-stop", path, "4"])
        #expect(stopped.status != 0)
        #expect(stopped.output.contains("stopped inside the migration block"), "\(stopped.output)")
        #expect(try schemaVersionAtURL(URL(fileURLWithPath: path)) == 3)
        let unchanged = try Self.runHelper(["read", path, "3"])
        #expect(unchanged.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.expected)
        // A higher version migrates with the helper's block; this process reads what it wrote.
        let migrated = try Self.runHelper(["read-v2", path, "4"])
        #expect(migrated.status == 0, "\(migrated.output)")
        #expect(migrated.output.contains("dogs=3 weights=6.0,12.0,20.0"), "\(migrated.output)")
        let (names, weights) = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: URL(fileURLWithPath: path),
                    schemaVersion: 4,
                    objectTypes: [MigratedDog.self]
                )
            )
            let dogs = realm.objects(MigratedDog.self).sorted(byKeyPath: "weight")
            return (Set(dogs.map(\.name)), dogs.map(\.weight))
        }
        #expect(names == ["renamed"])
        #expect(weights == [6, 12, 20])
        let older = try Self.runHelper(["read", path, "3"])
        #expect(older.status == 1)
    }

    /// The helper's `Dog` after its migration.
    final class MigratedDog: Object {
        override class func className() -> String { "Dog" }
        @Persisted var name = ""
        @Persisted var weight = 0.0
        @Persisted var tags: MutableSet<String>
    }

    @Test("filter stops the program on a bad query with the rendered diagnostic; query throws it")
    func filterStopsQueryThrows() throws {
        let path = Self.temporaryPath("bad-filter")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stopped = try Self.runHelper(["bad-filter", path])
        #expect(stopped.status != 0)
        #expect(!stopped.output.contains("not stopped"), "\(stopped.output)")
        #expect(stopped.output.contains("Invalid query"), "\(stopped.output)")
        #expect(stopped.output.contains("agee > 2") && stopped.output.contains("^"), "\(stopped.output)")
        // The checked twin throws the same diagnostic instead.
        let realm = try Realm(
            configuration: Realm.Configuration(inMemoryIdentifier: UUID().uuidString, objectTypes: [Note.self])
        )
        #expect {
            _ = try realm.objects(Note.self).query("txet == 'a'")
        } throws: { error in
            guard let error = error as? Realm.QueryError else { return false }
            return error.description.contains("txet == 'a'") && error.description.contains("^")
        }
    }

    @Test("refresh() reads what another process committed; a realm opened later sees it too")
    func refreshSeesAnotherProcess() throws {
        let path = Self.temporaryPath("refresh")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try Self.runHelper(["write", path])
        #expect(written.status == 0, "\(written.output)")
        try Thread.run {
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            let dogs = realm.objects(Dog.self)
            #expect(dogs.count == 3)
            let added = try Self.runHelper(["add-dog", path])
            #expect(added.status == 0, "\(added.output)")
            #expect(dogs.count == 3)  // not refreshed yet: the realm reads its version
            #expect(realm.refresh())
            #expect(dogs.count == 4)
            #expect(dogs.filter("name == 'Max'").count == 1)
            #expect(!realm.refresh())
        }
        let more = try Self.runHelper(["add-dog", path])
        #expect(more.status == 0, "\(more.output)")
        let count = try Thread.run { try Realm(fileURL: URL(fileURLWithPath: path)).objects(Dog.self).count }
        #expect(count == 5)
    }
}
