import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// A one-class dataset `T` with the given properties and objects.
func dataset(_ properties: String, _ objects: String, extraClasses: String = "", primaryKey: String? = nil) -> String {
    let key = primaryKey.map { #""primaryKey": "\#($0)", "# } ?? ""
    return
        #"{"schema": {"T": {\#(key)"properties": {\#(properties)}}\#(extraClasses)}, "objects": {"T": [\#(objects)]}}"#
}

/// The value of property `name` of the first `T`.
func firstValue(_ store: BlockSnapshot, _ name: String, className: String = "T", row: Int = 0) -> Value? {
    guard let table = store.table(named: className), let column = table.objectSchema.propertyIndex(named: name) else {
        return nil
    }
    return table.value(at: row, property: column)
}

@Suite("Dataset loading: values")
struct DatasetValueLoadingTests {
    @Test(
        "typed properties accept their plain and tagged forms",
        arguments: [
            (#""int""#, "42", Value.int(42)),
            (#""int""#, "-9223372036854775808", .int(Int64.min)),
            (#""bool""#, "true", .bool(true)),
            (#""double""#, "1", .double(1)),
            (#""double""#, "2.5e-1", .double(0.25)),
            (#""double""#, #""-Infinity""#, .double(-.infinity)),
            (#""double""#, #"{"$double": 1.5}"#, .double(1.5)),
            (#""float""#, "2.33", .float(2.33)),
            (#""float""#, #"{"$float": "Infinity"}"#, .float(.infinity)),
            (#""string""#, #""héllo""#, .string("héllo")),
            (#""data""#, #""aGVsbG8=""#, .data(Array("hello".utf8))),
            (#""data""#, #"{"$binary": "AAE="}"#, .data([0, 1])),
            (#""decimal128""#, #""19.99""#, .decimal(try! Decimal128("19.99"))),
            (#""decimal128""#, #"{"$decimal": "-1E+3"}"#, .decimal(try! Decimal128("-1000"))),
            (#""objectId""#, #""11223344556677889900aabb""#, .objectId(try! ObjectId(hex: "11223344556677889900aabb"))),
            (
                #""objectId""#, #"{"$oid": "11223344556677889900aabb"}"#,
                .objectId(try! ObjectId(hex: "11223344556677889900aabb"))
            ),
            (
                #""uuid""#, #""3b241101-e2bb-4255-8caf-4136c566a962""#,
                .uuid(UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962")!)
            ),
            (
                #""date""#, #""2023-05-01T12:30:00.123456789Z""#,
                .date(Timestamp(seconds: 1_682_944_200, nanoseconds: 123_456_789)!)
            ),
            (#""date""#, "1682944200", .date(Timestamp(seconds: 1_682_944_200, nanoseconds: 0)!)),
            (#""date""#, "-1.5", .date(Timestamp(seconds: -1, nanoseconds: -500_000_000)!)),
            (#""date""#, #"{"$date": [-5, -7]}"#, .date(Timestamp(seconds: -5, nanoseconds: -7)!)),
            (#""date""#, #"{"$date": "1970-01-01T00:00:01Z"}"#, .date(Timestamp(seconds: 1, nanoseconds: 0)!)),
            (#""int?""#, "null", .null),
            (#""list<int?>""#, "[1, null, 3]", .list([.int(1), .null, .int(3)])),
            (#""set<int>""#, "[3, 1, 3, 2]", .list([.int(1), .int(2), .int(3)])),
            (#""map<string>""#, #"{"b": "x", "a": "y"}"#, .map(MixedMap(["a": .string("y"), "b": .string("x")]))),
        ]
    )
    func typedValues(type: String, json: String, expected: Value) throws {
        let store = try DatasetLoader.load(json: dataset(#""p": \#(type)"#, #"{"p": \#(json)}"#))
        #expect(firstValue(store, "p") == expected)
    }

    @Test(
        "mixed values: untagged JSON types, tagged forms, nested lists and maps",
        arguments: [
            ("null", Value.null),
            ("true", .bool(true)),
            ("1", .int(1)),
            ("1.0", .double(1)),
            ("1e2", .double(100)),
            (#""1""#, .string("1")),
            (#"{"$double": "NaN"}"#, .double(.nan)),
            (#"{"$float": 0.5}"#, .float(0.5)),
            (#"{"$decimal": "0.1"}"#, .decimal(try! Decimal128("0.1"))),
            (#"{"$date": [1, 2]}"#, .date(Timestamp(seconds: 1, nanoseconds: 2)!)),
            (#"{"$oid": "000000000000000000000001"}"#, .objectId(try! ObjectId(hex: "000000000000000000000001"))),
            (
                #"{"$uuid": "00000000-0000-0000-0000-000000000001"}"#,
                .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
            ),
            (#"{"$binary": "AQ=="}"#, .data([1])),
            (
                #"[1, "a", [true], {"k": null}]"#,
                .list([.int(1), .string("a"), .list([.bool(true)]), .map(MixedMap(["k": .null]))])
            ),
            (
                #"{"z": 1, "a": {"$oid": "000000000000000000000002"}}"#,
                .map(MixedMap(["z": .int(1), "a": .objectId(try! ObjectId(hex: "000000000000000000000002"))]))
            ),
            (#"{"$date": 1, "other": 2}"#, .map(MixedMap(["$date": .int(1), "other": .int(2)]))),
        ]
    )
    func mixedValues(json: String, expected: Value) throws {
        let store = try DatasetLoader.load(json: dataset(#""m": "mixed""#, #"{"m": \#(json)}"#))
        #expect(firstValue(store, "m") == expected)
    }

    @Test("missing properties take their defaults")
    func defaults() throws {
        let store = try DatasetLoader.load(
            json: dataset(
                #""i": "int", "b": "bool", "s": "string", "d": "data", "t": "date", "o": "int?", "l": "list<int>", "#
                    + #""m": "map<int>", "x": "mixed", "k": "decimal128""#,
                "{}"
            )
        )
        #expect(firstValue(store, "i") == .int(0))
        #expect(firstValue(store, "b") == .bool(false))
        #expect(firstValue(store, "s") == .string(""))
        #expect(firstValue(store, "d") == .data([]))
        #expect(firstValue(store, "t") == .date(.epoch))
        #expect(firstValue(store, "o") == .null)
        #expect(firstValue(store, "l") == .list([]))
        #expect(firstValue(store, "m") == .map(MixedMap()))
        #expect(firstValue(store, "x") == .null)
        #expect(firstValue(store, "k") == .decimal(.zero))
    }

    @Test("links by primary key, by position, by $link, to embedded objects, and in a mixed value")
    func links() throws {
        let json = #"""
            {"schema": {
               "Owner": {"properties": {"pet": "Pet?", "pets": "list<Pet>", "byName": "map<Pet?>", "home": "Home?",
                                        "homes": "list<Home>", "any": "mixed", "tag": "Tag?"}},
               "Pet": {"primaryKey": "name", "properties": {"name": "string", "owners": "linkingObjects<Owner.pets>"}},
               "Tag": {"properties": {"label": "string"}},
               "Home": {"embedded": true, "properties": {"city": "string?", "geo": "Geo?"}},
               "Geo": {"embedded": true, "properties": {"lat": "double"}}},
             "objects": {
               "Owner": [{"pet": "Rex", "pets": ["Rex", "Fido", "Rex"], "byName": {"a": "Fido", "b": null},
                          "home": {"city": "Oslo", "geo": {"lat": 59.9}}, "homes": [{"city": "A"}, {"city": "B"}],
                          "any": {"$link": {"class": "Pet", "key": "Fido"}},
                          "tag": {"$link": {"class": "Tag", "key": 1}}}],
               "Pet": [{"name": "Fido"}, {"name": "Rex"}],
               "Tag": [{"label": "zero"}, {"label": "one"}]}}
            """#
        let store = try DatasetLoader.load(json: json)
        let rex = Value.link(ObjectLink(className: "Pet", key: RowKey(1)))
        let fido = Value.link(ObjectLink(className: "Pet", key: RowKey(0)))
        #expect(firstValue(store, "pet", className: "Owner") == rex)
        #expect(firstValue(store, "pets", className: "Owner") == .list([rex, fido, rex]))
        #expect(firstValue(store, "byName", className: "Owner") == .map(MixedMap(["a": fido, "b": .null])))
        #expect(firstValue(store, "any", className: "Owner") == fido)
        #expect(firstValue(store, "tag", className: "Owner") == .link(ObjectLink(className: "Tag", key: RowKey(1))))
        #expect(
            firstValue(store, "owners", className: "Pet", row: 1)
                == .list([
                    .link(ObjectLink(className: "Owner", key: RowKey(0))),
                    .link(ObjectLink(className: "Owner", key: RowKey(0))),
                ])
        )
        #expect(store.table(named: "Pet")?.backlinkCount(at: 1) == 3)
        #expect(store.table(named: "Pet")?.backlinkCount(at: 0) == 3)
        #expect(store.table(named: "Home")?.rowCount == 3)
        guard case .link(let home) = firstValue(store, "home", className: "Owner"),
            let (homes, position) = store.resolve(home)
        else {
            Issue.record("no embedded home")
            return
        }
        #expect(homes.value(at: position, property: 0) == .string("Oslo"))
        guard case .link(let geo) = homes.value(at: position, property: 1), let (geos, geoPosition) = store.resolve(geo)
        else {
            Issue.record("no nested embedded geo")
            return
        }
        #expect(geos.value(at: geoPosition, property: 0) == .double(59.9))
    }

    @Test("a schema-only document loads empty tables")
    func schemaOnly() throws {
        let store = try DatasetLoader.load(json: #"{"schema": {"A": {"properties": {"x": "int"}}}}"#)
        #expect(store.table(named: "A")?.rowCount == 0)
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"A": {"properties": {"x": "int"}}}, "objects": {"A": [{}]}}"#
        )
        #expect(schema["A"]?.properties.map(\.name) == ["x"])
    }
}
