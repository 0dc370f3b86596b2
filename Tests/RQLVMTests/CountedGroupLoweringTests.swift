import RQLBytecode
import RQLTestSupport
import Testing

/// Counts compared through `LoadGroups` + `CompareGroups`: a SUBQUERY
/// count (loaded first by the walking `CountSubquery`) against a list, a multi-valued operand
/// or in arithmetic over a to-many path, and `@count` per owner through two to-many links. Each
/// is checked three ways against the reference evaluator on the data of
/// `SubqueryLoweringTests` (repeated links, a deleted dog and toy, null links).
@Suite("Lowering of counts compared as groups")
struct CountedGroupLoweringTests {
    static func lowers(_ text: String, className: String = "Person") throws {
        for program in try WalkedSubqueryLoweringTests.check(text, className: className) {
            let emitted = SubqueryLoweringTests.opcodes(program)
            #expect(emitted.contains(.compareGroups), "\(text) does not emit CompareGroups")
        }
    }

    @Test(
        "a SUBQUERY count against a list or a multi-valued operand",
        arguments: [
            "SUBQUERY(dogs, $d, $d.age > 2).@count IN {1, 2}",
            "SUBQUERY(dogs.toys, $t, $t.price > 2).@count IN {0, 2}",
            "NOT SUBQUERY(dogs, $d, $d.age > 2).@count IN {0, 3}",
            "SUBQUERY(dogs, $d, $d.age > 2).@count == ANY dogs.age",
            "SUBQUERY(dogs, $d, $d.age > 2).@count < ALL dogs.scores",
            "ANY dogs.scores == SUBQUERY(dogs.toys, $t, $t.price != nil).@count",
            "NONE dogs.age > SUBQUERY(dogs.toys, $t, $t.price > 1).@count",
            "SUBQUERY(dogs, $d, $d.age > age / 20).@count IN {1, 2}",
        ]
    )
    func subqueryAgainstMany(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "arithmetic on a SUBQUERY count over a to-many path",
        arguments: [
            "SUBQUERY(dogs.toys, $t, $t.price > 2).@count + 1 > 2",
            "SUBQUERY(dogs.toys, $t, $t.price > 2).@count * 2 == SUBQUERY(pals, $p, $p.age > 2).@count",
            "SUBQUERY(dogs.toys, $t, $t.price > 2).@count - 1 IN {0, 1}",
        ]
    )
    func subqueryArithmetic(text: String) throws {
        try Self.lowers(text)
    }

    @Test(
        "@links.@count of a multi-valued side, one total a row",
        arguments: [
            "dogs.@links.@count IN {3, 5, 6}", "dogs.@links.@count + dogs.age > 8",
            "pals.@links.@count * 2 IN {2, 4}", "NOT dogs.@links.@count IN {0}",
        ]
    )
    func backlinkCounts(text: String) throws {
        try Self.lowers(text)
    }
}
