import RQLIR
import RQLSema
import RQLSyntax
import Testing

@testable import RQL

/// Each DSL form with the bound IR it produces (IRPrinter) and the query text that binds to
/// the identical IR: the closure and the string are one query.
@Suite("DSL golden tests")
struct DSLGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var className: String
        var predicate: UnboundPredicate
        /// `IRPrinter.print` of the bound query.
        var ir: String
        /// RQL text that binds to the same IR.
        var text: String
        var testDescription: String { text }
    }

    static func dog(_ text: String, _ ir: String, _ closure: (Query<Dog>) -> Query<Bool>) -> Case {
        Case(className: "Dog", predicate: QueryCompiler.predicate(Dog.self, closure), ir: ir, text: text)
    }

    static func person(_ text: String, _ ir: String, _ closure: (Query<Person>) -> Query<Bool>) -> Case {
        Case(className: "Person", predicate: QueryCompiler.predicate(Person.self, closure), ir: ir, text: text)
    }

    static func all(_ text: String, _ ir: String, _ closure: (Query<AllTypesObject>) -> Query<Bool>) -> Case {
        Case(
            className: "AllTypesObject",
            predicate: QueryCompiler.predicate(AllTypesObject.self, closure),
            ir: ir,
            text: text
        )
    }

    static func company(_ text: String, _ ir: String, _ closure: (Query<Geospatial_Company>) -> Query<Bool>) -> Case {
        Case(
            className: "Geospatial_Company",
            predicate: QueryCompiler.predicate(Geospatial_Company.self, closure),
            ir: ir,
            text: text
        )
    }

    static let schema: DiscoveredSchema? = try? DiscoveredSchema(
        types: [Person.self, AllTypesObject.self, Geospatial_Company.self, DogToy.self],
        closingOverLinks: true
    )

    static let cases: [Case] = [
        // Comparisons, links, null
        dog("age < 2", "(query Dog (< Dog.age 2))", { $0.age < 2 }),
        dog("favoriteToy == nil", "(query Dog (== Dog.favoriteToy null))", { $0.favoriteToy == nil }),
        dog(
            "favoriteToy.name == 'Tennis ball'",
            "(query Dog (== Dog.favoriteToy.name 'Tennis ball'))",
            { $0.favoriteToy.name == "Tennis ball" }
        ),
        dog(
            "age >= 3 AND age <= 9 AND age != 5",
            "(query Dog (and (>= Dog.age 3) (<= Dog.age 9) (!= Dog.age 5)))",
            { $0.age >= 3 && $0.age <= 9 && $0.age != 5 }
        ),
        dog("name == color", "(query Dog (== Dog.name Dog.color))", { $0.name == $0.color }),
        dog("name != color", "(query Dog (!= Dog.name Dog.color))", { $0.name != $0.color }),
        dog("name > 'M'", "(query Dog (> Dog.name 'M'))", { $0.name > "M" }),
        // Compound
        dog(
            "color == 'tan' AND name BEGINSWITH 'B'",
            "(query Dog (and (== Dog.color 'tan') (BEGINSWITH Dog.name 'B')))",
            { $0.color == "tan" && $0.name.starts(with: "B") }
        ),
        dog("age > 10 OR age < 1", "(query Dog (or (> Dog.age 10) (< Dog.age 1)))", { $0.age > 10 || $0.age < 1 }),
        dog("NOT name CONTAINS 'x'", "(query Dog (not (CONTAINS Dog.name 'x')))", { !$0.name.contains("x") }),
        dog(
            "(age > 1 OR age < 0) AND NOT (name == 'a' AND color == 'b')",
            "(query Dog (and (or (> Dog.age 1) (< Dog.age 0)) (not (and (== Dog.name 'a') (== Dog.color 'b')))))",
            {
                ($0.age > 1 || $0.age < 0) && !($0.name == "a" && $0.color == "b")
            }
        ),
        // Strings
        dog(
            "name CONTAINS[cd] 'ex'",
            "(query Dog (CONTAINS[c][d] Dog.name 'ex'))",
            { $0.name.contains("ex", options: [.caseInsensitive, .diacriticInsensitive]) }
        ),
        dog(
            "name ENDSWITH[c] 'o'",
            "(query Dog (ENDSWITH[c] Dog.name 'o'))",
            { $0.name.ends(with: "o", options: .caseInsensitive) }
        ),
        dog(
            "name ==[d] 'Fido'",
            "(query Dog (==[d] Dog.name 'Fido'))",
            { $0.name.equals("Fido", options: .diacriticInsensitive) }
        ),
        dog(
            "name !=[c] 'fido'",
            "(query Dog (!=[c] Dog.name 'fido'))",
            { $0.name.notEquals("fido", options: .caseInsensitive) }
        ),
        dog(
            "name LIKE[c] 'R?x*'",
            "(query Dog (LIKE[c] Dog.name 'R?x*'))",
            { $0.name.like("R?x*", caseInsensitive: true) }
        ),
        dog("name MATCHES 'R[a-z]+'", "(query Dog (MATCHES Dog.name 'R[a-z]+'))", { $0.name.matches("R[a-z]+") }),
        dog("name CONTAINS color", "(query Dog (CONTAINS Dog.name Dog.color))", { $0.name.contains($0.color) }),
        dog(
            "name BEGINSWITH[c] currentCity",
            "(query Dog (BEGINSWITH[c] Dog.name Dog.currentCity))",
            { $0.name.starts(with: $0.currentCity, options: .caseInsensitive) }
        ),
        // IN and ranges
        dog("name IN {'Rex', 'Fido'}", "(query Dog (== Dog.name {'Rex', 'Fido'}))", { $0.name.in(["Rex", "Fido"]) }),
        dog("age BETWEEN {1, 5}", "(query Dog (and (>= Dog.age 1) (<= Dog.age 5)))", { $0.age.contains(1...5) }),
        dog("age >= 1 AND age < 5", "(query Dog (and (>= Dog.age 1) (< Dog.age 5)))", { $0.age.contains(1..<5) }),
        // Sets and maps
        dog(
            "ANY citiesVisited == 'New York'",
            "(query Dog (== (ANY Dog.citiesVisited) 'New York'))",
            { $0.citiesVisited.contains("New York") }
        ),
        dog(
            "ANY citiesVisited IN {'Paris', 'Rome'}",
            "(query Dog (== (ANY Dog.citiesVisited) {'Paris', 'Rome'}))",
            { $0.citiesVisited.containsAny(in: ["Paris", "Rome"]) }
        ),
        dog(
            "ALL {'Paris', 'Rome'} IN citiesVisited",
            "(query Dog (== (ALL {'Paris', 'Rome'}) Dog.citiesVisited))",
            { $0.citiesVisited.containsAll(in: ["Paris", "Rome"]) }
        ),
        dog("citiesVisited.@count > 1", "(query Dog (> (@count Dog.citiesVisited) 1))", { $0.citiesVisited.count > 1 }),
        dog(
            "favoriteParksByCity.@count >= 1",
            "(query Dog (>= (@count Dog.favoriteParksByCity) 1))",
            { $0.favoriteParksByCity.count >= 1 }
        ),
        dog(
            "favoriteParksByCity['Chicago'] == 'Millennium'",
            "(query Dog (== Dog.favoriteParksByCity['Chicago'] 'Millennium'))",
            { $0.favoriteParksByCity["Chicago"] == "Millennium" }
        ),
        dog(
            "ANY favoriteParksByCity.@keys BEGINSWITH 'New'",
            "(query Dog (BEGINSWITH (ANY Dog.favoriteParksByCity.@keys) 'New'))",
            { $0.favoriteParksByCity.keys.starts(with: "New") }
        ),
        dog(
            "ANY favoriteParksByCity.@values == 'Central'",
            "(query Dog (== (ANY Dog.favoriteParksByCity.@values) 'Central'))",
            { $0.favoriteParksByCity.values == "Central" }
        ),
        dog(
            "ANY favoriteParksByCity == 'Central'",
            "(query Dog (== (ANY Dog.favoriteParksByCity) 'Central'))",
            { $0.favoriteParksByCity.contains("Central") }
        ),
        // Mixed
        dog("companion == 'Fluffy'", "(query Dog (== Dog.companion 'Fluffy'))", { $0.companion == .string("Fluffy") }),
        dog("companion > 3", "(query Dog (> Dog.companion 3))", { $0.companion > .int(3) }),
        dog("companion == NULL", "(query Dog (== Dog.companion null))", { $0.companion == .none }),
        dog("companion[0] == 1", "(query Dog (== Dog.companion[0] 1))", { $0.companion[0] == .int(1) }),
        dog(
            "companion['k'][*] == 99",
            "(query Dog (== Dog.companion['k'][*] 99))",
            { $0.companion["k"].any == .int(99) }
        ),
        // Aggregates and subqueries through a list of objects
        person("dogs.@avg.age == 5", "(query Person (== (@avg Person.dogs.age) 5))", { $0.dogs.age.avg == 5 }),
        person("dogs.@min.age > 5", "(query Person (> (@min Person.dogs.age) 5))", { $0.dogs.age.min > 5 }),
        person("dogs.@max.age < 2", "(query Person (< (@max Person.dogs.age) 2))", { $0.dogs.age.max < 2 }),
        person("dogs.@count > 2", "(query Person (> (@count Person.dogs) 2))", { $0.dogs.count > 2 }),
        person("dogs.@sum.age > 10", "(query Person (> (@sum Person.dogs.age) 10))", { $0.dogs.age.sum > 10 }),
        person("ANY dogs.age > 5", "(query Person (> (ANY Person.dogs.age) 5))", { $0.dogs.age > 5 }),
        person(
            "ANY dogs.favoriteToy.name == 'Ball'",
            "(query Person (== (ANY Person.dogs.favoriteToy.name) 'Ball'))",
            { $0.dogs.favoriteToy.name == "Ball" }
        ),
        person(
            "SUBQUERY(dogs, $d, $d.age > 5 AND $d.name BEGINSWITH 'R').@count > 2",
            "(query Person (> (subquery Person.dogs (and (> $0:Dog.age 5) (BEGINSWITH $0:Dog.name 'R'))) 2))",
            {
                ($0.dogs.age > 5 && $0.dogs.name.starts(with: "R")).count > 2
            }
        ),
        person(
            "SUBQUERY(dogs, $d, ANY $d.citiesVisited == 'Oslo').@count == 1",
            "(query Person (== (subquery Person.dogs (== (ANY $0:Dog.citiesVisited) 'Oslo')) 1))",
            {
                ($0.dogs.citiesVisited.contains("Oslo")).count == 1
            }
        ),
        person(
            "address.city == 'Los Angeles'",
            "(query Person (== Person.address.city 'Los Angeles'))",
            { $0.address.city == "Los Angeles" }
        ),
        person(
            "ANY clubs.name == 'Pooch Pals'",
            "(query Person (== (ANY Person.clubs.name) 'Pooch Pals'))",
            { $0.clubs.name == "Pooch Pals" }
        ),
        person("id == 12345", "(query Person (== Person.id 12345))", { $0.id == 12345 }),
        // Every property type
        all(
            "id == oid(11223344556677889900aabb)",
            "(query AllTypesObject (== AllTypesObject.id oid(11223344556677889900aabb)))",
            { $0.id == ObjectId("11223344556677889900aabb") }
        ),
        all("boolCol == true", "(query AllTypesObject (== AllTypesObject.boolCol true))", { $0.boolCol }),
        all("boolCol == false", "(query AllTypesObject (== AllTypesObject.boolCol false))", { !$0.boolCol }),
        all(
            "boolCol == true AND intCol > 1",
            "(query AllTypesObject (and (== AllTypesObject.boolCol true) (> AllTypesObject.intCol 1)))",
            { $0.boolCol && $0.intCol > 1 }
        ),
        all(
            "int8Col > 1 AND int16Col > 2 AND int32Col > 3 AND int64Col > 4",
            "(query AllTypesObject (and (> AllTypesObject.int8Col 1) (> AllTypesObject.int16Col 2) (> AllTypesObject.int32Col 3) (> AllTypesObject.int64Col 4)))",
            {
                $0.int8Col > 1 && $0.int16Col > 2 && $0.int32Col > 3 && $0.int64Col > 4
            }
        ),
        all("floatCol < 1.5f", "(query AllTypesObject (< AllTypesObject.floatCol 1.5f))", { $0.floatCol < 1.5 }),
        all("doubleCol >= 2.5", "(query AllTypesObject (>= AllTypesObject.doubleCol 2.5))", { $0.doubleCol >= 2.5 }),
        all(
            "decimalCol > 1.5",
            "(query AllTypesObject (> AllTypesObject.decimalCol decimal128(1.5)))",
            { $0.decimalCol > Decimal128(floatLiteral: 1.5) }
        ),
        all(
            "dateCol > T100:0",
            "(query AllTypesObject (> AllTypesObject.dateCol T100:0))",
            { $0.dateCol > Date(timeIntervalSince1970: 100) }
        ),
        all(
            "uuidCol == uuid(3b241101-e2bb-4255-8caf-4136c566a962)",
            "(query AllTypesObject (== AllTypesObject.uuidCol uuid(3b241101-e2bb-4255-8caf-4136c566a962)))",
            {
                $0.uuidCol == UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962")!
            }
        ),
        all(
            "dataCol CONTAINS bin('ab')",
            "(query AllTypesObject (CONTAINS AllTypesObject.dataCol B64\"YWI=\"))",
            { $0.dataCol.contains(Data("ab".utf8)) }
        ),
        all(
            "optStringCol == NULL",
            "(query AllTypesObject (== AllTypesObject.optStringCol null))",
            { $0.optStringCol == nil }
        ),
        all(
            "optIntCol BETWEEN {1, 3}",
            "(query AllTypesObject (and (>= AllTypesObject.optIntCol 1) (<= AllTypesObject.optIntCol 3)))",
            { $0.optIntCol.contains(1...3) }
        ),
        all(
            "enumCol == 'chocolate'",
            "(query AllTypesObject (== AllTypesObject.enumCol 'chocolate'))",
            { $0.enumCol == .chocolate }
        ),
        all(
            "enumCol BEGINSWITH 'choc'",
            "(query AllTypesObject (BEGINSWITH AllTypesObject.enumCol 'choc'))",
            { $0.enumCol.rawValue.starts(with: "choc") }
        ),
        all(
            "optEnumCol == NULL",
            "(query AllTypesObject (== AllTypesObject.optEnumCol null))",
            { $0.optEnumCol == nil }
        ),
        all(
            "urlCol == 'https://akc.org'",
            "(query AllTypesObject (== AllTypesObject.urlCol 'https://akc.org'))",
            { $0.urlCol == URL(string: "https://akc.org") }
        ),
        all(
            "urlCol BEGINSWITH 'https'",
            "(query AllTypesObject (BEGINSWITH AllTypesObject.urlCol 'https'))",
            { $0.urlCol.persistableValue.starts(with: "https") }
        ),
        all("mapped == 'x'", "(query AllTypesObject (== AllTypesObject.mapped 'x'))", { $0.mapped == "x" }),
        all("intList.@avg > 2", "(query AllTypesObject (> (@avg AllTypesObject.intList) 2))", { $0.intList.avg > 2 }),
        all("ANY intList > 3", "(query AllTypesObject (> (ANY AllTypesObject.intList) 3))", { $0.intList > 3 }),
        all(
            "intList.@min >= 1 AND intList.@max <= 5",
            "(query AllTypesObject (and (>= (@min AllTypesObject.intList) 1) (<= (@max AllTypesObject.intList) 5)))",
            { $0.intList.contains(1...5) }
        ),
        all(
            "intList.@min >= 1 AND intList.@max < 5",
            "(query AllTypesObject (and (>= (@min AllTypesObject.intList) 1) (< (@max AllTypesObject.intList) 5)))",
            { $0.intList.contains(1..<5) }
        ),
        all(
            "ANY optIntList == NULL",
            "(query AllTypesObject (== (ANY AllTypesObject.optIntList) null))",
            { $0.optIntList == nil }
        ),
        all(
            "ANY anyMap.@values == 1",
            "(query AllTypesObject (== (ANY AllTypesObject.anyMap.@values) 1))",
            { $0.anyMap.values == .int(1) }
        ),
        all(
            "anyMap['k'] == 'v'",
            "(query AllTypesObject (== AllTypesObject.anyMap['k'] 'v'))",
            { $0.anyMap["k"] == .string("v") }
        ),
        all(
            "objectCol.name == 'x'",
            "(query AllTypesObject (== AllTypesObject.objectCol.name 'x'))",
            { $0.objectCol.name == "x" }
        ),
        // Geospatial
        company(
            "location GEOWITHIN geoBox([-122.7, 47.3], [-122.1, 48.1])",
            "(query Geospatial_Company (GEOWITHIN ANY Geospatial_Company.location (box [-122.7, 47.3] [-122.1, 48.1])))",
            {
                $0.location.geoWithin(GeoBox(bottomLeft: (47.3, -122.7), topRight: (48.1, -122.1))!)
            }
        ),
        company(
            "location GEOWITHIN geoCircle([-121.9, 47.3], 0.004363323)",
            "(query Geospatial_Company (GEOWITHIN ANY Geospatial_Company.location (circle [-121.9, 47.3] 0.004363323)))",
            {
                $0.location.geoWithin(GeoCircle(center: (47.3, -121.9), radiusInRadians: 0.004363323)!)
            }
        ),
        company(
            "location GEOWITHIN geoPolygon({[-122.8, 48.0], [-121.8, 48.2], [-121.6, 47.6], [-122.8, 48.0]})",
            "(query Geospatial_Company (GEOWITHIN ANY Geospatial_Company.location (polygon {[-122.8, 48.0], [-121.8, 48.2], [-121.6, 47.6], [-122.8, 48.0]})))",
            {
                $0.location.geoWithin(
                    GeoPolygon(outerRing: [(48.0, -122.8), (48.2, -121.8), (47.6, -121.6), (48.0, -122.8)])!
                )
            }
        ),
    ]

    static func bind(_ predicate: UnboundPredicate, _ className: String) throws -> BoundQuery {
        let schema = try #require(Self.schema).schema
        return try QueryCompiler.bind(UnboundQuery(predicate: predicate), className: className, schema: schema)
    }

    @Test("a closure binds to its golden IR and to the same IR as its query text", arguments: cases)
    func golden(_ c: Case) throws {
        let schema = try #require(Self.schema).schema
        let fromClosure = try Self.bind(c.predicate, c.className)
        let fromText = try Binder(schema: schema).bind(try Parser.parse(c.text), className: c.className)
        #expect(IRPrinter.print(fromClosure) == c.ir)
        #expect(IRPrinter.print(fromClosure) == IRPrinter.print(fromText))
        #expect(fromClosure == fromText)
    }
}
