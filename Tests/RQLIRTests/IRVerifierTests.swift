import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import Testing

/// The IR verifier reports broken invariants as messages and never traps.
@Suite("IR verifier")
struct IRVerifierTests {
    let h: Harness
    let verifier: IRVerifier

    init() throws {
        h = Harness(store: try DemoDataset.load(), className: "Person")
        verifier = IRVerifier(schema: h.store.schema)
    }

    @Test("Well-formed queries have no problems")
    func wellFormed() {
        let inner = h.cmp(
            h.operand(.path(h.path("age", from: "Dog", root: .element(depth: 0)))),
            .greater,
            h.const(.int(3))
        )
        let query = h.query(
            .and([
                h.cmp("dogs.age", .greater, .int(2)),
                h.cmp(h.operand("dogs.citiesVisited", .all), .equal, h.const(.string("x"))),
                h.cmp(h.operand(.subqueryCount(path: h.path("dogs"), predicate: inner)), .equal, h.const(.int(1))),
                h.cmp("dogs[0].favoriteParksByCity['Paris']", .equal, .null),
                h.cmp("address.city", .equal, .string("Paris")),
                h.cmp("@links.DogClub.members.name", .equal, .string("x")),
            ]),
            [.sort([BoundSortKey(path: h.path("address.city"), ascending: true)]), .limit(2)]
        )
        #expect(verifier.verify(query) == [])
    }

    @Test("An unknown class is reported")
    func unknownClass() {
        #expect(verifier.verify(BoundQuery(className: "Cat", predicate: .constant(true))) == ["unknown class 'Cat'"])
    }

    @Test("A property step with a wrong name, index or class is reported")
    func badPropertySteps() {
        func problems(_ step: PathStep) -> [String] {
            let path = BoundPath(steps: [step], isMultiValued: false, rootClassName: "Person", valueType: .int)
            return verifier.verify(h.query(h.cmp(h.operand(.path(path)), .equal, h.const(.int(1)))))
        }
        #expect(
            problems(.property(className: "Person", index: 1, name: "agee")) == [
                "Person.agee: .agee property 1 of 'Person' is 'name', not 'agee'"
            ]
        )
        #expect(
            problems(.property(className: "Person", index: 99, name: "age")) == [
                "Person.age: .age index 99 out of range for 'Person'"
            ]
        )
        #expect(
            problems(.property(className: "Dog", index: 1, name: "age")) == [
                "Person.age: .age names class 'Dog' but the path is in 'Person'"
            ]
        )
        #expect(
            problems(.backlinks(className: "Dog", property: "owners")) == [
                "Person.@links.Dog.owners: .@links.Dog.owners 'Dog.owners' does not link to 'Person'"
            ]
        )
    }

    @Test("Multi-valuedness must agree with the steps, and quantifiers need a multi-valued operand")
    func multiValuedness() {
        var path = h.path("dogs.age")
        path.isMultiValued = false
        let wrongPath = verifier.verify(h.query(h.cmp(h.operand(.path(path), multi: false), .equal, h.const(.int(1)))))
        #expect(wrongPath == ["Person.dogs.age: marked single-valued but its steps are not"])
        let quantified = verifier.verify(h.query(h.cmp(h.operand("age", .all), .equal, h.const(.int(1)))))
        #expect(quantified == ["quantifier ALL on single-valued operand Person.age"])
        let operand = verifier.verify(
            h.query(h.cmp(h.operand(.path(h.path("dogs.age")), multi: false), .equal, h.const(.int(1))))
        )
        #expect(operand == ["operand Person.dogs.age is marked single-valued but is multi-valued"])
    }

    @Test("SUBQUERY element depths must be within the nesting and start in the element's class")
    func elementRoots() {
        let outside = h.cmp(
            h.operand(.path(h.path("age", from: "Dog", root: .element(depth: 0)))),
            .equal,
            h.const(.int(1))
        )
        #expect(verifier.verify(h.query(outside)) == ["$0:Dog.age: element depth 0 outside 0 SUBQUERY levels"])
        let wrongClass = h.cmp(
            h.operand(.path(h.path("name", from: "Person", root: .element(depth: 0)))),
            .equal,
            h.const(.string("x"))
        )
        let query = h.query(
            h.cmp(h.operand(.subqueryCount(path: h.path("dogs"), predicate: wrongClass)), .equal, h.const(.int(1)))
        )
        #expect(verifier.verify(query).first == "$0:Person.name: starts in 'Dog', not 'Person'")
        let primitive = h.query(
            h.cmp(
                h.operand(.subqueryCount(path: h.path("dogs.citiesVisited"), predicate: .constant(true))),
                .equal,
                h.const(.int(1))
            )
        )
        #expect(verifier.verify(primitive) == ["SUBQUERY path Person.dogs.citiesVisited does not reach objects"])
    }

    @Test("Clauses: multi-valued sort keys, negative limits, empty sorts")
    func clauses() {
        let query = h.query(
            .constant(true),
            [.sort([BoundSortKey(path: h.path("dogs.age"), ascending: true)]), .sort([]), .limit(-1)]
        )
        #expect(
            verifier.verify(query) == [
                "SORT key Person.dogs.age is multi-valued", "SORT without keys", "LIMIT(-1) is negative",
            ]
        )
    }

    @Test("TEXT terms and GEO regions are checked")
    func searchChecks() {
        let text = BoundPredicate.fullText(path: h.path("name"), query: TextSearch(terms: []))
        #expect(verifier.verify(h.query(text)) == ["TEXT on Person.name has no terms"])
        let open = GeoRegion.polygon([
            [
                GeoPoint(longitude: 0, latitude: 0), GeoPoint(longitude: 1, latitude: 0),
                GeoPoint(longitude: 1, latitude: 1), GeoPoint(longitude: 0, latitude: 1),
            ]
        ])
        let geo = BoundPredicate.geoWithin(path: h.path("address"), quantifier: .any, region: open)
        #expect(verifier.verify(h.query(geo)).count == 1)
        let circle = BoundPredicate.geoWithin(
            path: h.path("name"),
            quantifier: .any,
            region: .circle(center: GeoPoint(longitude: 0, latitude: 100), radius: -1)
        )
        #expect(verifier.verify(h.query(circle)).count == 3)
    }
}
