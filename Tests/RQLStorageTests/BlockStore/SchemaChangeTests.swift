import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Write transactions: schema changes")
struct SchemaChangeTests {
    /// A committed store with two dogs, Ann (owning both, with an address) and Ben.
    static func store() throws -> (BlockStore, ann: ObjectLink, rex: ObjectLink) {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        let rex = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Rex"), "age": .int(3)]))
        let fido = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Fido"), "age": .int(5)]))
        let ann = Fixtures.link(
            "Person",
            try t.insert(
                "Person",
                [
                    "id": .int(1), "name": .string("Ann"), "dogs": .list([.link(rex), .link(fido)]),
                    "address": .map(MixedMap(["street": .string("Main")])),
                ]
            )
        )
        try t.insert("Person", ["id": .int(2), "name": .string("Ben"), "best": .link(rex)])
        _ = try t.commit()
        return (store, ann, rex)
    }

    @Test("addClass and removeClass; removing a class deletes its objects by the usual rules")
    func classes() throws {
        let (store, _, _) = try Self.store()
        let t = store.beginWrite()
        try t.addClass(
            ObjectSchema(
                name: "Cat",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "friend", type: .object("Dog"), isOptional: true),
                ]
            )
        )
        let cat = Fixtures.link("Cat", try t.insert("Cat", ["name": .string("Tom")]))
        try t.set("anything", of: Fixtures.link("Person", RowKey(0)), to: .link(cat))
        #expect(t.reader.table(named: "Cat")?.rowCount == 1)
        try t.removeClass("Cat")
        #expect(t.reader.table(named: "Cat") == nil)
        #expect(t.schema["Cat"] == nil)
        let people = t.reader.table(named: "Person")!
        #expect(people.value(at: 0, property: people.objectSchema.propertyIndex(named: "anything")!) == .null)
        let result = try t.commit()
        #expect(result.changes.schemaChanged)
        #expect(result.snapshot.schema.classes.map(\.name) == ["Person", "Dog", "Address"])
    }

    @Test("addProperty fills existing objects with the default or a given value, and indexes it")
    func addProperty() throws {
        let (store, _, _) = try Self.store()
        let t = store.beginWrite()
        try t.addProperty(Property(name: "weight", type: .double), to: "Dog")
        try t.addProperty(
            Property(name: "nick", type: .string, isIndexed: true),
            to: "Dog",
            defaultValue: .string("pup")
        )
        try t.addProperty(Property(name: "friends", type: .object("Dog"), collection: .list), to: "Dog")
        let dogs = t.reader.table(named: "Dog")!
        let weight = dogs.objectSchema.propertyIndex(named: "weight")!
        let nick = dogs.objectSchema.propertyIndex(named: "nick")!
        #expect(dogs.value(at: 1, property: weight) == .double(0))
        #expect(dogs.value(at: 1, property: nick) == .string("pup"))
        #expect(dogs.indexLookup(property: nick, equalTo: .string("pup")) == [0, 1])
        #expect(dogs.value(at: 0, property: dogs.objectSchema.propertyIndex(named: "friends")!) == .list([]))
        Fixtures.checkViews(dogs)
        #expect(throws: WriteError.self) {
            try t.addProperty(
                Property(name: "home", type: .object("Address"), isOptional: true),
                to: "Dog",
                defaultValue: .int(1)
            )
        }
    }

    @Test("removeProperty drops values, indexes and backlinks, and deletes embedded objects it owned")
    func removeProperty() throws {
        let (store, ann, _) = try Self.store()
        let t = store.beginWrite()
        try t.set("age", of: ann, to: .int(30))
        try t.removeProperty("address", from: "Person")
        #expect(t.reader.table(named: "Address")?.rowCount == 0)
        try t.removeProperty("name", from: "Person")
        try t.removeProperty("best", from: "Person")
        let people = t.reader.table(named: "Person")!
        #expect(people.objectSchema.property(named: "name") == nil)
        let age = people.objectSchema.propertyIndex(named: "age")!
        #expect(people.value(at: 0, property: age) == .int(30))
        #expect(people.indexLookup(property: age, equalTo: .int(30)) == [0])
        let dogs = t.reader.table(named: "Dog")!
        // Rex keeps only Ann's `dogs` link.
        #expect(dogs.backlinkCount(at: 0) == 1)
        Fixtures.checkViews(people)
        let result = try t.commit()
        #expect(result.changes.schemaChanged)
        // "age" was modified before; the removed properties are not reported.
        #expect(result.changes.classes["Person"]?.modified == [ann.key: ["age"]])
    }

    @Test("removing the primary key leaves the class without one")
    func removePrimaryKey() throws {
        let (store, _, _) = try Self.store()
        let t = store.beginWrite()
        try t.removeProperty("id", from: "Person")
        #expect(t.schema["Person"]?.primaryKey == nil)
        #expect(t.reader.table(named: "Person")?.position(ofPrimaryKey: .int(1)) == nil)
        try t.insert("Person", [:])
        try t.insert("Person", [:])
        #expect(t.reader.table(named: "Person")?.rowCount == 4)
    }

    @Test("renameProperty keeps values and backlinks; linkingObjects follow their origin")
    func renameProperty() throws {
        let (store, ann, _) = try Self.store()
        let t = store.beginWrite()
        try t.set("name", of: ann, to: .string("Anna"))
        try t.renameProperty("dogs", to: "pets", in: "Person")
        try t.renameProperty("name", to: "fullName", in: "Person")
        try t.renameProperty("id", to: "key", in: "Person")
        #expect(t.schema["Person"]?.primaryKey == "key")
        #expect(
            t.schema["Dog"]?.property(named: "owners")?.type == .linkingObjects(className: "Person", property: "pets")
        )
        let dogs = t.reader.table(named: "Dog")!
        #expect(dogs.backlinks(at: 0, fromClass: "Person", property: "pets") == [ann.key])
        #expect(dogs.value(at: 0, property: dogs.objectSchema.propertyIndex(named: "owners")!) == .list([.link(ann)]))
        let people = t.reader.table(named: "Person")!
        #expect(
            people.indexLookup(
                property: people.objectSchema.propertyIndex(named: "fullName")!,
                equalTo: .string("Anna")
            ) == [0]
        )
        Fixtures.checkViews(dogs)
        let result = try t.commit()
        #expect(result.changes.classes["Person"]?.modified == [ann.key: ["fullName"]])
        #expect(throws: WriteError.propertyExists(className: "Person", property: "age")) {
            let next = store.beginWrite()
            try next.renameProperty("key", to: "age", in: "Person")
        }
    }

    @Test("addIndex builds an index from current values; removeIndex drops it (a primary key keeps its own)")
    func indexes() throws {
        let (store, _, _) = try Self.store()
        let t = store.beginWrite()
        try t.addIndex(.hash, on: "age", of: "Dog")
        try t.addIndex(.fullText, on: "name", of: "Dog")
        var dogs = t.reader.table(named: "Dog")!
        #expect(dogs.indexLookup(property: 1, equalTo: .int(5)) == [1])
        #expect(
            dogs.indexRange(property: 1, lower: .int(4), lowerInclusive: true, upper: nil, upperInclusive: false) == [1]
        )
        #expect(dogs.fullTextLookup(property: 0, token: "rex", prefix: false) == [0])
        try t.removeIndex(.hash, from: "age", of: "Dog")
        try t.removeIndex(.fullText, from: "name", of: "Dog")
        dogs = t.reader.table(named: "Dog")!
        #expect(dogs.indexLookup(property: 1, equalTo: .int(5)) == nil)
        #expect(dogs.fullTextLookup(property: 0, token: "rex", prefix: false) == nil)
        try t.addIndex(.hash, on: "id", of: "Person")
        try t.removeIndex(.hash, from: "id", of: "Person")
        #expect(t.reader.table(named: "Person")?.position(ofPrimaryKey: .int(2)) == 1)
    }
}

@Suite("Block store: bulk loads")
struct BulkLoadTests {
    @Test("importing a dataset store copies every object, link and backlink, and keeps keys")
    func importDemo() throws {
        let source = try DemoDataset.load()
        let store = try BlockStore(importing: source)
        let snapshot = store.snapshot
        #expect(snapshot.version == 1)
        #expect(Fixtures.dump(snapshot) == Fixtures.dump(source))
        for objectSchema in snapshot.schema.classes {
            let table = try #require(snapshot.table(named: objectSchema.name))
            Fixtures.checkViews(table)
            let original = try #require(source.table(named: objectSchema.name))
            for position in 0..<table.rowCount {
                #expect(table.backlinkCount(at: position) == original.backlinkCount(at: position))
            }
            for (p, property) in objectSchema.properties.enumerated() where property.isIndexed {
                for position in 0..<table.rowCount {
                    let value = table.value(at: position, property: p)
                    #expect(
                        table.indexLookup(property: p, equalTo: value)
                            == original.indexLookup(property: p, equalTo: value)
                    )
                }
            }
        }
    }

    @Test("importing into a store that has objects renumbers the new ones and their links")
    func importTwice() throws {
        let source = try DemoDataset.load()
        let store = BlockStore(schema: source.schema)
        let first = store.beginWrite()
        for objectSchema in source.schema.classes where !objectSchema.isEmbedded && objectSchema.primaryKey == nil {
            try first.insert(objectSchema.name, [:])
            let key = try first.insert(objectSchema.name, [:])
            try first.delete(Fixtures.link(objectSchema.name, key))
        }
        _ = try first.commit()
        let t = store.beginWrite()
        try t.importObjects(from: source)
        let result = try t.commit()
        for objectSchema in source.schema.classes {
            let table = try #require(result.snapshot.table(named: objectSchema.name))
            let original = try #require(source.table(named: objectSchema.name))
            let offset = table.rowCount - original.rowCount
            #expect(result.changes.classes[objectSchema.name]?.inserted.count ?? 0 == original.rowCount)
            for position in 0..<original.rowCount {
                for p in objectSchema.properties.indices where !objectSchema.properties[p].isLink {
                    #expect(
                        table.value(at: position + offset, property: p) == original.value(at: position, property: p)
                    )
                }
            }
            Fixtures.checkViews(table)
        }
        // Importing again would repeat primary keys.
        let again = store.beginWrite()
        #expect(throws: WriteError.self) { try again.importObjects(from: source) }
    }

    @Test("insert(columns:) builds whole blocks from typed columns and validates them")
    func insertColumns() throws {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        let rex = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Rex")]))
        let n = 10_000
        let keys = try t.insert(
            columns: [
                "id": .int((0..<n).map { Int64($0) }),
                "name": .string((0..<n).map { "p\($0)" }),
                "age": .int((0..<n).map { Int64($0 % 90) }, nulls: (0..<n).map { $0 % 9 == 0 }),
                "score": .double((0..<n).map { Double($0) / 2 }),
                "bio": .string((0..<n).map { $0 % 4 == 0 ? nil : "bio \($0)" }),
                "best": .values((0..<n).map { $0 % 2 == 0 ? .link(rex) : .null }),
                "tags": .values((0..<n).map { .list([.string("t\($0 % 3)")]) }),
            ],
            into: "Person"
        )
        #expect(keys == 0..<Int64(n))
        let people = t.reader.table(named: "Person")!
        #expect(people.rowCount == n)
        #expect(people.blockCount == 3)
        #expect(people.position(ofPrimaryKey: .int(9_999)) == 9_999)
        #expect(people.indexLookup(property: 1, equalTo: .string("p1234")) == [1234])
        #expect(people.fullTextLookup(property: 4, token: "4321", prefix: false) == [4321])
        #expect(t.reader.table(named: "Dog")!.backlinkCount(at: 0) == n / 2)
        Fixtures.checkViews(people)
        // Appending after a bulk load goes on in the packed last block.
        try t.insert("Person", ["id": .int(-1)])
        Fixtures.checkViews(t.reader.table(named: "Person")!)
        #expect(throws: WriteError.duplicatePrimaryKey(className: "Person", property: "id", key: nil, value: .int(5))) {
            try t.insert(columns: ["id": .int([100_000, 5])], into: "Person")
        }
        #expect(throws: WriteError.rowCountMismatch(className: "Person", property: "name", expected: 2, found: 1)) {
            try t.insert(columns: ["id": .int([100_000, 100_001]), "name": .string(["x"])], into: "Person")
        }
        #expect(
            throws: WriteError.danglingLink(
                className: "Person",
                property: "best",
                key: nil,
                target: Fixtures.link("Dog", RowKey(9))
            )
        ) {
            try t.insert(
                columns: ["id": .int([100_000]), "best": .values([.link(Fixtures.link("Dog", RowKey(9)))])],
                into: "Person"
            )
        }
        let result = try t.commit()
        #expect(result.changes.classes["Person"]?.inserted.count == n + 1)
    }
}
