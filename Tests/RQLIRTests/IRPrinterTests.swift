import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import Testing

/// Golden strings for the IR printer.
@Suite("IR printer")
struct IRPrinterTests {
    let h: Harness

    init() throws {
        h = Harness(store: try DemoDataset.load(), className: "Dog")
    }

    @Test("A query prints its class, predicate and clauses")
    func query() {
        let query = h.query(
            .and([
                h.cmp("age", .greater, .int(2)),
                h.cmp("name", .beginsWith, .string("r"), [.caseInsensitive]),
            ]),
            [
                .sort([
                    BoundSortKey(path: h.path("name"), ascending: true),
                    BoundSortKey(path: h.path("age"), ascending: false),
                ]),
                .distinct([h.path("color")]), .limit(3),
            ]
        )
        #expect(
            IRPrinter.print(query)
                == "(query Dog (and (> Dog.age 2) (BEGINSWITH[c] Dog.name 'r')) (sort Dog.name ASC Dog.age DESC) "
                + "(distinct Dog.color) (limit 3))"
        )
    }

    @Test(
        "Predicates and operands",
        arguments: [
            (BoundPredicate.constant(true), "TRUEPREDICATE"),
            (.not(.constant(false)), "(not FALSEPREDICATE)"),
            (.or([]), "(or)"),
        ]
    )
    func predicates(predicate: BoundPredicate, expected: String) {
        #expect(IRPrinter.print(predicate) == expected)
    }

    @Test("Quantifiers, lists, @count, @type, aggregates, @links.@count, obj() and arithmetic")
    func expressions() {
        let people = Harness(store: h.store, className: "Person")
        #expect(
            IRPrinter.print(people.cmp(people.operand("dogs.age", .all), .equal, people.list(Value.ints(1, 2), .any)))
                == "(== (ALL Person.dogs.age) (ANY {1, 2}))"
        )
        #expect(
            IRPrinter.print(
                people.cmp(people.operand(.count(people.path("dogs"))), .greaterOrEqual, people.const(.int(2)))
            ) == "(>= (@count Person.dogs) 2)"
        )
        #expect(
            IRPrinter.print(h.cmp(h.operand(.type(h.path("companion"))), .equal, h.const(.string("numeric"))))
                == "(== (@type Dog.companion) 'numeric')"
        )
        #expect(
            IRPrinter.print(BoundExpression.aggregate(.avg, people.path("dogs.weight"))) == "(@avg Person.dogs.weight)"
        )
        #expect(IRPrinter.print(BoundExpression.backlinkCount(h.path(""))) == "(@links.@count Dog)")
        #expect(
            IRPrinter.print(BoundExpression.object(className: "DogToy", primaryKey: .string("x")))
                == "(obj 'DogToy' 'x')"
        )
        #expect(
            IRPrinter.print(BoundExpression.arithmetic(.multiply, .constant(.int(2)), .path(h.path("age"))))
                == "(* 2 Dog.age)"
        )
        #expect(
            IRPrinter.print(BoundExpression.list([.object(className: "Dog", primaryKey: .int(1)), .constant(.null)]))
                == "{(obj 'Dog' 1), null}"
        )
    }

    @Test("Path steps: positions, keys, @keys, @values, @links and SUBQUERY elements")
    func paths() {
        #expect(IRPrinter.print(h.path("favoriteParksByCity['Chicago']")) == "Dog.favoriteParksByCity['Chicago']")
        #expect(IRPrinter.print(h.path("favoriteParksByCity.@keys")) == "Dog.favoriteParksByCity.@keys")
        #expect(IRPrinter.print(h.path("favoriteParksByCity.@values")) == "Dog.favoriteParksByCity.@values")
        #expect(IRPrinter.print(h.path("@links.Person.dogs.name")) == "Dog.@links.Person.dogs.name")
        let people = Harness(store: h.store, className: "Person")
        #expect(IRPrinter.print(people.path("dogs[0].name")) == "Person.dogs[0].name")
        #expect(IRPrinter.print(people.path("dogs[FIRST]")) == "Person.dogs[FIRST]")
        #expect(IRPrinter.print(people.path("dogs[LAST]")) == "Person.dogs[LAST]")
        #expect(IRPrinter.print(people.path("dogs[*]")) == "Person.dogs[*]")
        let inner = h.cmp(
            h.operand(.path(h.path("age", from: "Dog", root: .element(depth: 0)))),
            .greater,
            h.const(.int(3))
        )
        #expect(
            IRPrinter.print(BoundExpression.subqueryCount(path: people.path("dogs"), predicate: inner))
                == "(subquery Person.dogs (> $0:Dog.age 3))"
        )
    }

    @Test("TEXT and GEOWITHIN")
    func search() {
        let clubs = Harness(store: h.store, className: "DogClub")
        let text = BoundPredicate.fullText(
            path: clubs.path("description"),
            query: TextSearch(terms: [
                .init(token: "dog"), .init(token: "walk", isPrefix: true), .init(token: "cat", isExcluded: true),
            ])
        )
        #expect(IRPrinter.print(text) == "(TEXT DogClub.description 'dog walk* -cat')")
        let point = GeoPoint(longitude: 1, latitude: 2.5)
        let geo = BoundPredicate.geoWithin(
            path: clubs.path("regionalOfficeAddresses"),
            quantifier: .all,
            region: .circle(center: point, radius: 0.5)
        )
        #expect(IRPrinter.print(geo) == "(GEOWITHIN ALL DogClub.regionalOfficeAddresses (circle [1.0, 2.5] 0.5))")
        #expect(IRPrinter.print(GeoRegion.box(bottomLeft: point, topRight: point)) == "(box [1.0, 2.5] [1.0, 2.5])")
        #expect(
            IRPrinter.print(GeoRegion.polygon([[point, point], [point]]))
                == "(polygon {[1.0, 2.5], [1.0, 2.5]} {[1.0, 2.5]})"
        )
    }
}
