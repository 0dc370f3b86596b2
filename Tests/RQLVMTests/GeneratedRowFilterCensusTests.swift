import RQLBytecode
import RQLCore
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import Testing

/// How many generated queries (the differential tests' streams: `Generated` on `Item`, and
/// `SchemaExtension` on 64 generated `Person` schemas) still compile to a program with a
/// `FilterRow` once optimized: a ratchet like `RowFilterCensusTests`, over the shapes the
/// conformance corpus does not hold, printing the queries left.
@Suite("Row-at-a-time filters left, generated queries")
struct GeneratedRowFilterCensusTests {
    /// The most programs that may keep a `FilterRow`; lower it when a shape is lowered.
    static let allowed = 0

    /// The most of `shapes` that may keep a `FilterRow`.
    static let allowedShapes = 0

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
    ]

    @Test("hand-picked shapes outside the corpus with a FilterRow stay at most the recorded number")
    func shapeCensus() throws {
        var rowFilters: [String] = []
        for shape in Self.shapes {
            let store = try DatasetLoader.load(json: shape.json)
            let syntax = try Parser.parse(shape.text, dialect: shape.nsPredicate ? .nsPredicate : .rql)
            let bound = try Binder(schema: store.schema).bind(syntax, className: shape.className)
            if Self.hasRowFilter(try VMHarness.compile(bound, store: store, optimized: true)) {
                rowFilters.append(shape.text)
            }
        }
        print("Shape FilterRow census: \(rowFilters.count) of \(Self.shapes.count) hand-picked shapes")
        for query in rowFilters { print("  FilterRow: \(query)") }
        #expect(rowFilters.count <= Self.allowedShapes, "\(rowFilters.count) shapes keep a FilterRow")
    }

    /// The optimized programs of `texts` bound on `className`, and those with a `FilterRow`.
    static func census<Store: StoreReader>(
        _ texts: [String],
        className: String,
        store: Store
    ) throws -> (programs: Int, rowFilters: [String]) {
        let binder = Binder(schema: store.schema)
        var programs = 0
        var rowFilters: [String] = []
        for text in texts {
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: className)
            else { continue }
            let program = try VMHarness.compile(bound, store: store, optimized: true)
            programs += 1
            if hasRowFilter(program) { rowFilters.append(text) }
        }
        return (programs, rowFilters)
    }

    /// Whether `program`, or a SUBQUERY program inside it, has a `FilterRow`.
    static func hasRowFilter(_ program: Program) -> Bool {
        program.instructions.contains { instruction in
            if instruction.opcode == .filterRow { return true }
            guard instruction.opcode == .countSubquery, program.constants.contains(instruction.p4) else { return false }
            switch program.constants[instruction.p4] {
            case .program(let nested, _), .subquery(let nested, _, _, _): return hasRowFilter(nested)
            default: return false
            }
        }
    }

    @Test("generated programs with a FilterRow stay at most the recorded number")
    func census() throws {
        var programs = 0
        var rowFilters: [String] = []
        // The item stream of `DifferentialTests.run`, both of its generators.
        for seed in UInt64(11)...20 {
            let store = try Generated.store(count: 60, seed: seed)
            var rng = SeededRandom(seed: seed &* 104_729)
            var values = SeededRandom(seed: seed &* 7_919 &+ 1)
            let texts =
                (0..<300).map { _ in Generated.predicate(&rng) + Generated.clauses(&rng) }
                + (0..<100).map { _ in Generated.valuePredicate(&values) + Generated.clauses(&values) }
            let (count, left) = try Self.census(texts, className: "Item", store: store)
            programs += count
            rowFilters += left
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
            let (count, left) = try Self.census(texts, className: "Person", store: store)
            programs += count
            rowFilters += left
        }
        print("Generated FilterRow census: \(rowFilters.count) of \(programs) optimized generated programs")
        for query in rowFilters { print("  FilterRow: \(query)") }
        #expect(programs > 6_000)
        #expect(rowFilters.count <= Self.allowed, "\(rowFilters.count) programs keep a FilterRow")
    }
}
