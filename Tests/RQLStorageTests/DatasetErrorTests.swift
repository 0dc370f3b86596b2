import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

private let petSchema = #"""
    "Pet": {"primaryKey": "name", "properties": {"name": "string", "age": "int", "friend": "Pet?", "toys": "list<Toy>",
            "home": "Home?", "fans": "linkingObjects<Pet.friend>", "born": "date?", "m": "mixed"}},
    "Toy": {"properties": {"label": "string"}},
    "Home": {"embedded": true, "properties": {"city": "string"}}
    """#

private func petDataset(_ pets: String, toys: String = #"{"label": "ball"}"#) -> String {
    #"{"schema": {\#(petSchema)}, "objects": {"Toy": [\#(toys)], "Pet": [{"name": "Rex"}, \#(pets)]}}"#
}

@Suite("Dataset errors")
struct DatasetErrorTests {
    static let cases: [(String, String, DatasetError)] = [
        (
            "wrong type for an int", petDataset(#"{"name": "Bo", "age": "three"}"#),
            .wrongType(className: "Pet", position: 1, property: "age", expected: "an integer", found: "a string")
        ),
        (
            "a double for an int", petDataset(#"{"name": "Bo", "age": 1.5}"#),
            .wrongType(className: "Pet", position: 1, property: "age", expected: "an integer", found: "a number")
        ),
        (
            "null for a required property", petDataset(#"{"name": "Bo", "age": null}"#),
            .wrongType(className: "Pet", position: 1, property: "age", expected: "a non-null int", found: "null")
        ),
        (
            "integer out of range", petDataset(#"{"name": "Bo", "age": 9223372036854775808}"#),
            .invalidValue(
                className: "Pet",
                position: 1,
                property: "age",
                reason: "integer 9223372036854775808 does not fit in 64 bits"
            )
        ),
        (
            "duplicate primary key", petDataset(#"{"name": "Rex"}"#),
            .duplicatePrimaryKey(className: "Pet", position: 1, property: "name", key: #""Rex""#)
        ),
        (
            "missing primary key", petDataset(#"{"age": 3}"#),
            .missingPrimaryKey(className: "Pet", position: 1, property: "name")
        ),
        (
            "dangling link by primary key", petDataset(#"{"name": "Bo", "friend": "Nobody"}"#),
            .danglingLink(className: "Pet", position: 1, property: "friend", target: "Pet", key: #""Nobody""#)
        ),
        (
            "dangling link by position", petDataset(#"{"name": "Bo", "toys": [0, 5]}"#),
            .danglingLink(className: "Pet", position: 1, property: "toys.1", target: "Toy", key: "5")
        ),
        (
            "unknown property", petDataset(#"{"name": "Bo", "colour": "red"}"#),
            .unknownProperty(className: "Pet", position: 1, property: "colour")
        ),
        (
            "unknown property inside an embedded object", petDataset(#"{"name": "Bo", "home": {"town": "Oslo"}}"#),
            .unknownEmbeddedProperty(
                className: "Pet",
                position: 1,
                path: "home.town",
                embeddedClass: "Home",
                property: "town"
            )
        ),
        (
            "wrong type inside an embedded object", petDataset(#"{"name": "Bo", "home": {"city": 7}}"#),
            .wrongType(className: "Pet", position: 1, property: "home.city", expected: "a string", found: "an integer")
        ),
        (
            "a backlink given", petDataset(#"{"name": "Bo", "fans": []}"#),
            .backlinkGiven(className: "Pet", position: 1, property: "fans")
        ),
        (
            "a bad date", petDataset(#"{"name": "Bo", "born": "2023-02-30"}"#),
            .invalidValue(
                className: "Pet",
                position: 1,
                property: "born",
                reason: "invalid date '2023-02-30': day out of range"
            )
        ),
        (
            "a $date with parts of opposite signs", petDataset(#"{"name": "Bo", "born": {"$date": [5, -1]}}"#),
            .invalidValue(
                className: "Pet",
                position: 1,
                property: "born",
                reason: "$date [5, -1]: both parts must be ≤ 0 or both ≥ 0"
            )
        ),
        (
            "a bad ObjectId in a mixed value", petDataset(#"{"name": "Bo", "m": {"$oid": "xyz"}}"#),
            .invalidValue(
                className: "Pet",
                position: 1,
                property: "m",
                reason: "invalid ObjectId 'xyz': expected 24 hexadecimal digits"
            )
        ),
        (
            "a $link to an unknown class in a mixed value",
            petDataset(#"{"name": "Bo", "m": {"$link": {"class": "Cat", "key": 0}}}"#),
            .invalidValue(
                className: "Pet",
                position: 1,
                property: "m",
                reason: "$link to unknown or embedded class 'Cat'"
            )
        ),
        (
            "a $link to the wrong class",
            petDataset(#"{"name": "Bo", "friend": {"$link": {"class": "Toy", "key": 0}}}"#),
            .wrongType(
                className: "Pet",
                position: 1,
                property: "friend",
                expected: "a link to 'Pet'",
                found: "a link to 'Toy'"
            )
        ),
        (
            "an object that is not an object", petDataset("42"),
            .notAnObject(className: "Pet", position: 1)
        ),
        (
            "an unknown class in objects", #"{"schema": {\#(petSchema)}, "objects": {"Cat": []}}"#,
            .unknownClass("Cat")
        ),
        (
            "an embedded class in objects", #"{"schema": {\#(petSchema)}, "objects": {"Home": []}}"#,
            .embeddedClassInObjects("Home")
        ),
        (
            "an invalid schema", #"{"schema": {"A": {"properties": {"x": "integer"}}}}"#,
            .schema(.unknownType(className: "A", property: "x", type: "integer"))
        ),
        (
            "an index on an unknown property", #"{"schema": {"A": {"indexed": ["y"], "properties": {"x": "int"}}}}"#,
            .schema(.unknownIndexedProperty(className: "A", property: "y"))
        ),
        (
            "a primary key on an embedded class",
            #"{"schema": {"A": {"embedded": true, "primaryKey": "x", "properties": {"x": "int"}}}}"#,
            .schema(.primaryKeyOnEmbeddedClass(className: "A", property: "x"))
        ),
        (
            "a malformed class", #"{"schema": {"A": {"properties": ["x"]}}}"#,
            .invalidDocument(path: "schema.A.properties", reason: "expected an object of properties")
        ),
        (
            "an unknown class attribute", #"{"schema": {"A": {"properties": {}, "primary": "x"}}}"#,
            .invalidDocument(path: "schema.A.primary", reason: "unknown class attribute")
        ),
        ("no schema", #"{"objects": {}}"#, .invalidDocument(path: "", reason: "missing 'schema'")),
    ]

    @Test("each bad document throws its DatasetError", arguments: cases)
    func badDocuments(label: String, json: String, expected: DatasetError) {
        #expect(throws: expected, "\(label)") { try DatasetLoader.load(json: json) }
    }

    @Test("errors about objects name the class, the position and the property")
    func messages() {
        do {
            _ = try DatasetLoader.load(json: petDataset(#"{"name": "Bo", "age": "three"}"#))
            Issue.record("loaded a bad document")
        } catch {
            #expect(error.description == "Pet[1].age: expected an integer, found a string")
        }
        #expect(
            DatasetError.duplicatePrimaryKey(className: "Pet", position: 4, property: "name", key: "\"Rex\"")
                .description
                == "Pet[4].name: duplicate primary key \"Rex\""
        )
        #expect(
            DatasetError.danglingLink(
                className: "Dog",
                position: 2,
                property: "favoriteToy",
                target: "DogToy",
                key: "\"x\""
            )
            .description.contains("Dog[2].favoriteToy")
        )
    }

    @Test("JSON syntax errors carry line and column")
    func syntax() {
        do {
            _ = try DatasetLoader.load(json: "{\n  \"schema\": {,}\n}")
            Issue.record("loaded bad JSON")
        } catch {
            guard case .syntax(let syntax) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(syntax.line == 2)
            #expect(syntax.column == 14)
        }
    }
}
