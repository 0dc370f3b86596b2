import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Column store commits")
struct ColumnStoreWritingTests {
    static let json = #"""
        {"schema": {
           "Owner": {"primaryKey": "id",
                     "properties": {"id": "int", "pets": "list<Pet>", "best": "Pet?", "home": "Home?",
                                                          "byName": "map<Pet?>", "any": "mixed"}},
           "Pet": {"properties": {"name": "string", "owners": "linkingObjects<Owner.pets>"}},
           "Home": {"embedded": true, "properties": {"city": "string"}}},
         "objects": {
           "Pet": [{"name": "Rex"}, {"name": "Fido"}, {"name": "Kit"}],
           "Owner": [{"id": 1, "pets": [0, 1, 0], "best": 0, "home": {"city": "Oslo"}, "byName": {"r": 0, "f": 1},
                      "any": [{"$link": {"class": "Pet", "key": 0}}, 5]},
                     {"id": 2, "pets": [2], "home": {"city": "Rome"}}]}}
        """#

    @Test("inserting objects commits a new version; old snapshots are unchanged")
    func insert() throws {
        let store = try DatasetLoader.load(json: ColumnStoreWritingTests.json)
        let next = try store.inserting(
            json: #"{"Pet": [{"name": "Zed"}], "Owner": [{"id": 3, "pets": [3, 1], "best": 2}]}"#
        )
        #expect(next.version == store.version + 1)
        #expect(store.table(named: "Pet")?.rowCount == 3)
        #expect(next.table(named: "Pet")?.rowCount == 4)
        let owners = try #require(next.table(named: "Owner"))
        #expect(owners.position(ofPrimaryKey: .int(3)) == 2)
        #expect(
            firstValue(next, "pets", className: "Owner", row: 2)
                == .list([
                    .link(ObjectLink(className: "Pet", key: RowKey(3))),
                    .link(ObjectLink(className: "Pet", key: RowKey(1))),
                ])
        )
        // Fido (Pet 1) is now in two owners' lists.
        #expect(
            next.table(named: "Pet")?.backlinks(at: 1, fromClass: "Owner", property: "pets") == [RowKey(0), RowKey(2)]
        )
    }

    @Test("an insert that repeats an existing primary key commits nothing")
    func insertDuplicateKey() throws {
        let store = try DatasetLoader.load(json: ColumnStoreWritingTests.json)
        #expect(throws: DatasetError.duplicatePrimaryKey(className: "Owner", position: 0, property: "id", key: "2")) {
            try store.inserting(json: #"{"Owner": [{"id": 2}]}"#)
        }
        #expect(
            throws: DatasetError.danglingLink(
                className: "Owner",
                position: 0,
                property: "best",
                target: "Pet",
                key: "9"
            )
        ) {
            try store.inserting(json: #"{"Owner": [{"id": 7, "best": 9}]}"#)
        }
    }

    @Test(
        "deleting keeps row keys, nulls to-one links and map values, drops list elements, cascades to embedded objects"
    )
    func delete() throws {
        let store = try DatasetLoader.load(json: ColumnStoreWritingTests.json)
        let next = try store.deleting([RowKey(0)], from: "Pet")
        #expect(next.version == store.version + 1)
        let pets = try #require(next.table(named: "Pet"))
        #expect(pets.rowCount == 2)
        #expect(pets.position(of: RowKey(0)) == nil)
        #expect(pets.position(of: RowKey(2)) == 1)
        #expect(pets.rowKey(at: 0) == RowKey(1))
        let fido = Value.link(ObjectLink(className: "Pet", key: RowKey(1)))
        #expect(firstValue(next, "pets", className: "Owner") == .list([fido]))
        #expect(firstValue(next, "best", className: "Owner") == .null)
        #expect(firstValue(next, "byName", className: "Owner") == .map(MixedMap(["f": fido, "r": .null])))
        #expect(firstValue(next, "any", className: "Owner") == .list([.null, .int(5)]))

        let fewer = try next.deleting([RowKey(1)], from: "Owner")
        #expect(fewer.table(named: "Owner")?.rowCount == 1)
        #expect(fewer.table(named: "Home")?.rowCount == 1)
        #expect(fewer.version == store.version + 2)
    }

    @Test("deleting refuses unknown classes, embedded classes and unknown keys")
    func deleteErrors() throws {
        let store = try DatasetLoader.load(json: ColumnStoreWritingTests.json)
        #expect(throws: StoreError.unknownClass("Cat")) { try store.deleting([RowKey(0)], from: "Cat") }
        #expect(throws: StoreError.embeddedClass("Home")) { try store.deleting([RowKey(0)], from: "Home") }
        #expect(throws: StoreError.unknownObject(className: "Pet", key: RowKey(7))) {
            try store.deleting([RowKey(7)], from: "Pet")
        }
    }
}
