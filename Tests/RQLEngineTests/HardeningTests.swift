import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

/// Regressions of the hostile run of issue 6: answers that were wrong and errors that misled.
@Suite("Hardening: wrong answers and misleading errors")
struct HardeningTests {
    static let demo: BlockSnapshot? = try? DemoDataset.load()

    func count(_ query: String, _ className: String = "Dog", store: BlockSnapshot? = demo) throws -> Int {
        let store = try #require(store)
        let engine = QueryEngine.reference
        return engine.run(try engine.compile(query, className: className, store: store), on: store).count
    }

    func failure(_ query: String, _ className: String = "Dog", store: BlockSnapshot? = demo) throws -> QueryError {
        let store = try #require(store)
        do {
            _ = try QueryEngine.reference.compile(query, className: className, store: store)
        } catch {
            return error
        }
        throw Expectation.bound(query)
    }

    enum Expectation: Error { case bound(String) }

    // MARK: - Integer overflow

    @Test("integer arithmetic that overflows Int64 carries on exactly (realm-core wraps: 1 of 20, then none)")
    func arithmeticOverflow() throws {
        #expect(try count("age + 9223372036854775807 > 0") == 20)
        #expect(try count("-9223372036854775808 / (age - age - 1) > 0") == 20)
        #expect(try count("age * 9223372036854775807 >= 0") == 20)
        #expect(try count("age - 9223372036854775807 - 9223372036854775807 < 0") == 20)
        #expect(try count("age + 9223372036854775807 > 9223372036854775807") == 19)
    }

    @Test("@sum and @avg of ints that overflow Int64 are exact (realm-core: negative sum, positive average)")
    func aggregateOverflow() throws {
        let store = try DatasetLoader.load(
            json: """
                {"schema": {"T": {"properties": {"ints": "list<int>"}}},
                 "objects": {"T": [{"ints": [9223372036854775807, 1]}, {"ints": [-9223372036854775808, -1]}]}}
                """
        )
        #expect(try count("ints.@sum > 0", "T", store: store) == 1)
        #expect(try count("ints.@sum > 9223372036854775807", "T", store: store) == 1)
        #expect(try count("ints.@sum < -9223372036854775807", "T", store: store) == 1)
        #expect(try count("ints.@avg < 0", "T", store: store) == 1)
        #expect(try count("ints.@avg == -4611686018427387904.5", "T", store: store) == 1)
    }

    // MARK: - GEOWITHIN

    static let places = """
        {"schema": {"Place": {"properties": {"name": "string", "location": "Point?"}},
                    "Point": {"embedded": true, "properties": {"type": "string", "coordinates": "list<double>"}}},
         "objects": {"Place": [
           {"name": "wild", "location": {"type": "Point", "coordinates": [500, 500]}},
           {"name": "beyond the pole", "location": {"type": "Point", "coordinates": [0, 95]}},
           {"name": "east of the antimeridian", "location": {"type": "Point", "coordinates": [175, 5]}},
           {"name": "west of the antimeridian", "location": {"type": "Point", "coordinates": [-175, 5]}},
           {"name": "null island", "location": {"type": "Point", "coordinates": [0, 5]}},
           {"name": "not a number", "location": {"type": "Point", "coordinates": [{"$double": "NaN"}, 0]}}
         ]}}
        """

    func places(_ query: String) throws -> [String] {
        let store = try DatasetLoader.load(json: Self.places)
        let compiled = try QueryEngine.reference.compile(query, className: "Place", store: store)
        let table = try #require(store.table(named: "Place"))
        return QueryEngine.reference.run(compiled, on: store).compactMap { key in
            guard let position = table.position(of: key),
                case .string(let name) = table.value(at: position, property: 0)
            else { return nil }
            return name
        }
    }

    @Test("stored points with impossible coordinates are within no region")
    func impossiblePoints() throws {
        #expect(try places("location GEOWITHIN geoBox([-60, -80], [60, 80])") == ["null island"])
        for shape in [
            "geoBox([-10, -10], [10, 10])", "geoCircle([0, 90], 0.5)", "geoCircle([140, -40], 3.14)",
            "geoPolygon({[-10, -10], [10, -10], [10, 89], [-10, 89], [-10, -10]})",
        ] {
            let found = try places("location GEOWITHIN \(shape)")
            #expect(!found.contains("wild") && !found.contains("beyond the pole"), "\(shape): \(found)")
            #expect(!found.contains("not a number"), "\(shape): \(found)")
        }
    }

    @Test(
        "shapes realm-core rejects are errors with its reasons",
        arguments: [
            ("geoPolygon({[0, 0], [1, 1], [0, 0]})", "Ring 0 must have at least 3 different vertices"),
            ("geoPolygon({[0, 0], [0, 0], [1, 1], [1, 1], [0, 0]})", "2 unique vertices were provided"),
            ("geoBox([0, 0], [0, 1])", "Ring 0 must have at least 3 different vertices"),
            ("geoPolygon({[0, 0], [1, 0], [0, 1], [1, 1], [0, 0]})", "Ring 0 is not valid: 'Edges 1 and 3 cross'"),
            ("geoPolygon({[0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 1], [0, 0]})", "Ring 0 is not valid"),
            (
                "geoPolygon({[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]}, {[5, 5], [6, 5], [6, 6], [5, 5]})",
                "Secondary ring 1 not contained by first exterior ring",
            ),
            (
                "geoPolygon({[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]}, {[1, 1], [3, 1], [3, 3], [1, 1]},"
                    + " {[2, 0.5], [2.5, 2.5], [1.5, 2.5], [2, 0.5]})",
                "Polygon isn't valid",
            ),
            ("geoPolygon({[0, 0], [1, 0], [1, 1], [0, 1]})", "Ring is not closed"),
            ("geoCircle([0, 0], -1)", "The radius of a circle must be a non-negative number"),
            ("geoBox([0, 0], [1, 91])", "Longitude/latitude is out of bounds, lng: 0 lat: 91"),
        ]
    )
    func rejectedShapes(shape: String, reason: String) throws {
        let error = try failure(
            "location GEOWITHIN \(shape)",
            "Place",
            store: try DatasetLoader.load(json: Self.places)
        )
        #expect(error.category == "geo_bad_argument")
        #expect(error.message.contains(reason), "\(error.message)")
    }

    @Test(
        "a box more than 180° of longitude wide is, as realm-core normalises its ring, the box across the antimeridian"
    )
    func wideBox() throws {
        // realm-core makes a box the polygon of its corners; polygon edges take the short arc and a
        // ring stands for the smaller region it bounds, so [-170, 170] wraps through ±180.
        #expect(
            try places("location GEOWITHIN geoBox([-170, 0], [170, 10])") == [
                "east of the antimeridian", "west of the antimeridian",
            ]
        )
        #expect(try places("location GEOWITHIN geoBox([-10, 0], [10, 10])") == ["null island"])
        // The corners in the other order give the same ring.
        #expect(try places("location GEOWITHIN geoBox([10, 10], [-10, 0])") == ["null island"])
    }

    // MARK: - Object literals that find nothing

    @Test("obj(…) with a key no object has is a null link, as realm-core (observed): it matches null links")
    func objectLiteralOfNothing() throws {
        let noToy = try count("favoriteToy == nil")
        #expect(noToy > 0)
        #expect(try count("favoriteToy == obj('DogToy', oid(000000000000000000000000))") == noToy)
        #expect(try count("favoriteToy != obj('DogToy', oid(000000000000000000000000))") == 20 - noToy)
        #expect(try count("favoriteToy == obj('DogToy', oid(11223344556677889900aabb))") == 5)
    }

    // MARK: - Messages

    @Test("a predicate after SORT, DISTINCT or LIMIT says that they must come last")
    func clauseBeforePredicate() throws {
        for query in ["TRUEPREDICATE LIMIT(1) AND age > 2", "age > 1 SORT(age ASC) OR age < 5"] {
            let error = try failure(query)
            #expect(error.category == "syntax")
            #expect(error.message.contains("SORT, DISTINCT and LIMIT must come last"), "\(error.message)")
        }
    }

    @Test("dates before 1900 work in both literal forms; the 1884 club is found by its founding date")
    func oldDates() throws {
        #expect(try count("founded == 1884-09-17@00:00:00", "DogClub") == 1)
        #expect(try count("founded == 1884-09-17T00:00:00", "DogClub") == 1)
        #expect(try count("founded == T-2691446400:0", "DogClub") == 1)
        #expect(try count("founded < 1900-01-01@00:00:00", "DogClub") == 1)
        #expect(try count("founded > 0001-01-01@00:00:00", "DogClub") == 4)
    }

    @Test("@type of a property that is not mixed is explained, not 'Cannot compare two constants'")
    func staticType() throws {
        let error = try failure("age.@type == 'int'")
        #expect(!error.message.contains("Cannot compare two constants"))
        #expect(error.message.contains("'age.@type' is always 'int'"))
    }

    @Test("@count on a scalar names neither @size alone nor the wrong operation")
    func countOfScalar() throws {
        let error = try failure("age.@count > 1")
        #expect(error.category == "unsupported_operation")
        #expect(error.message.hasPrefix("'age' is of type 'int', which has no size"))
        #expect(!error.message.contains("Operation '@size'"))
    }

    @Test("a string compared with an objectId reads cleanly: no doubled quotes, 'an objectId'")
    func objectIdMismatch() throws {
        let error = try failure("id == 'abc'", "DogToy")
        #expect(!error.message.contains("''"))
        #expect(error.message.contains("'abc' is not an objectId"), "\(error.message)")
        #expect(try failure("age == 'x'").message.contains("'x' is not an int"))
    }

    @Test("an embedded class cannot be queried, as realm-swift refuses objects(EmbeddedType.self)")
    func embeddedClass() throws {
        let error = try failure("TRUEPREDICATE", "Address")
        #expect(error.category == "embedded_class")
        #expect(error.message.contains("class 'Address' is embedded"))
    }
}
