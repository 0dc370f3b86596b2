import Foundation
import RQLCore
import RQLDatasets
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLTools

/// `rqlc import SOURCE.rql STORE`: another store file read in place, block by block, into a new
/// store or into one that has objects; a failed import leaves the destination as it was.
@Suite("rqlc import: from a store file")
struct StoreImportTests {
    typealias Directory = TemporaryDirectory

    /// `text` written to the file `name` in `directory`; its path.
    static func jsonFile(_ text: String, _ name: String, in directory: Directory) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Persons with every kind of property (scalars of each type, nulls, a primary key, links,
    /// lists, sets, maps, embedded objects, mixed values, backlinks) over more than one block,
    /// Dogs they link to by position (no primary key: their keys change in a merge).
    static func dataset(persons: Int, dogs: Int, firstID: Int = 0) -> String {
        var objects: [String] = []
        for i in 0..<persons {
            let id = firstID + i
            let null = i % 5 == 0
            func optional(_ text: String) -> String { null ? "null" : text }
            let hex = String(format: "%024x", i + 1)
            let uuid = String(format: "00000000-0000-4000-8000-%012x", i)
            let extra: String
            switch i % 6 {
            case 0: extra = "null"
            case 1: extra = "\(i)"
            case 2: extra = "\"text \(i)\""
            case 3: extra = #"{"$oid": "\#(hex)"}"#
            case 4: extra = #"[1, "two", {"three": 3.5}]"#
            default: extra = #"{"$link": {"class": "Dog", "key": \#(i % dogs)}}"#
            }
            objects.append(
                """
                {"id": \(id), "name": "person \(id)", "nick": \(optional("\"nick \(i % 97)\"")), \
                "age": \(optional("\(i % 90)")), "score": \(Double(i) / 8), "ratio": \(optional("\(Float(i % 7) / 4)")), \
                "active": \(optional(i % 2 == 0 ? "true" : "false")), "born": \(optional("\(1_600_000_000 + i)")), \
                "blob": \(optional("\"AAEC\(i % 10)w==\"")), "oid": \(optional("\"\(hex)\"")), \
                "uid": \(optional("\"\(uuid)\"")), "amount": \(optional("\"\(i).25\"")), \
                "best": \(null ? "null" : "\(i % dogs)"), "dogs": [\(i % dogs), \((i + 1) % dogs)], \
                "tags": ["t\(i % 3)", "t\(i % 5)"], "nums": [\(i), null, \(-i)], \
                "scores": {"a": \(Double(i % 11)), "b": null}, "pets": {"first": \(i % dogs), "none": null}, \
                "friends": [\(firstID + (i + 1) % persons)], \
                "address": \(null ? "null" : #"{"street": "\#(i) Main St", "city": "City\#(i % 40)"}"#), \
                "homes": [{"street": null, "city": "Home\(i % 3)"}], "extra": \(extra)}
                """
            )
        }
        let dogObjects = (0..<dogs).map { #"{"name": "dog \#($0)", "age": \#($0 % 15)}"# }
        return """
            {"schema": {
              "Person": {"primaryKey": "id", "indexed": ["name"], "properties": {
                "id": "int", "name": "string", "nick": "string?", "age": "int?", "score": "double",
                "ratio": "float?", "active": "bool?", "born": "date?", "blob": "data?", "oid": "objectId?",
                "uid": "uuid?", "amount": "decimal128?", "best": "Dog?", "dogs": "list<Dog>",
                "tags": "set<string>", "nums": "list<int?>", "scores": "map<double?>", "pets": "map<Dog?>",
                "friends": "set<Person>", "address": "Address?", "homes": "list<Address>", "extra": "mixed"}},
              "Dog": {"properties": {"name": "string", "age": "int", "owners": "linkingObjects<Person.dogs>"}},
              "Address": {"embedded": true, "properties": {"street": "string?", "city": "string"}}},
             "objects": {"Dog": [\(dogObjects.joined(separator: ",\n"))],
                         "Person": [\(objects.joined(separator: ",\n"))]}}
            """
    }

    /// The bytes of a store file and its commit log: what "left as it was" means.
    static func files(_ path: String) throws -> [Data] {
        try [path, path + ".log"].map { file in
            FileManager.default.fileExists(atPath: file) ? try Data(contentsOf: URL(fileURLWithPath: file)) : Data()
        }
    }

    /// The number of objects an import printed ("STORE: version V, N objects"), or -1.
    static func objects(_ result: CommandResult) -> Int {
        #expect(result.exitCode == 0, "\(result.standardError)")
        guard let words = result.standardOutput.split(separator: " ").dropLast().last else { return -1 }
        return Int(words) ?? -1
    }

    static func count(_ store: String, _ className: String, _ query: String) -> String {
        let result = RQLCommand.run(["run", "--data", store, "--class", className, "--count", query])
        #expect(result.exitCode == 0, "\(query): \(result.standardError)")
        return result.standardOutput
    }

    /// Queries over every kind of property, links and backlinks included, whose answers do not
    /// depend on the keys objects got.
    static let probes: [(String, String)] = [
        ("Person", "nick == nil"), ("Person", "age > 40"), ("Person", "ratio == 0.5"), ("Person", "active == true"),
        ("Person", "born != nil"),
        ("Person", "blob == nil"), ("Person", "oid != nil"), ("Person", "amount > 100"),
        ("Person", "best.name == 'dog 7'"), ("Person", "ANY dogs.age == 3"), ("Person", "'t1' IN tags"),
        ("Person", "ANY nums == -12"), ("Person", "scores['a'] == 4"), ("Person", "pets['first'].name == 'dog 2'"),
        ("Person", "ANY friends.id == 10"), ("Person", "address.city == 'City3'"),
        ("Person", "ANY homes.city == 'Home1'"), ("Person", "extra == 'text 8'"),
        ("Dog", "owners.@count > 3"), ("Dog", "ANY owners.age == 9"),
    ]

    @Test("a store imported into a new store keeps every property, the primary keys and the key order")
    func roundTrip() throws {
        let directory = try Directory()
        let json = try Self.jsonFile(Self.dataset(persons: 4_500, dogs: 4_200), "people.json", in: directory)
        let source = directory.path("source.rql")
        #expect(RQLCommand.run(["import", json, source]).exitCode == 0)
        let copy = directory.path("copy.rql")
        let imported = RQLCommand.run(["import", source, copy])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(Self.objects(imported) == Self.objects(RQLCommand.run(["import", json, directory.path("again.rql")])))
        let exported = RQLCommand.run(["export", copy])
        #expect(exported.exitCode == 0)
        #expect(exported.standardOutput == RQLCommand.run(["export", source]).standardOutput)
        #expect(exported.standardOutput == RQLCommand.run(["export", json]).standardOutput)
        #expect(RQLCommand.run(["verify", copy]).standardOutput == "ok: version 1\n")
        // The primary-key index and the name index answer in the copy.
        let byKey = RQLCommand.run(["run", "--data", copy, "--class", "Person", "id == 4321"])
        #expect(byKey.standardOutput.hasPrefix(#"{"id":4321,"name":"person 4321""#), "\(byKey.standardOutput)")
        #expect(Self.count(copy, "Person", "name == 'person 4499'") == "1\n")
        for (className, query) in Self.probes {
            #expect(Self.count(copy, className, query) == Self.count(source, className, query), "\(query)")
        }
    }

    @Test("a store imported into one with objects adds its objects; links follow the renumbered keys")
    func merge() throws {
        let directory = try Directory()
        let json = try Self.jsonFile(Self.dataset(persons: 4_300, dogs: 4_200), "people.json", in: directory)
        let source = directory.path("source.rql")
        let sourceObjects = Self.objects(RQLCommand.run(["import", json, source]))
        // The destination's Dogs take the first keys: every Dog of the source gets a new one.
        let existing = try Self.jsonFile(
            Self.dataset(persons: 10, dogs: 7, firstID: 100_000),
            "existing.json",
            in: directory
        )
        let store = directory.path("store.rql")
        let existingObjects = Self.objects(RQLCommand.run(["import", existing, store]))
        let existingStore = directory.path("existing.rql")
        #expect(RQLCommand.run(["import", existing, existingStore]).exitCode == 0)
        let merged = RQLCommand.run(["import", source, store])
        #expect(merged.exitCode == 0, "\(merged.standardError)")
        #expect(merged.standardOutput.contains("version 2, "), "\(merged.standardOutput)")
        #expect(Self.objects(merged) == sourceObjects + existingObjects)
        #expect(RQLCommand.run(["verify", store]).standardOutput == "ok: version 2\n")
        #expect(Self.count(store, "Person", "id < 100000") == "4300\n")
        #expect(Self.count(store, "Dog", "TRUEPREDICATE") == "4207\n")
        for (className, query) in Self.probes {
            let expected = Int(Self.count(source, className, query).dropLast()) ?? -1
            let already = Int(Self.count(existingStore, className, query).dropLast()) ?? -1
            #expect(Self.count(store, className, query) == "\(expected + already)\n", "\(query)")
        }
        // A link of a source object reaches the same object in the destination.
        #expect(Self.count(store, "Person", "id == 4199 AND best.name == 'dog 4199' AND friends.id == 4200") == "1\n")
    }

    @Test("a failed import from a store leaves the destination as it was, byte for byte")
    func failureLeavesDestination() throws {
        let directory = try Directory()
        let json = try Self.jsonFile(Self.dataset(persons: 4_200, dogs: 10), "people.json", in: directory)
        let source = directory.path("source.rql")
        #expect(RQLCommand.run(["import", json, source]).exitCode == 0)
        let store = directory.path("store.rql")
        #expect(RQLCommand.run(["import", source, store]).exitCode == 0)
        let before = try Self.files(store)
        // Every primary key of the source is in the destination already.
        let duplicate = RQLCommand.run(["import", source, store])
        #expect(duplicate.exitCode == 1)
        #expect(duplicate.standardError.contains("primary key"), "\(duplicate.standardError)")
        #expect(try Self.files(store) == before)
        // Another class of the same name with other properties: refused before anything is read.
        let other = directory.path("other.rql")
        let otherJSON = try Self.jsonFile(
            #"{"schema": {"Person": {"properties": {"id": "string"}}}, "objects": {"Person": [{"id": "x"}]}}"#,
            "other.json",
            in: directory
        )
        #expect(RQLCommand.run(["import", otherJSON, other]).exitCode == 0)
        #expect(RQLCommand.run(["import", other, store]).exitCode == 1)
        #expect(try Self.files(store) == before)
        // A destination whose header is damaged is refused, and stays as it is.
        let freshJSON = try Self.jsonFile(
            Self.dataset(persons: 10, dogs: 3, firstID: 200_000),
            "fresh.json",
            in: directory
        )
        let fresh = directory.path("fresh.rql")
        #expect(RQLCommand.run(["import", freshJSON, fresh]).exitCode == 0)
        var bytes = before[0]
        bytes[128 + 3] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: store))
        let damaged = RQLCommand.run(["import", fresh, store])
        #expect(damaged.exitCode != 0)
        #expect(try Self.files(store) == [bytes, before[1]])
    }
}
