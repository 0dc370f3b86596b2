import RQLBytecode
import RQLCodegen
import RQLCore
import RQLDatasets
import RQLIR
import RQLOptimizer
import RQLSema
import RQLStorage
import RQLSyntax
import RQLVM
import Testing

/// What codegen makes of typical plans: the QUERY PLAN rows (real `Explain` instructions), the
/// typed kernels chosen for plain column comparisons, and the listing's columns.
@Suite("Codegen and EXPLAIN")
struct ExplainTests {
    static let json = #"""
        {"schema": {"Person": {"primaryKey": "id", "indexed": ["city", "age"],
           "properties": {"id": "int", "age": "int", "score": "double", "name": "string", "city": "string",
                          "active": "bool", "nickname": "string?", "dogs": "list<Dog>"}},
                    "Dog": {"properties": {"name": "string", "age": "int"}}},
         "objects": {"Person": [
           {"id": 1, "age": 30, "score": 0.5, "name": "Ann", "city": "Oslo", "active": true, "nickname": null, "dogs": [0]},
           {"id": 2, "age": 41, "score": 0.9, "name": "Bob", "city": "Rome", "active": false, "nickname": "b", "dogs": []},
           {"id": 3, "age": 35, "score": 0.7, "name": "Cid", "city": "Oslo", "active": true, "nickname": "c", "dogs": [0, 1]}],
          "Dog": [{"name": "Rex", "age": 3}, {"name": "Max", "age": 9}]}}
        """#

    static func program(_ text: String, optimized: Bool = true) throws -> (Program, BlockSnapshot, BoundQuery) {
        let store = try DatasetLoader.load(json: json)
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Person")
        return (try VMHarness.compile(bound, store: store, optimized: optimized), store, bound)
    }

    static func opcodes(_ program: Program) -> [Opcode] { program.instructions.map(\.opcode) }

    @Test("a full scan with typed filters: one instruction per comparison, none row at a time")
    func scan() throws {
        let (program, store, bound) = try Self.program("score > 0.6 AND active == true AND name BEGINSWITH 'C'")
        #expect(
            ExplainFormatter.planTree(program) == """
                QUERY PLAN
                |--SCAN Person (~3 rows)
                |--FILTER (> Person.score 0.6) (cost=1 selectivity=0.667)
                |--FILTER (== Person.active true) (cost=1 selectivity=0.667)
                `--FILTER (BEGINSWITH Person.name 'C') (cost=2 selectivity=0.375)
                """
        )
        let ops = Self.opcodes(program)
        #expect(ops.contains(.filterDouble) && ops.contains(.filterBool) && ops.contains(.filterString))
        #expect(try VirtualMachine().run(program, on: store) == ReferenceEvaluator(store: store).run(bound))
        #expect(try VirtualMachine().run(program, on: store).count == 1)
    }

    /// 400 people in 20 cities: enough rows for an index probe to beat a scan.
    static func people() throws -> BlockSnapshot {
        let people = (0..<400).map { i in
            #"{"id": \#(i), "age": \#(i % 90), "score": \#(Double(i % 97) / 97), "name": "P\#(i)", "city": "City\#(i % 20)", "active": true, "nickname": null, "dogs": []}"#
        }
        let schema = #"""
            {"schema": {"Person": {"primaryKey": "id", "indexed": ["city", "age"],
               "properties": {"id": "int", "age": "int", "score": "double", "name": "string", "city": "string",
                              "active": "bool", "nickname": "string?", "dogs": "list<Dog>"}},
                        "Dog": {"properties": {"name": "string", "age": "int"}}},
             "objects": {"Person": [
            """#
        return try DatasetLoader.load(json: schema + people.joined(separator: ",\n") + #"], "Dog": []}}"#)
    }

    @Test("an index probe, then the residual, then top-N: the plan rows name each")
    func indexAndTopN() throws {
        let store = try Self.people()
        let text = "city == 'City7' AND score > 0.1 SORT(score DESC) LIMIT(1)"
        let bound = try Binder(schema: store.schema).bind(try Parser.parse(text), className: "Person")
        let program = try VMHarness.compile(bound, store: store, optimized: true)
        #expect(
            ExplainFormatter.planRows(program) == [
                "SEARCH Person USING INDEX city (city=?) (~18.8 rows)",
                "FILTER (> Person.score 0.1) (cost=1 selectivity=0.875)",
                "USE TOP-N SORT FOR SORT(score DESC) LIMIT(1)",
            ]
        )
        #expect(Self.opcodes(program).contains(.seekIndexEqual))
        #expect(Self.opcodes(program).contains(.topN))
        let keys = try VirtualMachine().run(program, on: store)
        #expect(keys == ReferenceEvaluator(store: store).run(bound))
        #expect(keys.count == 1)
    }

    @Test(
        "constants under OR and NOT need no row-at-a-time filter",
        arguments: [
            ("FALSEPREDICATE OR FALSEPREDICATE", 0), ("TRUEPREDICATE OR FALSEPREDICATE", 3),
            ("NOT (FALSEPREDICATE OR TRUEPREDICATE)", 0), ("NOT FALSEPREDICATE AND (FALSEPREDICATE OR age > 32)", 2),
        ]
    )
    func constants(text: String, count: Int) throws {
        let (program, store, bound) = try Self.program(text, optimized: false)
        #expect(try VirtualMachine().run(program, on: store) == ReferenceEvaluator(store: store).run(bound))
        #expect(try VirtualMachine().count(program, on: store) == count)
    }

    @Test("two list paths compared load their groups and compare them, beside a null test")
    func groupComparison() throws {
        let (program, store, bound) = try Self.program(
            "dogs.age == dogs.age OR nickname == nil",
            optimized: false
        )
        let ops = Self.opcodes(program)
        // The OR mixes the group comparison with a null test: both branches, then the union.
        #expect(ops.contains(.loadGroups) && ops.contains(.compareGroups))
        #expect(ops.contains(.filterNull) && ops.contains(.selectUnion))
        #expect(try VirtualMachine().run(program, on: store) == ReferenceEvaluator(store: store).run(bound))
        // Two list paths compared element by element: every row, Bob's empty list too, equals itself.
        #expect(try VirtualMachine().count(program, on: store) == 3)
    }

    @Test("LIMIT without SORT stops the scan: Emit carries the limit")
    func limitStopsScan() throws {
        let (program, store, _) = try Self.program("age > 0 LIMIT(2)")
        let emit = try #require(program.instructions.first { $0.opcode == .emit })
        #expect(emit.p5 == 1 && emit.p3 == 2)
        #expect(try VirtualMachine().run(program, on: store) == [RowKey(0), RowKey(1)])
        // Counting ignores LIMIT, as realm-core's count does.
        #expect(try VirtualMachine().count(program, on: store) == 3)
    }

    @Test("the listing has the fixed columns and one row per instruction")
    func listing() throws {
        let (program, _, _) = try Self.program("age > 30")
        let lines = ExplainFormatter.listing(program).split(separator: "\n")
        #expect(lines[0].hasPrefix("addr  opcode"))
        #expect(lines.count == program.instructions.count + 1)
        #expect(ExplainFormatter.rows(program).map(\.opcode).last == "Halt")
    }

    @Test("a query over positions keeps their order and repeats, and honours the access path")
    func positions() throws {
        let (program, store, bound) = try Self.program("city == 'Oslo'")
        let positions = [2, 0, 2, 1, 7, -1]
        let keys = try VirtualMachine().run(program, on: store, positions: positions)
        #expect(keys == ReferenceEvaluator(store: store).run(bound, positions: positions))
        #expect(keys == [RowKey(2), RowKey(0), RowKey(2)])
    }
}
