import RQLCore
import RQLIR
import Testing

/// rql-semantics.md §5: quantifiers, ordered list-vs-list equality and IN.
@Suite("Reference evaluator: quantifiers and lists")
struct QuantifierTests {
    /// `Parser_ListVsList`: two rows, `integers = [1, 2]` and `[11, 5, 9, 5]`, plus an empty list.
    static let listVsList = """
        {
          "schema": { "Table": { "properties": { "name": "string", "integers": "list<int>" } } },
          "objects": { "Table": [
            { "name": "first", "integers": [1, 2] },
            { "name": "second", "integers": [11, 5, 9, 5] },
            { "name": "empty", "integers": [] }
          ] }
        }
        """

    let h: Harness

    init() throws {
        h = try Harness(json: Self.listVsList, className: "Table")
    }

    func names(_ predicate: BoundPredicate) -> [Value] { h.values(predicate, of: "name") }

    @Test("ANY {1,2,3} > ALL integers matches the first row (and the empty list)")
    func anyGreaterThanAll() {
        let p = h.cmp(h.list(Value.ints(1, 2, 3), .any), .greater, h.operand("integers", .all))
        #expect(names(p) == Value.strings("first", "empty"))
    }

    @Test("ALL {3,1,4,3} == NONE integers matches the second row (and the empty list)")
    func allEqualNone() {
        let p = h.cmp(h.list(Value.ints(3, 1, 4, 3), .all), .equal, h.operand("integers", Quantifier.none))
        #expect(names(p) == Value.strings("second", "empty"))
    }

    @Test("NONE {-1,5} < NONE integers matches the second row only")
    func noneLessNone() {
        let p = h.cmp(h.list(Value.ints(-1, 5), Quantifier.none), .less, h.operand("integers", Quantifier.none))
        #expect(names(p) == Value.strings("second"))
    }

    @Test("An unquantified to-many path means ANY; ANY over an empty list is false")
    func impliedAny() {
        #expect(names(h.cmp("integers", .equal, .int(5))) == Value.strings("second"))
        #expect(names(h.cmp("integers", .greater, .int(0))) == Value.strings("first", "second"))
    }

    @Test("ALL and NONE are true for an empty list")
    func emptyCollections() {
        #expect(names(h.cmp(h.operand("integers", .all), .greater, h.const(.int(100)))) == Value.strings("empty"))
        #expect(
            names(h.cmp(h.operand("integers", Quantifier.none), .equal, h.const(.int(5))))
                == Value.strings("first", "empty")
        )
    }

    @Test("Two unquantified lists compare element-wise in order and need equal lengths")
    func orderedEquality() {
        #expect(names(h.cmp(h.list(Value.ints(11, 5, 9, 5)), .equal, h.operand("integers"))) == Value.strings("second"))
        #expect(names(h.cmp(h.list(Value.ints(5, 11, 9, 5)), .equal, h.operand("integers"))).isEmpty)
        #expect(names(h.cmp(h.list([]), .equal, h.operand("integers"))) == Value.strings("empty"))
        #expect(
            names(h.cmp(h.list(Value.ints(1, 2)), .notEqual, h.operand("integers"))) == Value.strings("second", "empty")
        )
        #expect(names(h.cmp(h.list(Value.ints(0, 1)), .less, h.operand("integers"))) == Value.strings("first"))
    }

    @Test("A constant list on the left is quantified like a path")
    func constantListQuantified() {
        let p = h.cmp(h.list(Value.ints(9, 100), .all), .lessOrEqual, h.operand("integers", .any))
        #expect(names(p).isEmpty)
        let q = h.cmp(h.list(Value.ints(9, 11), .all), .equal, h.operand("integers", .any))
        #expect(names(q) == Value.strings("second"))
    }
}

/// `Parser_OperatorIN` vectors, bound by hand: IN is `== ANY`, `!=` against a list means ANY
/// element differs.
@Suite("Reference evaluator: IN")
struct OperatorInTests {
    let h: Harness

    init() throws {
        h = try Harness(fixture: "operator_in", className: "Person")
    }

    @Test("customer_id IN {0, 1, 2} matches 3; IN {} matches nothing")
    func inList() {
        #expect(h.count(h.cmp(h.operand("customer_id"), .equal, h.list(Value.ints(0, 1, 2), .any))) == 3)
        #expect(h.count(h.cmp(h.operand("customer_id"), .equal, h.list([], .any))) == 0)
    }

    @Test("customer_id != {0, 1} matches every row; NOT customer_id IN {0, 1} only one")
    func notEqualIsAny() {
        #expect(h.count(h.cmp(h.operand("customer_id"), .notEqual, h.list(Value.ints(0, 1)))) == 3)
        #expect(h.count(.not(h.cmp(h.operand("customer_id"), .equal, h.list(Value.ints(0, 1))))) == 1)
        #expect(h.count(h.cmp(h.operand("customer_id"), .notEqual, h.list(Value.ints(0)))) == 2)
    }

    @Test("Ordered operators against a list: customer_id > {0, 1} matches 2, <= {-1} none")
    func orderedAgainstList() {
        #expect(h.count(h.cmp(h.operand("customer_id"), .greater, h.list(Value.ints(0, 1)))) == 2)
        #expect(h.count(h.cmp(h.operand("customer_id"), .greaterOrEqual, h.list(Value.ints(2, 3, 4)))) == 1)
        #expect(h.count(h.cmp(h.operand("customer_id"), .lessOrEqual, h.list(Value.ints(-1)))) == 0)
    }

    @Test("Elements of other types never equal: fav_item.name IN {0, null, 'not found', 3.14} is 0")
    func mixedTypeList() {
        let list = h.list([.int(0), .null, .int(-1), .string("not found"), .double(3.14)])
        #expect(h.count(h.cmp(h.operand("fav_item.name"), .equal, list)) == 0)
        #expect(
            h.count(h.cmp(h.operand("fav_item.name"), .equal, h.list(Value.strings("milk", "oranges", "cereal")))) == 2
        )
    }

    @Test("String operators against a list honour [c]: contains[c] {'ILK', 'Range'} matches 2")
    func stringOperatorsAgainstList() {
        #expect(
            h.count(
                h.cmp(h.operand("fav_item.name"), .contains, h.list(Value.strings("ILK", "Range")), [.caseInsensitive])
            ) == 2
        )
        #expect(h.count(h.cmp(h.operand("fav_item.name"), .endsWith, h.list(Value.strings("lk", "EAL", "GeS")))) == 1)
        #expect(h.count(h.cmp(h.operand("fav_item.name"), .like, h.list(Value.strings("*lk", "*zz*")))) == 2)
    }

    @Test("A value IN a to-many path: 'dairy' IN items.allergens.name is 3, 5.5 IN items.price is 2")
    func inPath() {
        #expect(h.count(h.cmp(h.const(.string("dairy")), .equal, h.operand("items.allergens.name"))) == 3)
        #expect(h.count(h.cmp(h.const(.double(5.5)), .equal, h.operand("items.price"))) == 2)
        #expect(h.count(.not(h.cmp(h.const(.double(5.5)), .equal, h.operand("items.price")))) == 1)
        #expect(h.count(h.cmp(h.const(.null), .equal, h.operand("items.price"))) == 0)
        #expect(h.count(h.cmp(h.const(.string("MiLk")), .equal, h.operand("items.name"), [.caseInsensitive])) == 2)
    }

    @Test("Two multi-valued sides with quantifiers: ALL {5.5, 4.0} IN items.price is 1, NONE is 1")
    func quantifiedListInPath() {
        #expect(
            h.count(h.cmp(h.list([.double(5.5), .double(4.0)], .any), .equal, h.operand("items.price", .any))) == 2
        )
        #expect(
            h.count(h.cmp(h.list([.double(5.5), .double(4.0)], .all), .equal, h.operand("items.price", .any))) == 1
        )
        #expect(h.count(h.cmp(h.list([.double(5.5)], .all), .equal, h.operand("items.price", .any))) == 2)
        #expect(
            h.count(
                h.cmp(h.list([.double(5.5), .double(4.0)], Quantifier.none), .equal, h.operand("items.price", .any))
            ) == 1
        )
    }

    @Test("{} == items.price matches nothing, {} != items.price everything (every person has items)")
    func emptyListVsPath() {
        #expect(h.count(h.cmp(h.list([]), .equal, h.operand("items.price"))) == 0)
        #expect(h.count(h.cmp(h.list([]), .notEqual, h.operand("items.price"))) == 3)
        let exact = h.list([.double(5.5), .double(4.0), .double(9.5), .double(6.5)])
        #expect(h.count(h.cmp(exact, .equal, h.operand("items.price"))) == 1)
    }

    @Test("Links flatten before quantifying: ALL items.allergens.name == 'dairy' is 1 (oranges has none)")
    func linksFlatten() {
        #expect(h.count(h.cmp(h.operand("items.allergens.name", .all), .equal, h.const(.string("dairy")))) == 1)
        #expect(
            h.count(h.cmp(h.operand("items.allergens.name", Quantifier.none), .equal, h.const(.string("dairy")))) == 0
        )
        #expect(h.count(h.cmp(h.operand("fav_item.allergens.name", .all), .contains, h.const(.string("dairy")))) == 2)
    }

    @Test("Backlinks and link-to-link paths: 20 IN @links.Person.items.account_balance is 1")
    func backlinksIn() throws {
        let items = try Harness(fixture: "operator_in", className: "Items")
        #expect(
            items.count(
                items.cmp(items.const(.double(20)), .equal, items.operand("@links.Person.items.account_balance"))
            ) == 1
        )
        #expect(h.count(h.cmp(h.operand("fav_item.price"), .equal, h.operand("items.price", .any))) == 2)
        #expect(h.count(h.cmp(h.const(.string("dairy")), .equal, h.operand("fav_item.allergens.name"))) == 2)
    }
}
