import Testing

@testable import RQLCore

private func property(_ name: String, _ type: String, in className: String = "C") throws -> Property {
    try Property(name: name, typeSyntax: type, className: className)
}

@Suite("Schema: type syntax")
struct PropertyTypeSyntaxTests {
    @Test(
        "reads every form of the dataset format's type syntax and prints it back",
        arguments: [
            ("int", PropertyType.int, false, CollectionKind.single),
            ("int?", .int, true, .single),
            ("bool", .bool, false, .single),
            ("float?", .float, true, .single),
            ("double", .double, false, .single),
            ("string", .string, false, .single),
            ("data?", .data, true, .single),
            ("date", .date, false, .single),
            ("decimal128", .decimal128, false, .single),
            ("objectId", .objectId, false, .single),
            ("uuid?", .uuid, true, .single),
            ("mixed", .mixed, true, .single),
            ("list<int?>", .int, true, .list),
            ("set<string>", .string, false, .set),
            ("map<string>", .string, false, .map),
            ("DogToy?", .object("DogToy"), true, .single),
            ("list<Dog>", .object("Dog"), false, .list),
            ("map<Dog?>", .object("Dog"), true, .map),
            (
                "linkingObjects<DogClub.members>", .linkingObjects(className: "DogClub", property: "members"), false,
                .list
            ),
        ]
    )
    func typeSyntax(text: String, type: PropertyType, optional: Bool, collection: CollectionKind) throws {
        let p = try property("p", text)
        #expect(p.type == type)
        #expect(p.isOptional == optional)
        #expect(p.collection == collection)
        #expect(p.typeSyntax == text)
    }

    @Test(
        "malformed type text is an unknown type naming class and property",
        arguments: [
            "", "list<int", "list<>", "list<list<int>>", "int??", "?", "linkingObjects<Dog>", "linkingObjects<.x>",
            "list<linkingObjects<A.b>>", "map<int>x",
        ]
    )
    func malformed(text: String) {
        #expect(throws: SchemaError.unknownType(className: "Dog", property: "p", type: text)) {
            try Property(name: "p", typeSyntax: text, className: "Dog")
        }
    }
}

@Suite("Schema: validation")
struct SchemaValidationTests {
    static func dog(_ extra: [Property] = [], primaryKey: String? = nil, embedded: Bool = false) -> ObjectSchema {
        ObjectSchema(
            name: "Dog",
            properties: [Property(name: "name", type: .string)] + extra,
            primaryKey: primaryKey,
            isEmbedded: embedded
        )
    }

    @Test("a valid schema with links, backlinks, embedded objects, keys and indexes is accepted")
    func valid() throws {
        let schema = try Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    try property("id", "int", in: "Person"),
                    try property("dogs", "list<Dog>", in: "Person"),
                    try property("address", "Address?", in: "Person"),
                    try property("best", "Dog?", in: "Person"),
                ],
                primaryKey: "id"
            ),
            SchemaValidationTests.dog([try property("owners", "linkingObjects<Person.dogs>", in: "Dog")]),
            ObjectSchema(
                name: "Address",
                properties: [try property("city", "string?", in: "Address")],
                isEmbedded: true
            ),
        ])
        #expect(schema["Dog"]?.propertyIndex(named: "owners") == 1)
        #expect(schema["Person"]?.primaryKeyIndex == 0)
        #expect(schema.classIndex(named: "Address") == 2)
        #expect(schema["Cat"] == nil)
    }

    @Test("class and property names may be any non-empty text")
    func oddNames() throws {
        let schema = try Schema([
            ObjectSchema(name: "my class", properties: [Property(name: "float fees", type: .float)])
        ])
        #expect(schema["my class"]?.property(named: "float fees")?.type == .float)
    }

    static let invalid: [(String, [ObjectSchema], SchemaError)] = [
        ("empty class name", [ObjectSchema(name: "", properties: [])], .emptyClassName),
        ("duplicate class", [dog(), dog()], .duplicateClass("Dog")),
        ("empty property name", [dog([Property(name: "", type: .int)])], .emptyPropertyName(className: "Dog")),
        (
            "duplicate property", [dog([Property(name: "name", type: .int)])],
            .duplicateProperty(className: "Dog", property: "name")
        ),
        (
            "unknown link target", [dog([Property(name: "toy", type: .object("Toy"), isOptional: true)])],
            .unknownClass(className: "Dog", property: "toy", target: "Toy")
        ),
        (
            "unknown backlink class",
            [
                dog([
                    Property(
                        name: "owners",
                        type: .linkingObjects(className: "Person", property: "dogs"),
                        collection: .list
                    )
                ])
            ],
            .unknownClass(className: "Dog", property: "owners", target: "Person")
        ),
        (
            "to-one link not optional", [dog([Property(name: "buddy", type: .object("Dog"))])],
            .linkNotOptional(className: "Dog", property: "buddy", target: "Dog")
        ),
        (
            "optional link in a list",
            [dog([Property(name: "pack", type: .object("Dog"), isOptional: true, collection: .list)])],
            .optionalLinkInCollection(className: "Dog", property: "pack")
        ),
        (
            "set of embedded objects",
            [
                dog([Property(name: "homes", type: .object("Address"), collection: .set)]),
                ObjectSchema(name: "Address", properties: [], isEmbedded: true),
            ],
            .setOfEmbeddedObjects(className: "Dog", property: "homes")
        ),
        ("unknown primary key", [dog(primaryKey: "id")], .unknownPrimaryKey(className: "Dog", property: "id")),
        (
            "primary key on an embedded class", [dog(primaryKey: "name", embedded: true)],
            .primaryKeyOnEmbeddedClass(className: "Dog", property: "name")
        ),
        (
            "primary key of type double", [dog([Property(name: "w", type: .double)], primaryKey: "w")],
            .invalidPrimaryKeyType(className: "Dog", property: "w", type: "double")
        ),
        (
            "primary key that is a list",
            [dog([Property(name: "ids", type: .int, collection: .list)], primaryKey: "ids")],
            .invalidPrimaryKeyType(className: "Dog", property: "ids", type: "list<int>")
        ),
        (
            "index on binary data", [dog([Property(name: "w", type: .data, isIndexed: true)])],
            .invalidIndexType(className: "Dog", property: "w", type: "data")
        ),
        (
            "index on a list", [dog([Property(name: "tags", type: .string, collection: .list, isIndexed: true)])],
            .invalidIndexType(className: "Dog", property: "tags", type: "list<string>")
        ),
        (
            "full-text index on an int", [dog([Property(name: "age", type: .int, isFullText: true)])],
            .invalidFullTextType(className: "Dog", property: "age", type: "int")
        ),
        (
            "backlink to a missing property",
            [
                dog([
                    Property(
                        name: "owners",
                        type: .linkingObjects(className: "Person", property: "pets"),
                        collection: .list
                    )
                ]),
                ObjectSchema(name: "Person", properties: []),
            ],
            .unknownBacklinkOrigin(className: "Dog", property: "owners", origin: "Person.pets")
        ),
        (
            "backlink to a non-link property",
            [
                dog([
                    Property(
                        name: "owners",
                        type: .linkingObjects(className: "Person", property: "name"),
                        collection: .list
                    )
                ]),
                ObjectSchema(name: "Person", properties: [Property(name: "name", type: .string)]),
            ],
            .backlinkToNonLink(className: "Dog", property: "owners", origin: "Person.name")
        ),
        (
            "backlink to a link aimed at another class",
            [
                dog([
                    Property(
                        name: "owners",
                        type: .linkingObjects(className: "Person", property: "cat"),
                        collection: .list
                    )
                ]),
                ObjectSchema(
                    name: "Person",
                    properties: [Property(name: "cat", type: .object("Cat"), isOptional: true)]
                ),
                ObjectSchema(name: "Cat", properties: []),
            ],
            .backlinkToNonLink(className: "Dog", property: "owners", origin: "Person.cat")
        ),
    ]

    @Test("each invalid schema throws its SchemaError", arguments: invalid)
    func invalidSchemas(label: String, classes: [ObjectSchema], expected: SchemaError) {
        #expect(throws: expected, "\(label)") { try Schema(classes) }
    }

    @Test("error messages name the class and the property")
    func messages() {
        let error = SchemaError.invalidPrimaryKeyType(className: "Dog", property: "w", type: "double")
        #expect(error.description.contains("'Dog'"))
        #expect(error.description.contains("'w'"))
        #expect(
            SchemaError.unknownType(className: "A", property: "b", type: "integer").description
                == "class 'A', property 'b': unknown type 'integer'"
        )
    }
}
