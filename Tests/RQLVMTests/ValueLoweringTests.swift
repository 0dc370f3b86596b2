import RQLBytecode
import RQLCore
import RQLVM
import Testing

/// Comparisons of two computed values (`age > owner.age`) and arithmetic (`age * 2 + 1 > n`)
/// run as `CompareValues`, `Arithmetic` and `LoadConstant`, and agree with
/// the reference evaluator on nulls, null and dangling links, Int64 overflow, division by zero
/// and mixed values that are not numbers.
@Suite("Lowering of value comparisons and arithmetic")
struct ValueLoweringTests {
    static let json = #"""
        {"schema": {"Person": {"properties": {"name": "string", "age": "int?", "n": "int", "d": "double?",
              "price": "decimal128?", "m": "mixed", "owner": "Person?", "scores": "list<int>",
              "tags": "list<string?>", "things": "set<mixed>"}}},
         "objects": {"Person": [
           {"name": "Ann", "age": 30, "n": 9223372036854775807, "d": 1.5, "price": "1.5", "m": 2, "owner": 1,
            "scores": [1, 5], "tags": ["ab", "", null], "things": [1, "x", "yz"]},
           {"name": "Bob", "age": null, "n": 0, "d": null, "price": null, "m": "s", "owner": 2, "scores": [],
            "tags": [], "things": []},
           {"name": "Cid", "age": 7, "n": -9223372036854775808, "d": -0.0, "price": "2", "m": null, "owner": null,
            "scores": [7], "tags": ["é"], "things": [2, null]},
           {"name": "Dan", "age": 0, "n": 2, "d": 2.0, "price": "-1", "m": 2.5, "owner": 0, "scores": [2, 2],
            "tags": ["a", "b"], "things": ["a"]},
           {"name": "Eve", "age": 30, "n": 30, "d": 30.0, "price": "30", "m": 30, "owner": 3, "scores": [],
            "tags": [null], "things": [3.5]}]}}
        """#

    @Test(
        "two paths compare register with register",
        arguments: [
            "age > owner.age", "age == owner.age", "owner.age != age", "n >= age", "d == age", "price < owner.price",
            "m == owner.m", "owner.owner.name == name", "name BEGINSWITH[c] owner.name", "owner == owner.owner",
            "age == scores.@count", "scores.@sum > owner.age", "owner.m != d", "NOT age < owner.age",
            "age > owner.age OR n == 0",
        ]
    )
    func compareValues(text: String) throws {
        try LoweringTests.emits(text, [.compareValues], in: Self.json)
    }

    @Test(
        "arithmetic over registers and constants follows ValueArithmetic",
        arguments: [
            "age + 1 > 30", "n + 1 > 0", "n - 1 < 0", "n * 2 > 0", "age / 0 > 1", "age / n == 0", "d * 2 == 3",
            "price + 1 > 2", "m + 1 == 3", "m * 2 > 4", "age + owner.age > 30", "age * 2 + 1 == n",
            "1 - age < owner.age", "NOT age + 1 > 30", "age - age == 0",
            "scores.@count * 10 > age", "n / -1 > 0",
        ]
    )
    func arithmetic(text: String) throws {
        try LoweringTests.emits(text, [.arithmetic], in: Self.json)
    }

    @Test(
        "@type of one value compared with type names",
        arguments: [
            "m.@type == 'int'", "m.@type == 'numeric'", "m.@type != 'string'", "m.@type IN {'double', 'null'}",
            "owner.m.@type == 'null'", "'string' == m.@type", "owner.owner.m.@type != 'Numeric'",
            "m.@type == {'int', 'string'}", "m.@type != {'int', 'string'}", "NOT owner.m.@type == 'int'",
        ]
    )
    func filterType(text: String) throws {
        try LoweringTests.emits(text, [.filterType], in: Self.json)
    }

    @Test(
        "@size of a string or mixed value is its byte length, 0 for null, nothing for a number",
        arguments: [
            "name.@size > 2", "name.@count == 3", "owner.name.@size == 3", "m.@size == 0", "NOT m.@size > 0",
            "owner.owner.name.@size < 4", "name.@size == owner.name.@size", "owner.m.@size != 1",
        ]
    )
    func valueSize(text: String) throws {
        try LoweringTests.emits(text, [.valueSize], in: Self.json)
    }

    @Test(
        "@links.@count of the object or of one reached through to-one links counts every link to it",
        arguments: [
            "@links.@count > 0", "@links.@count == 0", "owner.@links.@count >= 2", "owner.owner.@links.@count == 1",
            "@links.@count == owner.@links.@count", "@links.@count + 1 > age", "NOT owner.@links.@count == 1",
        ]
    )
    func countBacklinks(text: String) throws {
        try LoweringTests.emits(text, [.countBacklinks], in: Self.json)
    }

    @Test(
        "ANY, ALL and NONE over the sizes of a collection's strings count the matching elements",
        arguments: [
            "ANY tags.length > 1", "ALL tags.length == 1", "NONE tags.length == 0", "tags.length >= 2",
            "ANY owner.tags.length == 0", "ALL owner.owner.tags.length < 3", "ANY things.length > 1",
            "ALL things.length == 1", "NONE things.length == 0",
        ]
    )
    func elementSizes(text: String) throws {
        try LoweringTests.emits(text, [.countMatching], in: Self.json)
    }

    @Test("the verifier rejects a type test with a list of non-names or an ordering operator")
    func rejectsType() throws {
        let good = try LoweringTests.program("owner.m.@type == 'int'", in: Self.json)[0]
        #expect(ProgramVerifier.verify(good).isEmpty)
        let at = good.instructions.firstIndex { $0.opcode == .filterType }!
        var ordered = good
        ordered.instructions[at].p3 = ComparisonOperator.less.code
        #expect(!ProgramVerifier.verify(ordered).isEmpty)
        var numbers = good
        numbers.instructions[at].p4 = good.instructions.first { $0.opcode == .gatherLink }!.p4
        #expect(!ProgramVerifier.verify(numbers).isEmpty)
        var unset = good
        unset.instructions[at].p5 = 1
        #expect(!ProgramVerifier.verify(unset).isEmpty)
    }

    @Test("the verifier rejects malformed arithmetic, constants and register comparisons")
    func rejects() throws {
        let good = try LoweringTests.program("age * 2 > owner.age + d", in: Self.json)[0]
        #expect(ProgramVerifier.verify(good).isEmpty)
        func address(_ opcode: Opcode) -> Int { good.instructions.firstIndex { $0.opcode == opcode }! }
        func rejected(_ change: (inout Program) -> Void) -> Bool {
            var program = good
            change(&program)
            return !ProgramVerifier.verify(program).isEmpty
        }
        #expect(rejected { $0.instructions[address(.arithmetic)].p5 = 9 })
        #expect(rejected { $0.instructions[address(.arithmetic)].p4 = 40 })
        #expect(rejected { $0.instructions[address(.compareValues)].p3 = 40 })
        #expect(rejected { $0.instructions[address(.compareValues)].p4 = Int32($0.valueRegisterCount) })
        #expect(rejected { $0.instructions[address(.loadConstant)].p2 = 1 })
        let sized = try LoweringTests.program("owner.name.@size > 2", in: Self.json)[0]
        let size = sized.instructions.firstIndex { $0.opcode == .valueSize }!
        var unset = sized
        unset.instructions[size].p4 = 0
        #expect(!ProgramVerifier.verify(unset).isEmpty)
        let linked = try LoweringTests.program("owner.@links.@count > 1", in: Self.json)[0]
        let links = linked.instructions.firstIndex { $0.opcode == .countBacklinks }!
        var column = linked
        column.instructions[links].p2 = 3
        #expect(!ProgramVerifier.verify(column).isEmpty)
        var ungathered = linked
        ungathered.instructions[links].p5 = UInt16(linked.positionRegisterCount + 1)
        #expect(!ProgramVerifier.verify(ungathered).isEmpty)
        var unwritten = sized
        unwritten.instructions[size].p2 = unwritten.instructions[size].p3
        #expect(!ProgramVerifier.verify(unwritten).isEmpty)
        #expect(rejected { $0.instructions[address(.loadConstant)].p4 = $0.instructions[address(.gatherLink)].p4 })
        // The comparison moved before the arithmetic that writes its left register.
        #expect(
            rejected { program in
                let compare = program.instructions.remove(at: address(.compareValues))
                program.instructions.insert(compare, at: address(.arithmetic))
            }
        )
        let listing = ExplainFormatter.listing(good)
        #expect(listing.contains("Arithmetic") && listing.contains("CompareValues") && listing.contains("LoadConstant"))
    }
}
