import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// Evaluates `property op constant` over every row of a class with the reference comparison,
/// the way the reference evaluator will, and returns the matching values of `nameProperty`.
private func matches(
    _ store: BlockSnapshot,
    _ className: String,
    _ property: String,
    _ op: ComparisonOperator,
    _ constant: Value,
    options: StringOptions = [],
    name nameProperty: String = "name"
) -> [String] {
    guard let table = store.table(named: className),
        let column = table.objectSchema.propertyIndex(named: property),
        let nameColumn = table.objectSchema.propertyIndex(named: nameProperty)
    else { return ["<missing>"] }
    return (0..<table.rowCount).compactMap { row in
        let value = table.value(at: row, property: column)
        // A to-many value matches when ANY element does.
        let candidates: [Value]
        switch value {
        case .list(let items) where table.objectSchema.properties[column].isToMany: candidates = items
        case .map(let map) where table.objectSchema.properties[column].isToMany: candidates = map.values
        default: candidates = [value]
        }
        guard candidates.contains(where: { ValueComparison.evaluate($0, op, constant, options: options) }) else {
            return nil
        }
        guard case .string(let name) = table.value(at: row, property: nameColumn) else { return nil }
        return name
    }
}

@Suite("Demo dataset")
struct DemoDatasetTests {
    let store: BlockSnapshot

    init() throws {
        store = try DemoDataset.load()
    }

    @Test("loads every class with the expected number of objects")
    func counts() {
        #expect(store.table(named: "Dog")?.rowCount == 20)
        #expect(store.table(named: "Person")?.rowCount == 10)
        #expect(store.table(named: "DogToy")?.rowCount == 6)
        #expect(store.table(named: "DogClub")?.rowCount == 4)
        // 8 inline person addresses + 3 regional offices.
        #expect(store.table(named: "Address")?.rowCount == 11)
        #expect(store.version == 1)
    }

    @Test(
        "documentation queries have non-trivial answers: age > 2, name BEGINSWITH 'B', citiesVisited CONTAINS 'Chicago'"
    )
    func simplePredicates() {
        let older = matches(store, "Dog", "age", .greater, .int(2))
        #expect(older.count > 5 && older.count < 20)
        #expect(
            matches(store, "Dog", "name", .beginsWith, .string("B")) == [
                "Buddy", "Bella", "Bailey", "Biscuit", "Bruno",
            ]
        )
        let chicago = matches(store, "Dog", "citiesVisited", .equal, .string("Chicago"))
        #expect(chicago.contains("Rex") && chicago.contains("Biscuit") && !chicago.contains("Bella"))
        let sharik = matches(store, "Dog", "name", .equal, .string("шарик"), options: .caseInsensitive)
        #expect(sharik == ["Шарик"])
        #expect(
            matches(store, "Dog", "name", .equal, .string("chloe"), options: [.caseInsensitive, .diacriticInsensitive])
                == ["Chloé"]
        )
    }

    @Test("mixed companions hold many types, including nested lists and maps")
    func mixedCompanions() throws {
        let dogs = try #require(store.table(named: "Dog"))
        let companion = try #require(dogs.objectSchema.propertyIndex(named: "companion"))
        let kinds = Set((0..<dogs.rowCount).map { dogs.value(at: $0, property: companion).kind })
        #expect(
            kinds.isSuperset(of: [
                .null, .bool, .int, .float, .double, .decimal, .string, .data, .date, .objectId, .uuid, .link, .list,
                .map,
            ])
        )
        // Numeric companions 3 (int) and 3.0 (double) both equal 3; the string "3" does not.
        #expect(matches(store, "Dog", "companion", .equal, .int(3)) == ["Buddy", "Lola"])
    }

    @Test("links resolve: favoriteToy.name, embedded address.city, backlinks and @links.@count")
    func links() throws {
        let dogs = try #require(store.table(named: "Dog"))
        let toys = try #require(store.table(named: "DogToy"))
        let toyColumn = try #require(dogs.objectSchema.propertyIndex(named: "favoriteToy"))
        var tennisBallDogs = 0
        for row in 0..<dogs.rowCount {
            guard case .link(let link) = dogs.value(at: row, property: toyColumn),
                let (table, position) = store.resolve(link)
            else { continue }
            if table.value(at: position, property: 1) == .string("Tennis ball") { tennisBallDogs += 1 }
        }
        #expect(tennisBallDogs == 5)
        // The tennis ball is the favourite of 5 dogs and the companion of none: 5 incoming links.
        #expect(toys.backlinkCount(at: 0) == 5)
        // Buddy (Dog 1) is owned by Ben and Jack.
        let owners = dogs.backlinks(at: 1, fromClass: "Person", property: "dogs")
        #expect(owners == [RowKey(1), RowKey(9)])
        let ownersColumn = try #require(dogs.objectSchema.propertyIndex(named: "owners"))
        #expect(
            dogs.value(at: 1, property: ownersColumn)
                == .list([
                    .link(ObjectLink(className: "Person", key: RowKey(1))),
                    .link(ObjectLink(className: "Person", key: RowKey(9))),
                ])
        )

        let people = try #require(store.table(named: "Person"))
        let addressColumn = try #require(people.objectSchema.propertyIndex(named: "address"))
        var losAngeles: [Int] = []
        for row in 0..<people.rowCount {
            guard case .link(let link) = people.value(at: row, property: addressColumn),
                let (table, position) = store.resolve(link)
            else { continue }
            if table.value(at: position, property: 1) == .string("Los Angeles") { losAngeles.append(row) }
        }
        #expect(losAngeles == [0, 6])
    }

    @Test("ANY dogs.color == 'brown' has some but not all people")
    func anyDogsColor() throws {
        let people = try #require(store.table(named: "Person"))
        let dogs = try #require(store.table(named: "Dog"))
        let dogsColumn = try #require(people.objectSchema.propertyIndex(named: "dogs"))
        let colorColumn = try #require(dogs.objectSchema.propertyIndex(named: "color"))
        let withBrown = (0..<people.rowCount).filter { row in
            guard case .list(let links) = people.value(at: row, property: dogsColumn) else { return false }
            return links.contains { link in
                guard case .link(let l) = link, let (table, position) = store.resolve(l) else { return false }
                return table.value(at: position, property: colorColumn) == .string("brown")
            }
        }
        #expect(withBrown.count > 1 && withBrown.count < people.rowCount)
    }
}
