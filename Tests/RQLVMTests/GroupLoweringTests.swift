import RQLBytecode
import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLVM
import Testing

/// Comparisons of two multi-valued operands run as `LoadGroups` + `CompareGroups`, and
/// agree with the reference evaluator: two paths compared (element-wise or
/// quantified), arithmetic over to-many paths and constant lists, `obj(…)` against a
/// dictionary's `@values`, `[*]` over nested mixed values, a collection after a subscripted
/// link list. The data has repeated links, null and NaN prices, empty lists, a null in a
/// dictionary of links, mixed values of several types, and runs again with an item and a
/// person deleted (links to them dangle).
@Suite("Lowering of comparisons of two multi-valued operands")
struct GroupLoweringTests {
    static let json = #"""
        {"schema": {
           "Person": {"primaryKey": "name", "properties": {"name": "string", "n": "int?", "items": "list<Item>",
              "pets": "map<Item?>", "value": "mixed", "dict": "map<mixed>", "props": "list<mixed>",
              "link": "list<Person>", "list": "list<int>", "fav": "Item?"}},
           "Item": {"primaryKey": "id", "properties": {"id": "string", "price": "double?", "tags": "list<string>"}}},
         "objects": {
           "Item": [
             {"id": "a", "price": 5.5, "tags": ["x", "y"]},
             {"id": "b", "price": 4, "tags": []},
             {"id": "c", "price": null, "tags": ["x"]},
             {"id": "d", "price": "NaN", "tags": ["z"]},
             {"id": "e", "price": 11, "tags": ["x"]}],
           "Person": [
             {"name": "Ann", "n": 2, "items": ["a", "b", "e"], "pets": {"p": "a", "q": "b", "none": null},
              "value": [[3, 2, 1], [4, 5, 6]], "dict": {"k1": 1, "k2": 2, "k3": [4, 5, 6]},
              "props": [{"one": 1, "two": 2}, 5], "link": ["Bob", "Cid"], "list": [4, 5, 6], "fav": "a"},
             {"name": "Bob", "n": null, "items": ["a", "a", "a"], "pets": {"p": "e"},
              "value": [[9, 8, 7], [1, 2, 5]], "dict": {"k1": 3, "k4": [3, 2, 1]},
              "props": [{"two": 2, "five": 5}], "link": ["Ann"], "list": [1, 2, 3], "fav": null},
             {"name": "Cid", "n": 0, "items": [], "pets": {}, "value": 7, "dict": {},
              "props": [], "link": [], "list": [], "fav": "d"},
             {"name": "Dan", "n": 5, "items": ["c", "d", "b"], "pets": {"p": "c", "q": "d"},
              "value": [[3, 2, 1], "s", {"a": [1]}], "dict": {"k2": [8, 10], "k3": [3, 2, 1]},
              "props": [{"one": "1"}, [5, 6], null], "link": ["Dan", "Ann"], "list": [3, 2, 1], "fav": "b"},
             {"name": "Eve", "n": 1, "items": ["b", "b"], "pets": {"none": null}, "value": null,
              "dict": {"k1": [9]}, "props": [{"one": 1.0}], "link": ["Cid"], "list": [4, 5, 6], "fav": "e"}]}}
        """#

    /// The store as loaded, then with item `b` deleted (the links to it dangle), then with Bob
    /// deleted too.
    static func stores() throws -> [BlockSnapshot] {
        let full = try DatasetLoader.load(json: json)
        let noItem = try full.deleting([RowKey(1)], from: "Item")
        return [full, noItem, try noItem.deleting([RowKey(1)], from: "Person")]
    }

    /// Checks `text` on every store, optimized and not: the group instructions
    /// emitted, and the VM's rows and count equal the reference evaluator's.
    static func lowers(_ text: String, arguments: [QueryArgument] = []) throws {
        for store in try stores() {
            let bound = try LoweringTests.bind(text, store)
            let expected = ReferenceEvaluator(store: store).run(bound)
            for optimized in [true, false] {
                let program = try VMHarness.compile(bound, store: store, optimized: optimized)
                let opcodes = program.instructions.map(\.opcode)
                #expect(opcodes.contains(.loadGroups) && opcodes.contains(.compareGroups), "\(text): \(opcodes)")
                #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
                #expect(try VirtualMachine().count(program, on: store) == expected.count, "\(text) count")
            }
        }
    }

    @Test(
        "two multi-valued paths compared: element by element when unquantified, else quantified",
        arguments: [
            "items.price != items.price", "items.price == items.price", "items.price IN items.price",
            "ALL items.price IN ALL items.price", "ALL items.price IN ANY items.price",
            "NONE items.price IN ANY items.price", "ANY items.price > ALL items.price",
            "ALL items.price >= ANY items.price", "items.price < pets.@values.price",
            "NONE items.price == ALL pets.@values.price", "ANY items.price == ALL link.items.price",
            "ANY link.n < ALL items.price", "list == link.n",
            "NOT items.price != items.price",
        ]
    )
    func twoPaths(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "arithmetic over a to-many path or a constant list maps over every value",
        arguments: [
            "items.price * 2 > items.price", "ALL items.price * 2 > ALL items.price",
            "ALL items.price * 2 > ANY items.price", "NONE items.price * 2 > ANY items.price",
            "ALL {8, 10} / 2 >= ANY items.price", "NONE {1, 2, 3} * 20 <= ANY items.price",
            "ANY {1, 2, 3, 4, 5, 6} + 2 == ANY items.price", "ANY items.price - 1 == 3",
            "ALL items.price / 0 > 1", "items.price + n > 6", "ANY list * 5 == 25",
            "{4, 5, 6} == list * 1", "ANY items.price * 2 IN {11, 8}",
        ]
    )
    func arithmetic(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "obj(…) compared with a dictionary's @values, alone or in a list",
        arguments: [
            "pets.@values == obj('Item', 'a')", "pets.@values != obj('Item', 'a')",
            "ALL pets.@values == obj('Item', 'e')",
            "pets.@values == ANY { obj('Item', 'c'), obj('Item', 'e') }",
            "pets.@values == ANY { obj('Item', 'a'), NULL }",
            "pets.@values == obj('Item', 'missing')", "NONE pets.@values == ANY { obj('Item', 'b') }",
            "pets.@values == { obj('Item', 'a'), obj('Item', 'b'), NULL }",
        ]
    )
    func objects(text: String) throws {
        try Self.lowers(text)
    }

    @Test("obj(…) with an argument for its primary key")
    func objectArgument() throws {
        for store in try Self.stores() {
            let bound = try Binder(schema: store.schema).bind(
                try Parser.parse("pets.@values == obj('Item', $0)"),
                className: "Person",
                arguments: [.value(.string("a"))]
            )
            let expected = ReferenceEvaluator(store: store).run(bound)
            let program = try VMHarness.compile(bound, store: store, optimized: true)
            #expect(try VirtualMachine().run(program, on: store) == expected)
        }
    }

    @Test(
        "[*] over nested mixed lists and dictionaries opens one group per inner collection",
        arguments: [
            "value[*][*] = {1, 2, 3, 4, 5, 6}", "value[*][*] = {3, 2, 1}", "{3, 2, 1} = value[*][*]",
            "value[*][*] = dict[*][*]", "ANY value[*][*] = dict[*][*]", "ALL value[*][*] = dict[*][*]",
            "NONE value[*][*] = dict[*][*]", "value[*][*] != {3, 2, 1}", "value[*] == dict[*]",
            "props[*].one == 1", "props[0][*] == 5", "ALL props[*].one == 1", "props[*][*] == {5, 6}",
            "ANY value[*][*] > ALL list", "value[*][*] == list",
        ]
    )
    func nestedMixed(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "a collection after a subscripted link list",
        arguments: [
            "link[0].list = {4, 5, 6}", "link[LAST].list == {3, 2, 1}", "link[0].list != {1, 2, 3}",
            "link[5].list == {}",
            "ALL link[0].list > ANY {3, 4}", "link[FIRST].items.price == items.price",
        ]
    )
    func subscriptedLinks(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "@type of multi-valued paths, and counts and aggregates of a single-valued side",
        arguments: [
            "ANY props.@type == value.@type", "ALL props.@type == ANY dict.@values.@type",
            "value.@type != props.@type", "props.@type == {'int', 'dictionary'}", "NONE props.@type == value.@type",
            "items.@sum.price * 2 > ANY items.price", "ANY items.price * 2 > items.@max.price",
            "ANY list * 2 > list.@count + 1", "items.@count + 1 == ANY list",
            "ANY {1, 2, 3} == @links.Person.link.@count",
            "ALL items.price < items.@avg.price * 2", "ANY link.list.@count == link.n",
            "ALL link.list.@max > ANY list", "link.list.@count == {3, 3}", "ANY items.tags.@count == ALL list",
            "NONE link.items.@sum.price < ANY items.price", "ANY value[*].@size == {3}",
        ]
    )
    func typesAndLoads(text: String) throws {
        try Self.lowers(text)
    }

    @Test("the verifier rejects group instructions with the wrong constants or registers")
    func rejects() throws {
        let store = try DatasetLoader.load(json: Self.json)
        let bound = try LoweringTests.bind("ALL items.price * 2 > ANY items.price", store)
        let good = try VMHarness.compile(bound, store: store, optimized: true)
        #expect(ProgramVerifier.verify(good).isEmpty)
        let load = try #require(good.instructions.firstIndex { $0.opcode == .loadGroups })
        let compare = try #require(good.instructions.firstIndex { $0.opcode == .compareGroups })
        func rejected(_ change: (inout Program) -> Void) -> Bool {
            var program = good
            change(&program)
            return !ProgramVerifier.verify(program).isEmpty
        }
        // Each reads the other's kind of constant.
        #expect(rejected { $0.instructions[load].p4 = $0.instructions[compare].p4 })
        #expect(rejected { $0.instructions[compare].p4 = $0.instructions[load].p4 })
        // A comparison of a register nothing wrote, or that does not exist.
        #expect(rejected { $0.instructions[compare].p5 = 40 })
        #expect(rejected { $0.instructions[compare].p2 = 40 })
        #expect(rejected { $0.instructions[load].p3 = 40 })
        #expect(rejected { $0.instructions[load].p2 = 1 })
        // An operand that reads a value register nothing wrote before it.
        let loaded = try VMHarness.compile(
            try LoweringTests.bind("items.@sum.price * 2 > ANY items.price", store),
            store: store,
            optimized: true
        )
        #expect(ProgramVerifier.verify(loaded).isEmpty)
        let aggregate = try #require(loaded.instructions.firstIndex { $0.opcode == .aggregateElements })
        let compared = try #require(loaded.instructions.firstIndex { $0.opcode == .compareGroups })
        var late = loaded
        // The aggregate moved after the groups that read it (no jump target moves).
        late.instructions.insert(late.instructions.remove(at: aggregate), at: compared)
        #expect(!ProgramVerifier.verify(late).isEmpty)
    }

    @Test("element-wise comparisons through two to-many hops are not followed path by path")
    func noRunaway() throws {
        // Every path in order would be exponential here: such shapes are not lowered this way.
        let store = try DatasetLoader.load(json: Self.json)
        let bound = try LoweringTests.bind("link.link.link.link.items.price == items.price", store)
        let program = try VMHarness.compile(bound, store: store, optimized: true)
        #expect(!program.instructions.contains { $0.opcode == .loadGroups && Self.inOrder($0, program) })
        #expect(try VirtualMachine().run(program, on: store) == ReferenceEvaluator(store: store).run(bound))
    }

    static func inOrder(_ instruction: Instruction, _ program: Program) -> Bool {
        guard case .groupOperand(_, let sequences) = program.constants[instruction.p4] else { return false }
        return sequences
    }
}

/// Generated comparisons of two operands drawn from the shapes `LoadGroups` computes (paths
/// through link lists and dictionaries, nested mixed `[*]`, subscripted link lists, constant
/// lists, `obj(…)`, arithmetic over them) under every quantifier and operator: whatever
/// codegen makes of them must agree with the reference evaluator. Seeded and reproducible: a
/// failure names the query.
@Suite("Group comparisons, generated")
struct GroupDifferentialTests {
    static let operands = [
        "items.price", "pets.@values.price", "link.n", "list", "value[*][*]", "dict[*][*]", "props[*].one",
        "link[0].list", "{1, 2, 3}", "{5.5, 4}", "items.price * 2", "{8, 10} / 2", "n", "5", "pets.@values",
        "obj('Item', 'a')", "value[*]", "props[0][*]", "list + n", "{}", "link[LAST].items.price", "dict.@values",
        "fav.price", "items.price - items.price", "items.@sum.price", "list.@count * 2", "items.@count",
        "props.@type", "value.@type", "dict.@values.@type", "items.price.@type", "'int'", "{'double', 'null'}",
        "items.@max.price + 1", "@links.Person.link.@count", "link.list.@count", "link.list.@max",
        "items.tags.@count", "link.items.@count", "link.items.@sum.price", "value[*].@size",
    ]
    static let quantifiers = ["", "ANY ", "ALL ", "NONE "]
    static let operators = ["==", "!=", "<", ">=", "IN", "==[c]"]

    @Test("generated comparisons of multi-valued operands agree with the reference evaluator")
    func generated() throws {
        let stores = try GroupLoweringTests.stores()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var checked = 0
        var lowered = 0
        for _ in 0..<1_200 {
            let text =
                Self.quantifiers[next(4)] + Self.operands[next(Self.operands.count)] + " "
                + Self.operators[next(Self.operators.count)] + " " + Self.quantifiers[next(4)]
                + Self.operands[next(Self.operands.count)]
            for store in stores {
                guard let syntax = try? Parser.parse(text),
                    let bound = try? Binder(schema: store.schema).bind(syntax, className: "Person")
                else { continue }
                let expected = ReferenceEvaluator(store: store).run(bound)
                for optimized in [true, false] {
                    let program = try VMHarness.compile(bound, store: store, optimized: optimized)
                    checked += 1
                    if program.instructions.contains(where: { $0.opcode == .compareGroups }) { lowered += 1 }
                    #expect(try VirtualMachine().run(program, on: store) == expected, "\(text) optimized \(optimized)")
                }
            }
        }
        print("group comparisons: \(checked) programs checked, \(lowered) with CompareGroups")
        // Most draws bind (the binder refuses some, such as ordered comparisons of two lists of
        // values), and many of those reach CompareGroups.
        #expect(checked > 2_000)
        #expect(lowered > 1_500)
    }
}
