import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import Testing

/// rql-semantics.md §3, §6–8: @count, @type, aggregates, SUBQUERY, arithmetic, @links.@count.
@Suite("Reference evaluator: expressions")
struct ExpressionTests {
    let lists: Harness

    init() throws {
        lists = try Harness(fixture: "primitive_int_lists_12", className: "table")
    }

    func aggregate(_ function: AggregateFunction, _ path: String, _ h: Harness) -> BoundOperand {
        h.operand(.aggregate(function, h.path(path)))
    }

    @Test("@count of a list counts its elements: integers.@count == 0 is 2, == single_int is 3")
    func countOfList() {
        let h = lists
        #expect(h.count(h.cmp(h.operand(.count(h.path("integers"))), .equal, h.const(.int(0)))) == 2)
        #expect(h.count(h.cmp(h.operand(.count(h.path("integers_nullable"))), .equal, h.const(.int(0)))) == 1)
        #expect(h.count(h.cmp(h.operand(.count(h.path("integers"))), .equal, h.operand("single_int"))) == 3)
        #expect(h.count(h.cmp(h.operand(.count(h.path("integers"))), .equal, h.const(.double(1.0)))) == 10)
    }

    @Test("Aggregates of empty lists: @min/@max/@avg are NULL, @sum is 0")
    func emptyAggregates() {
        let h = lists
        let expectations: [(AggregateFunction, String, String, Int)] = [
            (.min, "integers", "single_int", 10), (.min, "integers", "single_int_nullable", 12),
            (.min, "integers_nullable", "single_int_nullable", 12), (.max, "integers", "single_int_nullable", 12),
            (.sum, "integers", "single_int", 12), (.sum, "integers", "single_int_nullable", 10),
            (.sum, "integers_nullable", "single_int", 12), (.avg, "integers", "single_int", 10),
            (.avg, "integers", "single_int_nullable", 12), (.avg, "integers_nullable", "single_int_nullable", 12),
        ]
        for (function, list, single, expected) in expectations {
            let count = h.count(h.cmp(aggregate(function, list, h), .equal, h.operand(single)))
            #expect(count == expected, "\(list).\(function.rawValue) == \(single)")
        }
    }

    @Test("Aggregates through links are per owner of the last collection: list.integers.@sum == 1 is 2")
    func aggregatesThroughLinks() throws {
        let h = try Harness(fixture: "primitive_int_lists_12", className: "table2")
        #expect(h.count(h.cmp(h.operand(.count(h.path("link.integers"))), .equal, h.const(.int(1)))) == 2)
        #expect(h.count(h.cmp(aggregate(.min, "link.integers", h), .equal, h.const(.int(1)))) == 1)
        #expect(h.count(h.cmp(aggregate(.sum, "list.integers", h), .equal, h.const(.int(1)))) == 2)
        #expect(h.count(h.cmp(aggregate(.avg, "list.integers", h), .equal, h.const(.int(1)))) == 2)
        #expect(h.count(h.cmp(aggregate(.sum, "link.integers", h), .equal, h.const(.int(0)))) == 1)
    }

    @Test("Aggregates over backlinks count every link: @links.Person.items.@sum.account_balance > 20 is 3")
    func backlinkAggregates() throws {
        let h = try Harness(fixture: "backlinks", className: "Items")
        #expect(
            h.count(
                h.cmp(aggregate(.min, "@links.Person.items.account_balance", h), .lessOrEqual, h.const(.double(10)))
            ) == 4
        )
        #expect(
            h.count(h.cmp(aggregate(.max, "@links.Person.items.account_balance", h), .greater, h.const(.double(10))))
                == 3
        )
        #expect(
            h.count(h.cmp(aggregate(.sum, "@links.Person.items.account_balance", h), .greater, h.const(.double(20))))
                == 3
        )
        #expect(
            h.count(h.cmp(aggregate(.avg, "@links.Person.items.account_balance", h), .greater, h.const(.double(20))))
                == 1
        )
        #expect(
            h.count(h.cmp(aggregate(.max, "purchasers.account_balance", h), .greaterOrEqual, h.const(.double(20)))) == 3
        )
    }

    @Test("SUBQUERY counts the elements satisfying the predicate, duplicates included")
    func subquery() throws {
        let h = try Harness(fixture: "backlinks", className: "Items")
        let inner = h.cmp(
            h.operand(.path(h.path("account_balance", from: "Person", root: .element(depth: 0)))),
            .greaterOrEqual,
            h.const(.double(20))
        )
        for path in ["@links.Person.items", "purchasers"] {
            let count = BoundExpression.subqueryCount(path: h.path(path), predicate: inner)
            #expect(h.count(h.cmp(h.operand(count), .greater, h.const(.int(2)))) == 1, "\(path)")
        }
        let people = try Harness(fixture: "backlinks", className: "Person")
        let pizza = people.cmp(
            people.operand(.path(people.path("name", from: "Items", root: .element(depth: 0)))),
            .equal,
            people.const(.string("pizza"))
        )
        let pizzas = BoundExpression.subqueryCount(path: people.path("items"), predicate: pizza)
        #expect(
            people.values(people.cmp(people.operand(pizzas), .equal, people.const(.int(2))), of: "name") == [
                .string("John")
            ]
        )
    }

    @Test("Nested SUBQUERY: element depth 1 is the outer element")
    func nestedSubquery() throws {
        let h = try Harness(fixture: "operator_in", className: "Person")
        // Persons with an item that has an allergen whose name equals... the item's own name? none;
        // and with an item priced above 9 that has at least 2 allergens.
        let innerMost = h.cmp(
            h.operand(.path(h.path("name", from: "Allergens", root: .element(depth: 0)))),
            .equal,
            h.operand(.path(h.path("name", from: "Items", root: .element(depth: 1))))
        )
        let middle = h.cmp(
            h.operand(
                .subqueryCount(path: h.path("allergens", from: "Items", root: .element(depth: 0)), predicate: innerMost)
            ),
            .greater,
            h.const(.int(0))
        )
        #expect(
            h.count(
                h.cmp(h.operand(.subqueryCount(path: h.path("items"), predicate: middle)), .greater, h.const(.int(0)))
            ) == 0
        )
        let expensive = BoundPredicate.and([
            h.cmp(
                h.operand(.path(h.path("price", from: "Items", root: .element(depth: 0)))),
                .greater,
                h.const(.double(9))
            ),
            h.cmp(
                h.operand(.count(h.path("allergens", from: "Items", root: .element(depth: 0)))),
                .greaterOrEqual,
                h.const(.int(2))
            ),
        ])
        #expect(
            h.count(
                h.cmp(
                    h.operand(.subqueryCount(path: h.path("items"), predicate: expensive)),
                    .greater,
                    h.const(.int(0))
                )
            ) == 2
        )
    }

    @Test("@links.@count sums incoming links from every class, over a to-many path too")
    func backlinkCount() throws {
        let items = try Harness(fixture: "backlinks", className: "Items")
        let own = items.operand(.backlinkCount(items.path("")))
        #expect(items.count(items.cmp(own, .greater, items.const(.int(1)))) == 4)
        #expect(items.values(items.cmp(own, .equal, items.const(.int(12))), of: "name") == [.string("milk")])
        let people = try Harness(fixture: "backlinks", className: "Person")
        let through = people.operand(.backlinkCount(people.path("items")))
        #expect(people.values(people.cmp(through, .equal, people.const(.int(120))), of: "name") == [.string("James")])
        #expect(people.values(people.cmp(through, .equal, people.const(.int(20))), of: "name") == [.string("Adam")])
    }

    @Test("Arithmetic: integer division, division by zero is infinite, a non-numeric mixed never matches")
    func arithmetic() throws {
        let h = try Harness(fixture: "arithmetic_int", className: "person")
        func e(_ op: ArithmeticOperator, _ a: BoundExpression, _ b: BoundExpression) -> BoundExpression {
            .arithmetic(op, a, b)
        }
        let age = BoundExpression.path(h.path("age"))
        #expect(h.count(h.cmp(h.operand(e(.multiply, .constant(.int(2)), age)), .greater, h.const(.int(60)))) == 2)
        #expect(
            h.count(
                h.cmp(
                    h.operand(e(.add, e(.multiply, .constant(.int(2)), age), .constant(.int(5)))),
                    .equal,
                    h.const(.int(55))
                )
            ) == 1
        )
        #expect(h.count(h.cmp(h.operand(e(.divide, age, .constant(.int(3)))), .equal, h.const(.int(14)))) == 1)
        #expect(h.count(h.cmp(h.operand(e(.divide, age, .constant(.int(0)))), .equal, h.const(.int(14)))) == 0)
        #expect(h.count(h.cmp(h.operand(e(.divide, age, .path(h.path("number")))), .equal, h.const(.int(20)))) == 1)
        // An integer division by zero is infinite, as in realm-core: greater than 20, equal to nothing.
        #expect(
            h.count(h.cmp(h.operand(e(.divide, age, .path(h.path("number")))), .greater, h.const(.int(20)))) == 3
        )
        #expect(h.count(h.cmp(h.operand(e(.add, age, .path(h.path("tag")))), .greater, h.const(.int(28)))) == 1)
    }

    @Test("Arithmetic over one multi-valued operand maps element-wise: ALL {8, 10} / 2 >= ANY items.price")
    func arithmeticOverList() throws {
        let h = try Harness(fixture: "operator_in", className: "Person")
        let halves = BoundOperand(
            .arithmetic(.divide, .constantList(Value.ints(8, 10)), .constant(.int(2))),
            quantifier: .all,
            isMultiValued: true
        )
        #expect(h.count(h.cmp(halves, .greaterOrEqual, h.operand("items.price", .any))) == 1)
    }

    @Test("@type matches type names, numeric and collection included; != is the negation")
    func typeOf() throws {
        let h = Harness(store: try DemoDataset.load(), className: "Dog")
        let type = h.operand(.type(h.path("companion")))
        #expect(h.count(h.cmp(type, .equal, h.const(.string("string")))) == 3)
        #expect(h.count(h.cmp(type, .equal, h.const(.string("numeric")))) == 7)
        #expect(h.count(h.cmp(type, .equal, h.list(Value.strings("list", "dictionary"), .any))) == 3)
        #expect(h.count(h.cmp(type, .equal, h.const(.string("collection")))) == 3)
        #expect(h.count(h.cmp(h.const(.string("null")), .equal, type)) == 1)
        #expect(h.count(h.cmp(type, .notEqual, h.const(.string("null")))) == 19)
    }

    @Test("@count of strings is their byte length; of a mixed, its length or collection size")
    func sizes() throws {
        let h = Harness(store: try DemoDataset.load(), className: "Dog")
        #expect(
            h.values(h.cmp(h.operand(.count(h.path("name"))), .equal, h.const(.int(10))), of: "name") == [
                .string("Шарик")
            ]
        )
        #expect(h.count(h.cmp(h.operand(.count(h.path("companion"))), .equal, h.const(.int(3)))) == 1)
        #expect(h.count(h.cmp(h.operand(.count(h.path("companion"))), .equal, h.const(.int(2)))) == 2)
    }
}
