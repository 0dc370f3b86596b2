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

/// SUBQUERY counts run as `CountSubquery` (the predicate compiled into its own program over the
/// elements' class), and agree with the reference evaluator on data with
/// empty lists, a list holding one object twice, links to deleted objects, null to-one links on
/// the way, nested `ANY $d.toys` paths and nested SUBQUERYs.
@Suite("Lowering of SUBQUERY")
struct SubqueryLoweringTests {
    static let json = #"""
        {"schema": {
           "Person": {"properties": {"name": "string", "age": "int", "dogs": "list<Dog>", "pals": "set<Dog>",
              "partner": "Person?"}},
           "Dog": {"properties": {"name": "string?", "age": "int?", "toys": "list<Toy>", "scores": "list<int>",
              "best": "Toy?", "owners": "linkingObjects<Person.dogs>"}},
           "Toy": {"properties": {"name": "string", "price": "double?", "parts": "list<Toy>"}}},
         "objects": {
           "Toy": [
             {"name": "ball", "price": 2.5, "parts": []}, {"name": "rope", "price": null, "parts": [0]},
             {"name": "bone", "price": 9, "parts": [0, 1]}, {"name": "duck", "price": 1, "parts": [2, 2]}],
           "Dog": [
             {"name": "Rex", "age": 3, "toys": [0, 1], "scores": [1, 5], "best": 0},
             {"name": "Rover", "age": 5, "toys": [], "scores": [], "best": null},
             {"name": null, "age": null, "toys": [2, 2, 3], "scores": [9], "best": 3},
             {"name": "Fido", "age": 1, "toys": [3], "scores": [2, 2], "best": 1},
             {"name": "Rusty", "age": 8, "toys": [1, 2], "scores": [7], "best": 2}],
           "Person": [
             {"name": "Ann", "age": 30, "dogs": [0, 1, 4], "pals": [0, 2], "partner": 1},
             {"name": "Bob", "age": 40, "dogs": [], "pals": [], "partner": null},
             {"name": "Cid", "age": 20, "dogs": [2, 2, 3], "pals": [3], "partner": 0},
             {"name": "Dee", "age": 50, "dogs": [4, 0, 4, 1], "pals": [1, 4], "partner": 2},
             {"name": "Eve", "age": 60, "dogs": [3], "pals": [], "partner": 3}]}}
        """#

    /// The store as loaded, with dog 0 and toy 1 deleted, and both on the block store.
    static func stores() throws -> [any StoreReader] {
        let full = try DatasetLoader.load(json: json)
        let deleted = try full.deleting([RowKey(0)], from: "Dog").deleting([RowKey(1)], from: "Toy")
        return [
            full, deleted, try BlockStore(importing: full).snapshot, try BlockStore(importing: deleted).snapshot,
        ]
    }

    static func check<Store: StoreReader>(
        _ text: String,
        on store: Store,
        className: String = "Person"
    ) throws -> [Program] {
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: className)
        let expected = ReferenceEvaluator(store: store).run(bound)
        var programs: [Program] = []
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
            #expect(try VirtualMachine().count(program, on: store) == expected.count, "\(text) count")
            programs.append(program)
        }
        return programs
    }

    /// The opcodes of `program` and of every program nested in it.
    static func opcodes(_ program: Program) -> [Opcode] {
        var opcodes = program.instructions.map(\.opcode)
        for instruction in program.instructions where program.constants.contains(instruction.p4) {
            switch program.constants[instruction.p4] {
            case .program(let nested, _), .subquery(let nested, _, _, _): opcodes += Self.opcodes(nested)
            default: break
            }
        }
        return opcodes
    }

    static func lowers(_ text: String, className: String = "Person") throws {
        for store in try stores() {
            for program in try check(text, on: store, className: className) {
                let emitted = opcodes(program)
                #expect(emitted.contains(.countSubquery), "\(text) does not emit CountSubquery")
            }
        }
    }

    @Test(
        "a SUBQUERY over the element's own columns",
        arguments: [
            "SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'R').@count > 1",
            "SUBQUERY(dogs, $d, $d.age > 2).@count == 0", "SUBQUERY(dogs, $d, $d.age == nil).@count > 0",
            "SUBQUERY(dogs, $d, $d.name == nil OR $d.age < 2).@count >= 1",
            "SUBQUERY(dogs, $d, NOT $d.name CONTAINS[c] 'r').@count == 2",
            "SUBQUERY(dogs, $d, TRUEPREDICATE).@count == 3",
            "SUBQUERY(dogs, $d, FALSEPREDICATE).@count == 0", "1 < SUBQUERY(dogs, $d, $d.age > 2).@count",
            "SUBQUERY(pals, $p, $p.age > 2).@count > 0", "SUBQUERY(dogs, $d, $d.age > 2).@count > 1 OR age == 40",
            "NOT SUBQUERY(dogs, $d, $d.age > 2).@count > 1",
        ]
    )
    func scalarColumns(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "a SUBQUERY whose predicate follows the element's links and collections",
        arguments: [
            "SUBQUERY(dogs, $d, ANY $d.toys.price > 2).@count > 0",
            "SUBQUERY(dogs, $d, ALL $d.toys.name != 'rope').@count > 1",
            "SUBQUERY(dogs, $d, $d.toys.@count > 1).@count > 0",
            "SUBQUERY(dogs, $d, $d.best.name == 'ball').@count > 0",
            "SUBQUERY(dogs, $d, $d.best.price == nil).@count > 0", "SUBQUERY(dogs, $d, ANY $d.scores > 4).@count == 1",
            "SUBQUERY(dogs, $d, $d.toys.@sum.price > 5).@count > 0",
            "SUBQUERY(partner.dogs, $d, $d.age > 2).@count > 1",
            "SUBQUERY(partner.partner.dogs, $d, $d.age < 4).@count > 0",
        ]
    )
    func paths(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "a SUBQUERY nested in a SUBQUERY",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 2).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.name BEGINSWITH 'b').@count == 0).@count >= 2",
            "SUBQUERY(dogs, $d, $d.age > 1 AND SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, $q.price > 2).@count > 0).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 2).@count > 0 OR $d.age > 4).@count > 1",
        ]
    )
    func nested(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "a SUBQUERY over backlinks: a linkingObjects property or @links",
        arguments: [
            "SUBQUERY(owners, $o, $o.age >= 40).@count > 0", "SUBQUERY(owners, $o, $o.name BEGINSWITH 'D').@count == 2",
            "SUBQUERY(@links.Person.dogs, $o, $o.age < 45).@count > 1",
            "SUBQUERY(@links.Person.pals, $o, $o.age > 0).@count == 0",
            "SUBQUERY(best.parts, $p, $p.price > 2).@count > 0",
            "SUBQUERY(toys, $t, SUBQUERY(@links.Dog.toys, $d, $d.age > 2).@count > 1).@count > 0",
        ]
    )
    func backlinks(query: String) throws {
        try Self.lowers(query, className: "Dog")
    }

    @Test("a correlated SUBQUERY (reading an outer element) runs with the element as a parameter")
    func correlated() throws {
        let text = "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.name == $d.name).@count > 0).@count > 0"
        for store in try Self.stores() {
            for program in try Self.check(text, on: store) {
                #expect(Self.opcodes(program).contains(.loadParameter))
            }
        }
    }

    @Test("EXPLAIN lists a SUBQUERY's program after the program that runs it")
    func listing() throws {
        let store = try DatasetLoader.load(json: Self.json)
        let bound = try Binder(schema: store.schema).bind(
            try Parser.parse(
                "SUBQUERY(dogs, $d, $d.age > 2 AND SUBQUERY($d.toys, $t, $t.price > 2).@count > 0).@count > 1"
            ),
            className: "Person"
        )
        let text = ExplainFormatter.listing(try VMHarness.compile(bound, store: store, optimized: true))
        #expect(text.components(separatedBy: "CountSubquery").count == 3)
        #expect(text.contains("(over Dog):\naddr"))
        #expect(text.contains("(over Toy):\naddr"))
        #expect(text.components(separatedBy: "OpenTable").count == 4)
    }

    @Test("a SUBQUERY program is verified with the program that holds it")
    func verifierChecksNestedPrograms() throws {
        let store = try DatasetLoader.load(json: Self.json)
        let bound = try Binder(schema: store.schema).bind(
            try Parser.parse("SUBQUERY(dogs, $d, $d.age > 2).@count > 1"),
            className: "Person"
        )
        let program = try VMHarness.compile(bound, store: store, optimized: true)
        let address = try #require(program.instructions.firstIndex { $0.opcode == .countSubquery })
        guard case .program(var nested, _) = program.constants[program.instructions[address].p4] else {
            Issue.record("CountSubquery without a program")
            return
        }
        #expect(nested.className == "Dog")
        nested.instructions.removeLast()  // no Halt
        var constants = ConstantPool()
        for entry in program.constants.entries {
            if case .program = entry { _ = constants.add(.program(nested)) } else { _ = constants.add(entry) }
        }
        var broken = program
        broken.constants = constants
        #expect(ProgramVerifier.verify(broken).contains { $0.message.contains("wrong kind of constant") })
    }
}
