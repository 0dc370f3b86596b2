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

/// Which instructions codegen emits for paths through links and collections of values (link gathers,
/// loads, counts and aggregates), that they agree with the reference evaluator on data with
/// nulls along the path, empty collections and links to deleted rows, and that the verifier
/// rejects malformed uses of them.
@Suite("Lowering of link paths and collections")
struct LoweringTests {
    static let json = #"""
        {"schema": {"Person": {"properties": {"name": "string", "owner": "Person?", "friend": "Person?",
              "friends": "list<Person>",
              "scores": "list<int>", "tags": "set<string>", "price": "decimal128?", "m": "mixed",
              "dict": "map<int>"}}},
         "objects": {"Person": [
           {"name": "Ann", "owner": 1, "friend": null, "friends": [1, 1, 2], "scores": [1, 5, 9], "tags": ["a", "b"], "price": "1.5",
            "m": 2, "dict": {"x": 1}},
           {"name": "Bob", "owner": 2, "friend": 0, "friends": [], "scores": [], "tags": [], "price": null, "m": "s",
            "dict": {}},
           {"name": "Cid", "owner": null, "friend": 3, "friends": [3], "scores": [7], "tags": ["A"], "price": "2", "m": null,
            "dict": {"a": 3, "b": 4}},
           {"name": "Dan", "owner": 0, "friend": 2, "friends": [1], "scores": [2, 2], "tags": ["c"], "price": "-1", "m": 2.0,
            "dict": {"z": 0}}]}}
        """#

    static func store(_ json: String = json) throws -> BlockSnapshot { try DatasetLoader.load(json: json) }

    static func bind(_ text: String, _ store: BlockSnapshot) throws -> BoundQuery {
        try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Person")
    }

    /// The program for `text` (optimized or not), checked against the reference evaluator on the
    /// store as loaded and with Bob deleted (Ann's owner and Dan's friend then dangle).
    static func program(_ text: String, in json: String = json) throws -> [Program] {
        var programs: [Program] = []
        let full = try store(json)
        let stores = [full, try full.deleting([RowKey(1)], from: "Person")]
        for store in stores {
            let bound = try bind(text, store)
            let expected = ReferenceEvaluator(store: store).run(bound)
            for optimized in [true, false] {
                let program = try VMHarness.compile(bound, store: store, optimized: optimized)
                #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
                programs.append(program)
            }
        }
        return programs
    }

    static func emits(_ text: String, _ opcodes: [Opcode], in json: String = json) throws {
        for program in try program(text, in: json) {
            let emitted = program.instructions.map(\.opcode)
            for opcode in opcodes { #expect(emitted.contains(opcode), "\(text) does not emit \(opcode.name)") }
        }
    }

    @Test(
        "a to-one link path gathers the targets and compares their column",
        arguments: [
            "owner.name == 'Bob'", "owner.name == nil", "owner.name != nil", "owner.owner.name BEGINSWITH[c] 'c'",
            "owner.friend.name == nil", "'Ann' == owner.name", "owner.price > 1", "owner.owner.owner.m == 2",
        ]
    )
    func gatherLink(text: String) throws {
        try Self.emits(text, [.gatherLink, .loadColumn, .filterValue])
    }

    @Test(
        "a to-one link compared with null loads the link, null when its target is gone",
        arguments: ["owner == nil", "owner != nil", "owner.friend == nil", "owner.owner.friend != nil"]
    )
    func loadLink(text: String) throws {
        try Self.emits(text, [.loadColumn, .filterValue])
    }

    @Test(
        "IN over a value through links, or of a column without an IN kernel, is one hash lookup per row",
        arguments: [
            "owner.name IN {'Bob', 'Cid'}", "price IN {1.5, 2, nil}", "owner.owner.m IN {2, 's'}",
            "owner.price IN {1.5, nil}", "m IN {2.0, 's', nil}",
        ]
    )
    func filterValueIn(text: String) throws {
        try Self.emits(text, [.loadColumn, .filterValueIn])
    }

    @Test(
        "a decimal or mixed column is loaded and compared by value",
        arguments: ["price > 1", "price != 2", "m == 2", "m != 's'", "2 <= price"]
    )
    func loadColumn(text: String) throws {
        try Self.emits(text, [.loadColumn, .filterValue])
    }

    @Test(
        "@count and @size of a collection of values count its elements",
        arguments: [
            "scores.@count > 1", "tags.@size == 0", "owner.scores.@count == 0", "dict.@count >= 1",
            "friends.@count == 1", "owner.friends.@count > 1",
        ]
    )
    func countElements(text: String) throws {
        try Self.emits(text, [.countElements, .filterValue])
    }

    @Test(
        "ANY, ALL and NONE over a collection of values count the matching elements",
        arguments: [
            "ANY scores > 4", "ALL scores > 1", "NONE scores == 2", "scores == 7", "ALL owner.scores > 1",
            "ANY tags ==[c] 'a'", "NONE owner.owner.tags BEGINSWITH 'a'", "ANY dict == 3", "ALL scores == nil",
            "ANY friends.name == 'Bob'", "friends.price > 1", "ALL friends.price > 1", "NONE owner.friends.m == 2",
        ]
    )
    func countMatching(text: String) throws {
        try Self.emits(text, [.countMatching, .filterValue])
    }

    @Test(
        "@sum, @avg, @min and @max of a collection of values aggregate per row",
        arguments: [
            "scores.@sum > 4", "scores.@avg == 2", "owner.scores.@min < 2", "scores.@max == nil",
            "friends.@sum.price > 2", "friends.@avg.price == 1.5", "owner.friends.@max.price > 1",
            "friends.@min.m == 2",
        ]
    )
    func aggregateElements(text: String) throws {
        try Self.emits(text, [.aggregateElements, .filterValue])
    }

    @Test("each comparison through links gets its own position and value registers")
    func registers() throws {
        let program = try Self.program("owner.name == 'Bob' OR owner.owner.name == 'Ann'")[0]
        #expect(program.positionRegisterCount == 3)
        #expect(program.valueRegisterCount == 2)
        let listing = ExplainFormatter.listing(program)
        #expect(listing.contains("GatherLink") && listing.contains("FilterValue"))
    }

    @Test("the verifier rejects malformed gathers, loads and value filters")
    func rejects() throws {
        let good = try Self.program("owner.owner.name == 'Bob' AND ANY scores > 4 AND scores.@sum > 1")[0]
        #expect(ProgramVerifier.verify(good).isEmpty)
        func address(_ opcode: Opcode, _ nth: Int = 0) -> Int {
            good.instructions.indices.filter { good.instructions[$0].opcode == opcode }[nth]
        }
        func rejected(_ change: (inout Program) -> Void) -> Bool {
            var program = good
            change(&program)
            return !ProgramVerifier.verify(program).isEmpty
        }
        // A position register that does not exist, or is read before any gather writes it.
        #expect(rejected { $0.instructions[address(.gatherLink)].p3 = 9 })
        #expect(rejected { $0.instructions[address(.gatherLink)].p5 = 2 })
        #expect(rejected { $0.instructions[address(.loadColumn)].p5 = 7 })
        // A value register that does not exist, or a filter that reads one nothing wrote.
        #expect(rejected { $0.instructions[address(.loadColumn)].p3 = 12 })
        #expect(
            rejected { program in
                // The load moved after the filter that reads its register.
                let load = program.instructions.remove(at: address(.loadColumn))
                let reader = program.instructions.firstIndex { $0.opcode == .filterValue && $0.p2 == load.p3 }!
                program.instructions.insert(load, at: reader + 1)
            }
        )
        #expect(rejected { $0.instructions[address(.filterValue)].p2 = -1 })
        // Constants of the wrong kind.
        #expect(rejected { $0.instructions[address(.gatherLink)].p4 = $0.instructions[address(.filterValue)].p4 })
        #expect(rejected { $0.instructions[address(.countMatching)].p4 = $0.instructions[address(.gatherLink)].p4 })
        #expect(
            rejected { $0.instructions[address(.aggregateElements)].p4 = $0.instructions[address(.countMatching)].p4 }
        )
        #expect(rejected { $0.instructions[address(.filterValue)].p4 = $0.instructions[address(.countMatching)].p4 })
        // An unused operand set, a bad operator.
        #expect(rejected { $0.instructions[address(.loadColumn)].p4 = 0 })
        #expect(rejected { $0.instructions[address(.filterValue)].p3 = 40 })
        let member = try Self.program("owner.name IN {'Bob', 'Cid'}")[0]
        let filter = member.instructions.firstIndex { $0.opcode == .filterValueIn }!
        var wrongList = member
        wrongList.instructions[filter].p4 = member.instructions.first { $0.opcode == .gatherLink }!.p4
        #expect(!ProgramVerifier.verify(wrongList).isEmpty)
        var unwritten = member
        unwritten.valueRegisterCount += 1
        unwritten.instructions[filter].p2 = Int32(unwritten.valueRegisterCount - 1)
        #expect(!ProgramVerifier.verify(unwritten).isEmpty)
    }
}
