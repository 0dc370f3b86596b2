import RQLBytecode
import RQLCodegen
import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import Testing

/// Every generated query (the differential tests' streams: `Generated` on `Item`, and
/// `SchemaExtension` on 64 generated `Person` schemas) and every hand-picked shape below compiles,
/// optimized, to a program: codegen has a register form for each predicate, there is no
/// row-at-a-time fallback. The conformance corpus is checked the same way by
/// `ThreeWayConformanceTests` (a refusal is `QueryError.engine`). Queries codegen refuses
/// (`CodegenError.unsupported`) are printed by name.
@Suite("Register forms for generated queries and hand-picked shapes")
struct GeneratedRegisterFormCoverageTests {
    /// Shapes neither the corpus nor the generators draw, on the lowering tests' data: the
    /// dataset, the class, whether the text is NSPredicate, the query.
    static let shapes: [(json: String, className: String, nsPredicate: Bool, text: String)] = [
        (SubqueryLoweringTests.json, "Person", false, "SUBQUERY(dogs.toys, $t, $t.price > 2).@count > 1"),
        (SubqueryLoweringTests.json, "Dog", false, "SUBQUERY(owners.dogs, $d, $d.age > 4).@count > 2"),
        (SubqueryLoweringTests.json, "Person", false, "SUBQUERY(dogs, $d, $d.age > 2).@count > dogs.@count / 2"),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.name == $d.name).@count > 0).@count > 0"
        ),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, $d.age * 10 < age).@count > 0"),
        (SubqueryLoweringTests.json, "Dog", true, "SUBQUERY(toys, $t, $t == best).@count > 0"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.toys.@sum.price > 5"),
        (SubqueryLoweringTests.json, "Toy", false, "parts[*].@count > 1"),
        (SubqueryLoweringTests.json, "Person", false, "ALL dogs[FIRST].scores > 1"),
        (SearchLoweringTests.json, "Doc", false, "friends.friends.text TEXT 'object'"),
        (SearchLoweringTests.json, "Doc", false, "ANY friends.places GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SearchLoweringTests.json, "Doc", false, "NONE friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SearchLoweringTests.json, "Doc", false, "ALL friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SubqueryLoweringTests.json, "Person", false, "SUBQUERY(dogs, $d, $d.age > 2).@count IN {1, 2}"),
        (SubqueryLoweringTests.json, "Person", false, "SUBQUERY(dogs.toys, $t, $t.price > 2).@count + 1 > 2"),
        (
            SubqueryLoweringTests.json, "Person", false,
            "ANY dogs.scores == SUBQUERY(dogs.toys, $t, $t.price != nil).@count"
        ),
        (SubqueryLoweringTests.json, "Person", false, "dogs.@links.@count IN {3, 5, 6}"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.toys.@sum.price < 5"),
        (SubqueryLoweringTests.json, "Person", false, "ALL dogs.toys.@sum.price > 1"),
        (SearchLoweringTests.json, "Doc", false, "ALL friends.friends.places GEOWITHIN geoBox([0, 0], [1, 1])"),
        (
            SearchLoweringTests.json, "Doc", false,
            "ALL @links.Doc.friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])"
        ),
        (SearchLoweringTests.json, "Doc", false, "ALL friends.friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SearchLoweringTests.json, "Doc", false, "ANY friends.friends.tags MATCHES 'a.*'"),
        (SearchLoweringTests.json, "Doc", false, "ALL @links.Doc.parent.tags MATCHES 'a.*'"),
        (SearchLoweringTests.json, "Doc", false, "parent.tags[0] MATCHES 'a.*'"),
        (SearchLoweringTests.json, "Doc", false, "friends.m[*] MATCHES 'A.*'"),
        (SearchLoweringTests.json, "Doc", false, "friends.places[0] GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SearchLoweringTests.json, "Doc", false, "NONE friends[0].places GEOWITHIN geoBox([0, 0], [1, 1])"),
        (SearchLoweringTests.json, "Doc", false, "friends[0].friends.text TEXT 'object'"),
        (GroupLoweringTests.json, "Person", false, "dict.k3.@size == 3"),
        (GroupLoweringTests.json, "Person", false, "link.value[1].@count > 2"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.owners.dogs.toys.price * 2 == dogs.toys.price"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.age == dogs.age"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.toys.parts.price != dogs.toys.price"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.name == {'Rex', 'Fido'}"),
        (SubqueryLoweringTests.json, "Person", false, "pals.owners.dogs.age < dogs.owners.dogs.age"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.toys.price == dogs.toys.price"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.owners.dogs.age != dogs.age"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.toys.@count + dogs.age > 8"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.owners.dogs.@count - dogs.age == 5"),
        (SubqueryLoweringTests.json, "Person", false, "ALL dogs.age + dogs.toys.@count > 3"),
        (SubqueryLoweringTests.json, "Person", false, "dogs.toys.parts.@count + dogs.toys.price > 3"),
        (SubqueryLoweringTests.json, "Person", false, "NONE dogs.age == dogs.owners.dogs.toys.@count"),
        // Correlated SUBQUERYs reading an outside operand that is not one value.
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price == $d.scores).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price IN $d.scores).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ALL $d.scores > $t.price).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price == $d.scores[0]).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.parts.price == $d.age).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t IN $d.toys).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, $o.pals.age == $d.scores).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, $q.price IN $d.scores).@count > 0).@count > 0).@count > 0"
        ),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, $d.age IN pals.age).@count > 0"),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, ALL pals.age > $d.age).@count > 0"),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, $d.scores == pals.age).@count > 0"),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, $d == partner.dogs[0]).@count > 0"),
        (SubqueryLoweringTests.json, "Dog", true, "SUBQUERY(toys, $t, $t IN owners.dogs.toys).@count > 0"),
        // A nested SUBQUERY over an outside collection, reading the outer element.
        (
            SubqueryLoweringTests.json, "Person", true,
            "SUBQUERY(dogs, $d, SUBQUERY(dogs, $e, $e.age > $d.age).@count == 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", true,
            "SUBQUERY(dogs, $d, SUBQUERY(pals, $p, $p == $d).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($d.toys, $x, $x.price > $t.price).@count > 1).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", true,
            "SUBQUERY(dogs, $d, SUBQUERY(@links.Person.partner, $q, $q.age > $d.age * 10).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", true,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY(dogs, $e, $e.best == $t).@count > 0).@count > 0).@count > 0"
        ),
        // MATCHES of an outside operand that is not one value: its tests passed in as groups.
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ANY $d.toys.name MATCHES 'b.*').@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $d.toys[0].name MATCHES 'b.*').@count > 0).@count > 0"
        ),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, ANY pals.name MATCHES 'R.*').@count > 0"),
        // Arithmetic with an outside operand that is not one value: its groups' values passed in.
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.scores > 3).@count > 0).@count > 0"
        ),
        (
            SubqueryLoweringTests.json, "Person", false,
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.scores[0] > 3).@count > 0).@count > 0"
        ),
        (SubqueryLoweringTests.json, "Person", true, "SUBQUERY(dogs, $d, $d.age + pals.age > 3).@count > 0"),
        (
            SearchLoweringTests.json, "Doc", false,
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, $f.text TEXT 'object').@count > 0).@count > 0"
        ),
        (
            SearchLoweringTests.json, "Doc", false,
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, ALL $f.places GEOWITHIN geoBox([0, 0], [1, 1])).@count > 0).@count > 0"
        ),
    ]

    @Test("every hand-picked shape outside the corpus compiles")
    func shapeCoverage() throws {
        var unsupported: [String] = []
        for shape in Self.shapes {
            let store = try DatasetLoader.load(json: shape.json)
            let syntax = try Parser.parse(shape.text, dialect: shape.nsPredicate ? .nsPredicate : .rql)
            let bound = try Binder(schema: store.schema).bind(syntax, className: shape.className)
            if let predicate = try Self.unsupported(bound, store: store) {
                unsupported.append("\(shape.text): \(predicate)")
            }
        }
        for query in unsupported { print("  unsupported: \(query)") }
        #expect(unsupported.isEmpty, "\(unsupported.count) of \(Self.shapes.count) shapes have no register form")
    }

    /// The predicate codegen finds no register form for in `bound`'s optimized plan, or nil.
    static func unsupported<Store: StoreReader>(_ bound: BoundQuery, store: Store) throws -> String? {
        do {
            _ = try VMHarness.compile(bound, store: store, optimized: true)
            return nil
        } catch CodegenError.unsupported(let predicate) {
            return predicate
        }
    }

    /// How many of `texts` bind on `className`, and those codegen refuses.
    static func coverage<Store: StoreReader>(
        _ texts: [String],
        className: String,
        store: Store
    ) throws -> (programs: Int, unsupported: [String]) {
        let binder = Binder(schema: store.schema)
        var programs = 0
        var unsupported: [String] = []
        for text in texts {
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: className)
            else { continue }
            programs += 1
            if let predicate = try Self.unsupported(bound, store: store) { unsupported.append("\(text): \(predicate)") }
        }
        return (programs, unsupported)
    }

    @Test("every generated program compiles")
    func generatedCoverage() throws {
        var programs = 0
        var unsupported: [String] = []
        // The item stream of `DifferentialTests.run`, both of its generators.
        for seed in UInt64(11)...20 {
            let store = try Generated.store(count: 60, seed: seed)
            var rng = SeededRandom(seed: seed &* 104_729)
            var values = SeededRandom(seed: seed &* 7_919 &+ 1)
            let texts =
                (0..<300).map { _ in Generated.predicate(&rng) + Generated.clauses(&rng) }
                + (0..<100).map { _ in Generated.valuePredicate(&values) + Generated.clauses(&values) }
            let (count, refused) = try Self.coverage(texts, className: "Item", store: store)
            programs += count
            unsupported += refused
        }
        // The schema stream of `GeneratedSchemaDifferentialTests.run`.
        for seed in UInt8(0)..<64 {
            let extensionProperties = SchemaExtension(seed: seed)
            let json = SeededGenerator.peopleJSON(
                count: 24,
                seed: UInt64(seed),
                extra: extensionProperties.datasetExtension
            )
            let store = try DatasetLoader.load(json: json)
            var random = SeededRandom(seed: UInt64(seed) &* 6_151 &+ 17)
            let texts = (0..<GeneratedSchemaDifferentialTests.queriesPerSchema).map { _ in
                extensionProperties.query(&random)
            }
            let (count, refused) = try Self.coverage(texts, className: "Person", store: store)
            programs += count
            unsupported += refused
        }
        for query in unsupported { print("  unsupported: \(query)") }
        #expect(programs > 6_000)
        #expect(unsupported.isEmpty, "\(unsupported.count) of \(programs) programs have no register form")
    }
}
