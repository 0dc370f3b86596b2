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

/// TEXT, GEOWITHIN and MATCHES run as register instructions (`FilterText`, `FilterGeoWithin`,
/// `FilterMatches`), and agree with the reference evaluator on data with null
/// strings and links, links to deleted objects, empty lists, objects that are not points, on the
/// in-memory store and on the block store (whose full-text index `FilterText` reads).
@Suite("Lowering of TEXT, GEOWITHIN and MATCHES")
struct SearchLoweringTests {
    static let json = #"""
        {"schema": {
           "Doc": {"fulltext": ["text"], "properties": {"text": "string?", "title": "string?", "m": "mixed",
              "parent": "Doc?", "place": "Spot?", "places": "list<Spot>", "friends": "list<Doc>",
              "tags": "list<string?>"}},
           "Spot": {"embedded": true, "properties": {"type": "string", "coordinates": "list<double>"}}},
         "objects": {"Doc": [
           {"text": "Object databases are great", "title": "Alpha", "m": "Ann", "parent": 1,
            "place": {"type": "Point", "coordinates": [0.5, 0.5]},
            "places": [{"type": "Point", "coordinates": [0.5, 0.5]}, {"type": "Point", "coordinates": [5, 5]}],
            "friends": [1, 2], "tags": ["alpha", "Beta"]},
           {"text": "object-oriented DATABASE management", "title": "beta", "m": 3, "parent": 2,
            "place": {"type": "Polygon", "coordinates": [0.5, 0.5]},
            "places": [{"type": "point", "coordinates": [0.1, 0.9]}], "friends": [1], "tags": []},
           {"text": null, "title": null, "m": null, "parent": null, "place": null, "places": [], "friends": [],
            "tags": [null]},
           {"text": "Café crème, managed", "title": "Gamma ray", "m": "Gam", "parent": 0,
            "place": {"type": "Point", "coordinates": [2]},
            "places": [{"type": "Point", "coordinates": [0.2, 0.2, 7]}, {"type": "Point", "coordinates": [0.3, 0.4]}],
            "friends": [0, 3], "tags": ["gamma", "alpha"]},
           {"text": "", "title": "Delta", "m": 1.5, "parent": 1,
            "place": {"type": "Point", "coordinates": [20, 20]},
            "places": [{"type": "Point", "coordinates": [-1, -1]}], "friends": [2], "tags": ["x"]}]}}
        """#

    /// The store as loaded, with Doc 1 deleted (links to it dangle), and both on the block store.
    static func stores() throws -> [any StoreReader] {
        let full = try DatasetLoader.load(json: json)
        let deleted = try full.deleting([RowKey(1)], from: "Doc")
        return [
            full, deleted, try BlockStore(importing: full).snapshot, try BlockStore(importing: deleted).snapshot,
        ]
    }

    /// Checks `text` three ways on every store; returns the optimized programs' opcodes.
    static func check(_ text: String) throws -> [[Opcode]] {
        var emitted: [[Opcode]] = []
        for store in try stores() {
            emitted += try check(text, on: store)
        }
        return emitted
    }

    static func check<Store: StoreReader>(_ text: String, on store: Store) throws -> [[Opcode]] {
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Doc")
        let expected = ReferenceEvaluator(store: store).run(bound)
        var emitted: [[Opcode]] = []
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
            #expect(try VirtualMachine().count(program, on: store) == expected.count, "\(text) count")
            emitted.append(program.instructions.map(\.opcode))
        }
        return emitted
    }

    static func emits(_ text: String, _ opcode: Opcode) throws {
        for opcodes in try check(text) {
            #expect(opcodes.contains(opcode), "\(text) does not emit \(opcode.name)")
        }
    }

    @Test(
        "TEXT on a column of the class is FilterText",
        arguments: [
            "text TEXT 'object'", "text TEXT 'OBJECT databases'", "text TEXT 'object -databases'",
            "text TEXT '-object'", "text TEXT 'manage*'", "text TEXT 'data* -great'", "text TEXT 'cafe'",
            "text TEXT 'crème'", "text TEXT '-zzz'", "NOT text TEXT 'object'",
            "text TEXT 'object' OR title == 'Delta'", "title == 'Alpha' AND text TEXT 'great'",
        ]
    )
    func text(query: String) throws {
        try Self.emits(query, .filterText)
    }

    @Test(
        "TEXT through a to-one link reads the target's string; a null link has no tokens",
        arguments: ["parent.text TEXT 'object'", "parent.text TEXT '-object'", "parent.parent.text TEXT 'manage*'"]
    )
    func textThroughLinks(query: String) throws {
        try Self.emits(query, .filterText)
    }

    @Test(
        "TEXT over a list of links searches every live target's string",
        arguments: [
            "friends.text TEXT 'object'", "friends.text TEXT '-object'", "friends.text TEXT 'cafe -object'",
            "parent.friends.text TEXT 'manage*'", "NOT friends.text TEXT 'database*'",
        ]
    )
    func textOverLinkLists(query: String) throws {
        try Self.emits(query, .filterText)
    }

    @Test("a search folds its terms as the tokenizer folds text; only one-token terms use the index")
    func textSearchTerms() {
        let search = TextSearch(
            normalizing: TextSearch(terms: [.init(token: "Café"), .init(token: "x", isExcluded: true)])
        )
        #expect(search.matches("un café noir"))
        #expect(!search.matches("un café x"))
        #expect(search.isIndexable)
        #expect(!TextSearch(terms: [.init(token: "a-b")]).isIndexable)
    }

    @Test(
        "GEOWITHIN of a to-one link or a list of embedded points is FilterGeoWithin",
        arguments: [
            "place GEOWITHIN geoBox([0.2, 0.2], [0.7, 0.7])", "place GEOWITHIN geoCircle([0.5, 0.5], 0.01)",
            "place GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]})",
            "NOT place GEOWITHIN geoBox([0.2, 0.2], [0.7, 0.7])",
            "ANY places GEOWITHIN geoBox([0, 0], [1, 1])", "ALL places GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE places GEOWITHIN geoBox([0, 0], [1, 1])", "places GEOWITHIN geoCircle([0, 0], 1)",
            "parent.place GEOWITHIN geoBox([0, 0], [1, 1])", "ALL parent.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE parent.places GEOWITHIN geoBox([0, 0], [1, 1])",
            "ANY friends.place GEOWITHIN geoBox([0, 0], [1, 1])", "ALL friends.place GEOWITHIN geoBox([0, 0], [1, 1])",
            "NONE friends.place GEOWITHIN geoBox([0, 0], [1, 1])",
            "ALL parent.friends.place GEOWITHIN geoCircle([0.5, 0.5], 1)",
        ]
    )
    func geoWithin(query: String) throws {
        try Self.emits(query, .filterGeoWithin)
    }

    @Test(
        "MATCHES of one value is FilterMatches",
        arguments: [
            "title MATCHES 'A.*'", "title MATCHES '(?i)gamma.*'", "m MATCHES 'Ga.*'", "parent.title MATCHES '.*a'",
            "NOT title MATCHES 'A.*'", "parent.m MATCHES 'A.*'",
        ]
    )
    func matches(query: String) throws {
        try Self.emits(query, .filterMatches)
    }

    @Test(
        "MATCHES over a collection counts the elements the pattern matches",
        arguments: [
            "ANY tags MATCHES 'a.*'", "ALL tags MATCHES '[a-z]+'", "NONE tags MATCHES 'x'", "tags MATCHES 'g.*'",
            "ANY friends.title MATCHES '.*a'", "ALL friends.title MATCHES '[A-Z].*'",
            "NONE parent.tags MATCHES 'alpha'",
            "ALL parent.friends.m MATCHES 'A.*'",
        ]
    )
    func matchesOverCollections(query: String) throws {
        try Self.emits(query, .countMatching)
    }

    @Test("the verifier rejects a search instruction whose constant is of another kind")
    func verifierChecksConstants() throws {
        let store = try DatasetLoader.load(json: Self.json)
        let bound = try Binder(schema: store.schema).bind(try Parser.parse("text TEXT 'object'"), className: "Doc")
        var program = try VMHarness.compile(bound, store: store, optimized: true)
        let address = try #require(program.instructions.firstIndex { $0.opcode == .filterText })
        let open = try #require(program.instructions.firstIndex { $0.opcode == .openTable })
        program.instructions[address].p4 = program.instructions[open].p4  // a class name
        #expect(ProgramVerifier.verify(program).contains { $0.message.contains("wrong kind of constant") })
    }
}
