import RQLCore
import RQLDatasets
import RQLEngine
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import Testing

/// The queries of the Realm Swift reading guide (`../shared/seeds/000_*.txt`), in both dialects,
/// against the built-in demo database. The expected names were worked out from the demo data by
/// hand (and by a separate script over its JSON), not by running this library.
@Suite("The reading guide's queries on the demo database")
struct SeedExampleTests {
    static let store: BlockSnapshot? = try? DemoDataset.load()

    /// The `name`s of the objects `query` selects, in result order.
    static func names(
        _ query: String,
        _ className: String,
        dialect: Dialect = .rql,
        arguments: [QueryArgument] = []
    ) throws -> [String] {
        let store = try #require(Self.store)
        let compiled = try QueryEngine.reference.compile(
            query,
            dialect: dialect,
            className: className,
            store: store,
            arguments: arguments
        )
        let table = try #require(store.table(named: className))
        let name = try #require(table.objectSchema.propertyIndex(named: "name"))
        return QueryEngine.reference.run(compiled, on: store).compactMap { key in
            table.position(of: key).flatMap { position in
                if case .string(let text) = table.value(at: position, property: name) { text } else { nil }
            }
        }
    }

    @Test(
        "filtering dogs",
        arguments: [
            ("age < 2", ["Bella", "Daisy", "Cooper"]),
            ("favoriteToy == nil", ["Max", "Daisy", "Bruno", "Άρης", "Sadie", "Zoe"]),
            ("favoriteToy.name == 'Tennis ball'", ["Rex", "Bella", "Charlie", "Chloé", "Lola"]),
            ("color = 'tan' AND name BEGINSWITH 'B'", []),
            ("color = 'tan'", ["Rex", "Daisy", "Sadie", "Lola"]),
            (
                "favoriteParksByCity.@count >= 1",
                ["Rex", "Buddy", "Bella", "Bailey", "Charlie", "Biscuit", "Molly", "Bruno", "Chloé", "Lola"]
            ),
        ]
    )
    func dogs(query: String, expected: [String]) throws {
        #expect(try Self.names(query, "Dog") == expected)
        #expect(try Self.names(query, "Dog", dialect: .nsPredicate) == expected)
    }

    @Test("people in Los Angeles, sorted by street (an embedded object)")
    func peopleByStreet() throws {
        #expect(try Self.names("address.city = 'Los Angeles' SORT(address.street ASC)", "Person") == ["Ann", "Grace"])
        #expect(
            try Self.names(
                "address.city = %@",
                "Person",
                dialect: .nsPredicate,
                arguments: [.value(.string("Los Angeles"))]
            )
                == ["Ann", "Grace"]
        )
    }

    @Test(
        "aggregates over a person's dogs",
        arguments: [
            ("dogs.@avg.age == 5", ["Carla"]),
            ("dogs.@count > 2", ["Ben", "Grace", "Ivy"]),
            ("dogs.@sum.age > 10", ["Ann", "Ben", "Grace", "Ivy"]),
            ("dogs.@min.age > 5", []),
            ("dogs.@max.age < 2", []),
        ]
    )
    func aggregates(query: String, expected: [String]) throws {
        #expect(try Self.names(query, "Person") == expected)
    }

    @Test("chained filters are the AND of their predicates")
    func chained() throws {
        let tan = try Self.names("color = 'tan'", "Dog")
        let tanWithB = try Self.names("color = 'tan' AND name BEGINSWITH 'B'", "Dog")
        #expect(tanWithB == tan.filter { $0.hasPrefix("B") })
    }

    @Test("an ObjectId argument finds the toy; the id written as a plain string is a type error")
    func objectIdArgument() throws {
        let store = try #require(Self.store)
        let id = try ObjectId(hex: "11223344556677889900aabb")
        let compiled = try QueryEngine.reference.compile(
            "id = %@",
            dialect: .nsPredicate,
            className: "DogToy",
            store: store,
            arguments: [.value(.objectId(id))]
        )
        #expect(QueryEngine.reference.run(compiled, on: store).count == 1)
        #expect(throws: QueryError.self) {
            try QueryEngine.reference.compile("id = '11223344556677889900aabb'", className: "DogToy", store: store)
        }
    }
}
