import Foundation
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

    /// The helper executable built next to this test binary.
    static var helper: URL {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("realm-file-helper")
    }

    static func runHelper(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = helper
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
}
