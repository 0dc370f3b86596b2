import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Bulk column loading")
struct ColumnInsertTests {
    static let schema: Schema = {
        let json = #"""
            {"schema": {
               "Person": {"primaryKey": "id", "indexed": ["city"],
                          "properties": {"id": "int", "age": "int", "score": "double", "name": "string",
                                         "city": "string", "active": "bool", "nickname": "string?", "pet": "Pet?"}},
               "Pet": {"properties": {"name": "string", "owners": "linkingObjects<Person.pet>"}}}}
            """#
        return (try? DatasetLoader.loadSchema(json: json)) ?? (try! Schema([]))
    }()

    @Test("typed columns build a store with keys, indexes and backlinks; missing columns take defaults")
    func build() throws {
        let store = try BlockSnapshot(
            schema: ColumnInsertTests.schema,
            columns: [
                "Person": [
                    "id": .int([0, 1, 2]),
                    "age": .int([30, 91, 5]),
                    "score": .double([0.25, 0.75, 0.5]),
                    "name": .string(["Mari", "Joelka", "Ana"]),
                    "city": .string(["City1", "City42", "City1"]),
                    "active": .bool([true, false, true]),
                    "nickname": .string(["nick1", nil, nil]),
                    "pet": .values([.link(ObjectLink(className: "Pet", key: RowKey(0))), .null, .null]),
                ],
                "Pet": ["name": .string(["Rex"])],
            ]
        )
        let people = try #require(store.table(named: "Person"))
        #expect(store.version == 1)
        #expect(people.rowCount == 3)
        #expect(people.position(ofPrimaryKey: .int(2)) == 2)
        #expect(people.position(ofPrimaryKey: .double(1)) == 1)
        #expect(people.position(ofPrimaryKey: .int(3)) == nil)
        #expect(people.indexLookup(property: 4, equalTo: .string("City1")) == [0, 2])
        #expect(people.value(at: 1, property: 6) == .null)
        let pets = try #require(store.table(named: "Pet"))
        #expect(pets.backlinks(at: 0, fromClass: "Person", property: "pet") == [RowKey(0)])
        #expect(pets.value(at: 0, property: 1) == .list([.link(ObjectLink(className: "Person", key: RowKey(0)))]))

        let partial = try BlockSnapshot(schema: ColumnInsertTests.schema, columns: ["Person": ["id": .int([7, 8])]])
        #expect(partial.table(named: "Person")?.value(at: 1, property: 3) == .string(""))
        #expect(partial.table(named: "Person")?.position(ofPrimaryKey: .int(8)) == 1)
    }

    static func mismatch(_ property: String) -> WriteError {
        .typeMismatch(
            className: "Person",
            property: property,
            key: nil,
            expected: schema["Person"]?.property(named: property)?.typeSyntax ?? "",
            found: "a different type or a null"
        )
    }

    static let errors: [(String, [String: [String: ColumnValues]], WriteError)] = [
        ("unknown class", ["Cat": [:]], .unknownClass("Cat")),
        (
            "unknown property", ["Person": ["colour": .int([])]],
            .unknownProperty(className: "Person", property: "colour")
        ),
        ("backlink given", ["Pet": ["owners": .values([])]], .computedProperty(className: "Pet", property: "owners")),
        (
            "columns of different lengths", ["Person": ["id": .int([0, 1]), "age": .int([1])]],
            .rowCountMismatch(className: "Person", property: "age", expected: 2, found: 1)
        ),
        ("wrong column type", ["Person": ["id": .int([0]), "name": .int([1])]], mismatch("name")),
        (
            "null in a required string", ["Person": ["id": .int([0, 1]), "name": .string(["a", nil])]], mismatch("name")
        ),
        (
            "null flag in a required int",
            ["Person": ["id": .int([0, 1]), "age": .int([1, 2], nulls: [false, true])]], mismatch("age")
        ),
        ("a value of the wrong kind", ["Person": ["id": .int([0]), "pet": .values([.int(0)])]], mismatch("pet")),
        (
            "duplicate primary key", ["Person": ["id": .int([4, 5, 4])]],
            .duplicatePrimaryKey(className: "Person", property: "id", key: nil, value: .int(4))
        ),
        (
            "dangling link",
            ["Person": ["id": .int([0]), "pet": .values([.link(ObjectLink(className: "Pet", key: RowKey(3)))])]],
            .danglingLink(
                className: "Person",
                property: "pet",
                key: nil,
                target: ObjectLink(className: "Pet", key: RowKey(3))
            )
        ),
    ]

    @Test("bad columns throw a WriteError naming class and property, and change nothing", arguments: errors)
    func badColumns(label: String, columns: [String: [String: ColumnValues]], expected: WriteError) throws {
        let store = BlockStore(schema: ColumnInsertTests.schema)
        let transaction = store.beginWrite()
        #expect(throws: expected, "\(label)") { try transaction.insert(columns: columns) }
        #expect(transaction.reader.table(named: "Person")?.rowCount == 0, "\(label)")
        #expect(transaction.reader.table(named: "Pet")?.rowCount == 0, "\(label)")
        transaction.rollback()
    }

    @Test("links may point at rows of the same call, of any class; sets are sorted and unique")
    func linksAmongNewRows() throws {
        let schema = try Schema([
            ObjectSchema(
                name: "Node",
                properties: [
                    Property(name: "next", type: .object("Node"), isOptional: true),
                    Property(name: "tags", type: .int, collection: .set),
                ]
            )
        ])
        let store = try BlockSnapshot(
            schema: schema,
            columns: [
                "Node": [
                    "next": .values([.link(ObjectLink(className: "Node", key: RowKey(1))), .null]),
                    "tags": .values([.list([.int(3), .int(1), .int(3)]), .list([])]),
                ]
            ]
        )
        let nodes = try #require(store.table(named: "Node"))
        #expect(nodes.value(at: 0, property: 0) == .link(ObjectLink(className: "Node", key: RowKey(1))))
        #expect(nodes.value(at: 0, property: 1) == .list([.int(1), .int(3)]))
        #expect(nodes.backlinkCount(at: 1) == 1)
    }

    @Test("Property.accepts checks kind, nullability, collections and link targets")
    func accepts() throws {
        let tags = try Property(name: "t", typeSyntax: "list<string?>", className: "A")
        #expect(tags.accepts(.list([.string("x"), .null])))
        #expect(!tags.accepts(.list([.int(1)])))
        #expect(!tags.accepts(.string("x")))
        let dogs = try Property(name: "d", typeSyntax: "map<Dog?>", className: "A")
        #expect(dogs.accepts(.map(MixedMap(["a": .link(ObjectLink(className: "Dog", key: RowKey(0))), "b": .null]))))
        #expect(!dogs.accepts(.map(MixedMap(["a": .link(ObjectLink(className: "Cat", key: RowKey(0)))]))))
        #expect(Property(name: "m", type: .mixed).accepts(.list([.map(MixedMap())])))
        #expect(!Property(name: "i", type: .int).accepts(.null))
        #expect(!Property(name: "i", type: .int).accepts(.double(1)))
    }
}

@Suite("Arguments and single objects as JSON")
struct ArgumentAndObjectJSONTests {
    @Test("arguments decode like mixed values; $link resolves against the store, a missing key is a null link")
    func arguments() throws {
        let store = try DemoDataset.load()
        #expect(
            try ArgumentDecoder.decode("[1, 2.5, \"x\", null]", store: store)
                == .list([.int(1), .double(2.5), .string("x"), .null])
        )
        #expect(
            try ArgumentDecoder.decode(#"{"$oid": "11223344556677889900aabb"}"#, store: store)
                == .objectId(try ObjectId(hex: "11223344556677889900aabb"))
        )
        #expect(
            try ArgumentDecoder.decode(
                #"{"$link": {"class": "DogToy", "key": "11223344556677889900aab1"}}"#,
                store: store
            )
                == .link(ObjectLink(className: "DogToy", key: RowKey(1)))
        )
        #expect(
            try ArgumentDecoder.decode(#"{"$link": {"class": "Person", "key": 12346}}"#, store: store)
                == .link(ObjectLink(className: "Person", key: RowKey(1)))
        )
        #expect(try ArgumentDecoder.decode(#"{"$link": {"class": "Person", "key": 1}}"#, store: store) == .null)
        #expect(
            try ArgumentDecoder.decode(#"{"$link": {"class": "Dog", "key": 3}}"#, store: store)
                == .link(ObjectLink(className: "Dog", key: RowKey(3)))
        )
        #expect(
            try ArgumentDecoder.decode(#"{"$geoBox": [[0, 0], [1, 1]]}"#, store: store)
                == .map(MixedMap(["$geoBox": .list([.list([.int(0), .int(0)]), .list([.int(1), .int(1)])])]))
        )
        #expect(throws: ArgumentError.self) {
            try ArgumentDecoder.decode(#"{"$link": {"class": "Cat", "key": 1}}"#, store: store)
        }
        #expect(throws: ArgumentError.self) { try ArgumentDecoder.decode("[1,", store: store) }
    }

    @Test("an object prints in the dataset format with links as keys; keys print as primary key or position")
    func objects() throws {
        let store = try DemoDataset.load()
        let people = try #require(store.table(named: "Person"))
        let ann = try DatasetExporter.object(at: 0, in: people, store: store).serialized()
        #expect(ann.hasPrefix(#"{"id":12345,"name":"Ann","age":31,"dogs":[0,2],"address":{"street":"1 Main St""#))
        #expect(DatasetExporter.key(at: 0, in: people) == .number(JSONNumber(text: "12345")))
        let dogs = try #require(store.table(named: "Dog"))
        #expect(DatasetExporter.key(at: 4, in: dogs) == .number(JSONNumber(text: "4")))
        let toys = try #require(store.table(named: "DogToy"))
        #expect(DatasetExporter.key(at: 0, in: toys) == .string("11223344556677889900aabb"))
    }
}
