import Foundation
import RQLDatasets
import RQLEngine
import RQLIR
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQL

/// Managed objects read from a store built elsewhere: a dataset with the reading guide's schema,
/// loaded into a column store and imported into a block store that a realm then adopts.
@Suite("Managed objects read from an imported store")
struct ManagedReadTests {
    static let dataset = """
        {
          "schema": {
            "Person": {
              "primaryKey": "id",
              "properties": {
                "id": "int", "name": "string", "dogs": "list<Dog>",
                "clubs": "linkingObjects<DogClub.members>", "address": "Address?"
              }
            },
            "Dog": {
              "properties": {
                "name": "string", "age": "int", "color": "string", "currentCity": "string",
                "citiesVisited": "set<string>", "companion": "mixed", "favoriteToy": "DogToy?",
                "favoriteParksByCity": "map<string>"
              }
            },
            "DogToy": { "properties": { "id": "objectId", "name": "string" } },
            "DogClub": {
              "properties": { "name": "string", "members": "list<Person>", "regionalOfficeAddresses": "list<Address>" }
            },
            "Address": {
              "embedded": true,
              "properties": { "street": "string?", "city": "string?", "country": "string?", "postalCode": "string?" }
            }
          },
          "objects": {
            "DogToy": [ { "id": "11223344556677889900aabb", "name": "Tennis ball" } ],
            "Dog": [
              { "name": "Rex", "age": 10, "color": "tan", "citiesVisited": ["Chicago", "Oslo"],
                "favoriteParksByCity": { "Chicago": "Millennium Park" }, "companion": "Fluffy the Cat",
                "favoriteToy": 0 },
              { "name": "Spot", "age": 2, "color": "black", "companion": 7 }
            ],
            "Person": [ { "id": 12345, "name": "Ann", "dogs": [0, 1], "address": { "city": "Los Angeles" } } ],
            "DogClub": [ { "name": "Pooch Pals", "members": [12345] } ]
          }
        }
        """

    func context() throws -> (Realm, DiscoveredSchema) {
        let store = try DatasetLoader.load(json: Self.dataset)
        let discovered = try DiscoveredSchema(types: [Person.self], closingOverLinks: true)
        // Same classes, property for property (the class order may differ).
        for objectSchema in discovered.schema.classes {
            #expect(store.schema[objectSchema.name] == objectSchema)
        }
        #expect(store.schema.classes.count == discovered.schema.classes.count)
        let identifier = "imported-\(UUID().uuidString)"
        let coordinator = StoreRegistry.adopt(try BlockStore(importing: store), inMemoryIdentifier: identifier)
        let realm = try withExtendedLifetime(coordinator) {
            try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
        }
        return (realm, discovered)
    }

    @Test("the discovered schema is the dataset's schema, property for property")
    func sameSchema() throws {
        _ = try context()
    }

    @Test("scalar, mixed and optional properties read from the row")
    func scalars() throws {
        let (realm, _) = try context()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.map(\.name) == ["Rex", "Spot"])
        #expect(dogs.map(\.age) == [10, 2])
        #expect(dogs[0].companion == .string("Fluffy the Cat"))
        #expect(dogs[1].companion == .int(7))
        #expect(dogs[1].favoriteToy == nil)
    }

    @Test("links become managed objects of the same context")
    func links() throws {
        let (realm, _) = try context()
        let rex = try #require(realm.objects(Dog.self).first)
        let toy = try #require(rex.favoriteToy)
        #expect(toy.name == "Tennis ball")
        #expect(toy.id == ObjectId("11223344556677889900aabb"))
        #expect(toy == realm.objects(DogToy.self)[0])
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.address?.city == "Los Angeles")
    }

    @Test("lists, sets and maps are live views of the stored collection")
    func collections() throws {
        let (realm, _) = try context()
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.count == 2)
        #expect(person.dogs.map(\.name) == ["Rex", "Spot"])
        #expect(person.dogs === person.dogs)
        let rex = person.dogs[0]
        #expect(Set(rex.citiesVisited) == ["Chicago", "Oslo"])
        #expect(rex.citiesVisited.contains("Oslo"))
        #expect(rex.favoriteParksByCity["Chicago"] == "Millennium Park")
        #expect(rex.favoriteParksByCity.keys == ["Chicago"])
    }

    @Test("linking objects read the backlinks")
    func backlinks() throws {
        let (realm, _) = try context()
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.clubs.map(\.name) == ["Pooch Pals"])
        #expect(person.clubs.first?.members.first == person)
    }

    @Test("dynamic access and descriptions read managed objects too")
    func dynamic() throws {
        let (realm, _) = try context()
        let rex = try #require(realm.objects(Dog.self).first)
        #expect(rex["name"] as? String == "Rex")
        #expect(rex.description.contains("\tname = Rex;"))
        #expect(!rex.isFrozen)
        #expect(rex.freeze().isFrozen)
        #expect(!rex.isInvalidated)
    }

    @Test("a DSL query binds against the store's schema and runs on the imported objects")
    func query() throws {
        let (realm, discovered) = try context()
        let predicate = QueryCompiler.predicate(Person.self) { ($0.dogs.age > 5 && $0.dogs.color == "tan").count == 1 }
        let bound = try QueryCompiler.bind(
            UnboundQuery(predicate: predicate),
            className: "Person",
            schema: discovered.schema
        )
        let store = try DatasetLoader.load(json: Self.dataset)
        #expect(QueryEngine.reference.run(try QueryEngine.reference.compile(bound, store: store), on: store).count == 1)
        #expect(realm.objects(Person.self).where { ($0.dogs.age > 5 && $0.dogs.color == "tan").count == 1 }.count == 1)
    }
}
