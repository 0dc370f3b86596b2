import RQLCore
import RQLIR
import RQLStorage
import Testing

/// rql-semantics.md §1–2: null rules and single-valued paths through to-one links.
@Suite("Reference evaluator: null")
struct NullTests {
    @Test("A comparison through a chain of to-one links is false once a link is null")
    func linkChains() throws {
        let h = try Harness(fixture: "links_same_table", className: "Person")
        let expected = [4, 4, 3, 2, 1, 0]
        for (depth, count) in expected.enumerated() {
            let path = (Array(repeating: "buddy", count: depth) + ["age"]).joined(separator: ".")
            #expect(h.count(h.cmp(path, .greater, .int(0))) == count, "\(path)")
        }
    }

    @Test("Through a null to-one link the value is NULL: buddy.name == NULL counts the null links")
    func nullThroughLink() throws {
        let h = try Harness(fixture: "links_same_table", className: "Person")
        #expect(h.count(h.cmp("buddy.name", .equal, .null)) == 1)
        #expect(h.count(h.cmp("buddy.name", .notEqual, .null)) == 4)
        #expect(h.count(h.cmp("buddy.buddy.buddy.name", .equal, .null)) == 3)
        #expect(h.count(h.cmp("buddy", .equal, .null)) == 1)
    }

    @Test("<= and >= are true when both sides are null; < and > never hold with a null")
    func orderedNulls() throws {
        let h = try Harness(fixture: "links_same_table", className: "Person")
        #expect(h.count(h.cmp("buddy.age", .greaterOrEqual, .null)) == 1)
        #expect(h.count(h.cmp("buddy.age", .lessOrEqual, .null)) == 1)
        #expect(h.count(h.cmp("buddy.age", .less, .null)) == 0)
        #expect(h.count(h.cmp(h.const(.null), .greater, h.operand("buddy.age"))) == 0)
    }

    @Test("Binary operators with NULL: a null needle matches everything, LIKE NULL only null values")
    func binaryOperatorsWithNull() throws {
        let h = try Harness(fixture: "nullable_binaries", className: "item")
        let column = "nullable\tdata"
        #expect(h.count(h.cmp(column, .equal, .null)) == 2)
        #expect(h.count(h.cmp(column, .notEqual, .null)) == 3)
        #expect(h.count(h.cmp("data", .equal, .null)) == 0)
        #expect(h.count(h.cmp(column, .contains, .data(Array("f".utf8)))) == 2)
        #expect(h.count(h.cmp(column, .beginsWith, .data(Array("F".utf8)), [.caseInsensitive])) == 1)
        for op in [ComparisonOperator.contains, .beginsWith, .endsWith] {
            #expect(h.count(h.cmp(column, op, .null)) == 5, "\(op)")
        }
        #expect(h.count(h.cmp(column, .like, .null)) == 2)
        // realm-core's `CONTAINS[c] NULL` on binaries (3, skipping null haystacks) and `NULL CONTAINS
        // column` (0) depend on which side is the constant; the binder applies them (see
        // `realmNullHaystackRules`), so the value rule here lets a null needle match everything.
        #expect(h.count(h.cmp(column, .contains, .null, [.caseInsensitive])) == 5)
        #expect(h.count(h.cmp(h.const(.null), .like, h.operand(column))) == 2)
    }

    @Test("A primitive list == NULL means ANY element is null; ALL over an empty list is true")
    func primitiveListsAndNull() throws {
        let h = try Harness(fixture: "primitive_int_lists_12", className: "table")
        #expect(h.count(h.cmp("integers", .equal, .null)) == 0)
        #expect(h.count(h.cmp(h.operand("integers", .all), .equal, h.const(.null))) == 2)
        #expect(h.count(h.cmp(h.operand("integers", Quantifier.none), .equal, h.const(.null))) == 12)
        #expect(h.count(h.cmp("integers_nullable", .equal, .null)) == 1)
        #expect(h.count(h.cmp(h.operand("integers_nullable", .all), .equal, h.const(.null))) == 2)
        #expect(h.count(h.cmp(h.operand("integers_nullable", Quantifier.none), .equal, h.const(.null))) == 11)
    }

    @Test("A list compared with a single-valued property: integers == single_int_nullable is 10, nullable list 11")
    func listVersusProperty() throws {
        let h = try Harness(fixture: "primitive_int_lists_12", className: "table")
        #expect(h.count(h.cmp(h.operand("integers"), .equal, h.operand("single_int"))) == 10)
        #expect(h.count(h.cmp(h.operand("integers"), .equal, h.operand("single_int_nullable"))) == 10)
        #expect(h.count(h.cmp(h.operand("integers_nullable"), .equal, h.operand("single_int_nullable"))) == 11)
    }

    @Test("Through a link list the quantifier applies per linked object: ALL list.integers == 1 is 3")
    func throughLinks() throws {
        let h = try Harness(fixture: "primitive_int_lists_12", className: "table2")
        #expect(h.count(h.cmp("link.integers", .equal, .int(1))) == 1)
        #expect(h.count(h.cmp("link.integers", .equal, .null)) == 0)
        #expect(h.count(h.cmp("list.integers", .equal, .int(1))) == 2)
        // Quantified per linked object's list, then ORed; no linked object is one empty list.
        #expect(h.count(h.cmp(h.operand("list.integers", .all), .equal, h.const(.int(1)))) == 3)
        #expect(h.count(h.cmp(h.operand("list.integers", Quantifier.none), .equal, h.const(.int(1)))) == 2)
    }
}
