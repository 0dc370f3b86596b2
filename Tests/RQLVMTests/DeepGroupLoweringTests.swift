import RQLBytecode
import RQLCodegen
import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLVM
import Testing

/// Shapes through to-many hops that `LoadGroups` / `CompareGroups` and `CompareSequences` run:
/// `ALL … GEOWITHIN` (each thing reached tested, a null link failing),
/// `MATCHES` over lists of strings (each value tested, quantified per group), element-wise
/// comparisons of sequences (decided from folded walks as the reference decides them), and
/// `@count` of a path of links inside arithmetic over another multi-valued path (counted by the
/// weights of a folding walk). Each agrees with the reference evaluator, optimized and not, on the stores as
/// loaded, with objects deleted (dangling links), and on the block store.
@Suite("Lowering through several to-many hops with LoadGroups")
struct DeepGroupLoweringTests {
    /// Checks `text` on `className` three ways on every store, and that the optimized program
    /// (or one nested in it) has `opcode`.
    static func lowers(
        _ text: String,
        className: String,
        stores: [any StoreReader],
        emitting opcode: Opcode = .compareGroups
    ) throws {
        for store in stores {
            for (optimized, program) in try check(text, className: className, on: store) {
                let emitted = SubqueryLoweringTests.opcodes(program)
                if optimized { #expect(emitted.contains(opcode), "\(text) does not emit \(opcode.name)") }
            }
        }
    }

    static func check<Store: StoreReader>(
        _ text: String,
        className: String,
        on store: Store
    ) throws -> [(Bool, Program)] {
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: className)
        let expected = ReferenceEvaluator(store: store).run(bound)
        var programs: [(Bool, Program)] = []
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
            #expect(try VirtualMachine().count(program, on: store) == expected.count, "\(text) count")
            programs.append((optimized, program))
        }
        return programs
    }

    @Test(
        "ALL … GEOWITHIN through two or more to-many hops: a null or dangling link met fails it",
        arguments: [
            "ALL friends.friends.place GEOWITHIN geoBox([0, 0], [1, 1])",
            "ALL friends.friends.place GEOWITHIN geoBox([-5, -5], [30, 30])",
            "NOT ALL friends.friends.place GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ALL friends.friends.places GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ALL friends.friends.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "ALL friends.friends.friends.place GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ALL parent.friends.friends.place GEOWITHIN geoCircle([0.5, 0.5], 0.5)",
            "ALL @links.Doc.friends.friends.place GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ALL friends.@links.Doc.parent.place GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ALL friends.friends.place GEOWITHIN geoBox([-5, -5], [30, 30]) OR title == 'Delta'",
        ]
    )
    func allGeoWithin(query: String) throws {
        try Self.lowers(query, className: "Doc", stores: try SearchLoweringTests.stores())
    }

    @Test("ALL … GEOWITHIN holds for some rows and fails for others, so the test can tell")
    func allGeoWithinDiscriminates() throws {
        let store = try DatasetLoader.load(json: SearchLoweringTests.json)
        let text = "ALL friends.friends.places GEOWITHIN geoBox([-5, -5], [30, 30])"
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Doc")
        let rows = ReferenceEvaluator(store: store).run(bound)
        #expect(!rows.isEmpty && rows.count < 5)
    }

    @Test(
        "TEXT and GEOWITHIN through subscripts test each string or point reached",
        arguments: [
            "places[0] GEOWITHIN geoBox([0, 0], [1, 1])", "places[LAST] GEOWITHIN geoBox([-5, -5], [30, 30])",
            "friends.places[0] GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE friends[0].places GEOWITHIN geoBox([0, 0], [1, 1])",
            "ALL friends[0].places GEOWITHIN geoBox([-5, -5], [30, 30])",
            "ANY friends[0].friends.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE friends[FIRST].friends.place GEOWITHIN geoCircle([0.5, 0.5], 0.5)",
            "friends[0].friends.text TEXT 'object'", "friends.friends[0].text TEXT 'object'",
            "friends.friends[0].text TEXT '-object'", "friends[LAST].parent.text TEXT 'manage*'",
            "NOT friends[0].friends.text TEXT 'great'",
        ]
    )
    func subscriptedSearch(query: String) throws {
        try Self.lowers(query, className: "Doc", stores: try SearchLoweringTests.stores())
    }

    @Test(
        "MATCHES over lists of strings through to-many hops, subscripts and [*], quantified per group",
        arguments: [
            "ANY friends.friends.tags MATCHES 'a.*'", "ALL friends.friends.tags MATCHES '[a-z]+'",
            "NONE friends.friends.tags MATCHES 'a.*'", "ANY friends.tags MATCHES 'a.*'",
            "ALL friends.tags MATCHES 'a.*'", "ANY parent.friends.tags MATCHES '(?i)b.*'",
            "ANY @links.Doc.parent.tags MATCHES 'a.*'", "ALL @links.Doc.friends.tags MATCHES 'x|gamma|alpha'",
            "tags[0] MATCHES 'a.*'", "tags[FIRST] MATCHES 'a.*'", "parent.tags[0] MATCHES 'a.*'",
            "friends[0].tags[0] MATCHES 'a.*'", "ANY friends.tags[0] MATCHES 'a.*'", "m[*] MATCHES 'A.*'",
            "friends.m[*] MATCHES 'A.*'", "NOT ANY friends.friends.tags MATCHES 'a.*'",
        ]
    )
    func matches(query: String) throws {
        try Self.lowers(query, className: "Doc", stores: try SearchLoweringTests.stores())
    }

    @Test(
        "element-wise comparisons of key paths through two or three to-many hops are CompareSequences",
        arguments: [
            "dogs.owners.dogs.age == dogs.age", "dogs.owners.dogs.age != dogs.age",
            "dogs.toys.price == dogs.toys.price", "dogs.toys.price != dogs.toys.price",
            "dogs.toys.parts.price != dogs.toys.price", "dogs.toys.parts.name == dogs.toys.name",
            "dogs.toys.price > dogs.toys.price", "dogs.owners.name BEGINSWITH dogs.owners.name",
            "dogs.toys.name == {'ball', 'rope'}", "dogs.toys.price != {2.5, null}",
            "pals.toys.name == dogs.toys.name", "dogs.owners.dogs.name ==[c] pals.owners.dogs.name",
            "dogs.toys.parts.price == {2.5}", "NOT dogs.owners.dogs.age == dogs.owners.dogs.age",
        ]
    )
    func elementwise(query: String) throws {
        try Self.lowers(
            query,
            className: "Person",
            stores: try SubqueryLoweringTests.stores(),
            emitting: .compareSequences
        )
    }

    @Test(
        "element-wise comparisons of arithmetic through to-many hops follow every path, as the reference does",
        arguments: [
            "dogs.toys.price * 2 != dogs.toys.parts.price", "dogs.toys.price + 0 == dogs.toys.price",
            "dogs.owners.dogs.age - 1 < dogs.owners.dogs.age", "{1, 2} == dogs.owners.dogs.age * 1",
            "dogs.owners.dogs.owners.dogs.toys.price * 2 == dogs.toys.price",
            "dogs.owners.dogs.owners.dogs.owners.dogs.age + 1 != dogs.age",
        ]
    )
    func elementwiseArithmetic(query: String) throws {
        try Self.lowers(query, className: "Person", stores: try SubqueryLoweringTests.stores())
    }

    @Test(
        "element-wise comparisons of key paths through four or more to-many hops",
        arguments: [
            "dogs.owners.dogs.toys.price == dogs.toys.price", "dogs.owners.dogs.toys.price != dogs.toys.price",
            "dogs.owners.dogs.owners.dogs.age != dogs.age", "dogs.owners.dogs.owners.dogs.age == dogs.age",
            "dogs.owners.dogs.owners.age == dogs.owners.age", "dogs.owners.dogs.owners.age != dogs.owners.age",
            "dogs.toys.parts.parts.price == dogs.toys.price", "dogs.owners.dogs.toys.parts.name == {'ball'}",
            "dogs.owners.dogs.toys.name == {'ball', 'rope', 'bone', 'duck', 'duck'}",
            "dogs.owners.dogs.age == dogs.owners.dogs.age", "dogs.owners.dogs.age != dogs.owners.dogs.age",
            "dogs.owners.dogs.age.@type == dogs.owners.dogs.age.@type",
            "dogs.toys.price.@type != dogs.owners.dogs.age.@type",
            "dogs.owners.dogs.age <= dogs.owners.dogs.scores", "pals.owners.pals.name BEGINSWITH[c] dogs.owners.name",
            "{1, 3} == dogs.owners.dogs.age", "NOT dogs.owners.dogs.name == pals.owners.pals.name",
        ]
    )
    func sequences(query: String) throws {
        try Self.lowers(
            query,
            className: "Person",
            stores: try SubqueryLoweringTests.stores(),
            emitting: .compareSequences
        )
    }

    @Test("sequences whose lengths differ are decided without following every path")
    func noRunaway() throws {
        // A person with one dog it owns twice, many times over: 2^16 paths, one object each hop.
        let dogs = Array(repeating: "0", count: 2).joined(separator: ", ")
        let json = """
            {"schema": {
               "Person": {"properties": {"name": "string", "dogs": "list<Dog>"}},
               "Dog": {"properties": {"name": "string", "owners": "linkingObjects<Person.dogs>"}}},
             "objects": {"Dog": [{"name": "Rex"}], "Person": [{"name": "Ann", "dogs": [\(dogs)]}]}}
            """
        let store = try DatasetLoader.load(json: json)
        let path = Array(repeating: "dogs.owners", count: 8).joined(separator: ".") + ".dogs.name"
        for (text, matches) in [("\(path) == {'Rex'}", 0), ("\(path) != {'Rex'}", 1), ("\(path) != dogs.name", 1)] {
            let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Person")
            #expect(ReferenceEvaluator(store: store).run(bound).count == matches, "\(text)")
            let program = try VMHarness.compile(bound, store: store, optimized: true)
            #expect(program.instructions.contains { $0.opcode == .compareSequences })
            #expect(try VirtualMachine().run(program, on: store).count == matches, "\(text)")
        }
    }

    @Test(
        "@count / @size of a subscripted mixed value (a nested list or dictionary, a string) per row",
        arguments: [
            "value[0].@size == 3", "dict.k3.@size == 3", "dict['k3'].@count + n > 3", "props[0].@size == 2",
            "link.value[1].@count > 2", "ALL link.value[1].@count > 2", "value[0].@size + 1 == 4",
            "link.props[0].@size == 2", "ALL link.dict.k3.@size == 3", "NONE link.dict.k1.@size > 0",
            "dict.k1.@size == n",
        ]
    )
    func mixedSizes(query: String) throws {
        let stores = try GroupLoweringTests.stores()
        try Self.lowers(query, className: "Person", stores: stores + [try BlockStore(importing: stores[1]).snapshot])
    }

    @Test(
        "a count of a path of links inside arithmetic over another multi-valued path",
        arguments: [
            "dogs.toys.@count + dogs.age > 8", "dogs.toys.@count * 2 < dogs.age",
            "ALL dogs.age + dogs.toys.@count > 3", "NONE dogs.age - dogs.toys.@count < 0",
            "dogs.owners.dogs.@count - dogs.age == 5", "dogs.toys.parts.@count + dogs.age >= 4",
            "dogs.toys.parts.@count + dogs.toys.price > 3", "ANY dogs.age == dogs.toys.@count + 2",
            "dogs.toys.@count + dogs.scores > 10", "pals.toys.@count + dogs.toys.price < 5",
        ]
    )
    func countInArithmetic(query: String) throws {
        try Self.lowers(query, className: "Person", stores: try SubqueryLoweringTests.stores())
    }
}
