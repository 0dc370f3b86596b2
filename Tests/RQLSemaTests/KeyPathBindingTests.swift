import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

@Suite("Binder: key paths")
struct KeyPathBindingTests {
    typealias T = TestSchema

    func lhsPath(_ text: String, on className: String = "Dog") throws -> BoundPath? {
        guard let comparison = try T.comparison(text, on: className) else { return nil }
        if case .path(let path) = comparison.lhs.expression { return path }
        return nil
    }

    @Test("a scalar property binds to its index and type")
    func scalar() throws {
        let comparison = try #require(try T.comparison("age > 2"))
        let age = BoundPath(steps: [T.step("Dog", "age")], isMultiValued: false, rootClassName: "Dog", valueType: .int)
        #expect(
            comparison
                == BoundComparison(
                    BoundOperand(.path(age), isMultiValued: false),
                    .greater,
                    BoundOperand(.constant(.int(2)), isMultiValued: false)
                )
        )
    }

    @Test("a to-one link is single-valued; a to-many link makes the path multi-valued")
    func links() throws {
        let ownerName = try #require(try lhsPath("owner.name == 'x'"))
        #expect(ownerName.steps == [T.step("Dog", "owner"), T.step("Person", "name")])
        #expect(!ownerName.isMultiValued)
        #expect(ownerName.valueType == .string)
        let toyPrice = try #require(try lhsPath("toys.price > 1"))
        #expect(toyPrice.steps == [T.step("Dog", "toys"), T.step("Toy", "price")])
        #expect(toyPrice.isMultiValued)
        #expect(toyPrice.valueType == .double)
    }

    @Test("ANY is implied over to-many key paths")
    func impliedAny() throws {
        let comparison = try #require(try T.comparison("toys.price > 1"))
        #expect(comparison.lhs.quantifier == nil)
        #expect(comparison.lhs.isMultiValued)
    }

    @Test("primitive collections are multi-valued; a position selects one element")
    func primitiveCollections() throws {
        #expect(try lhsPath("scores > 1")?.isMultiValued == true)
        let first = try #require(try lhsPath("scores[FIRST] > 1"))
        #expect(first.steps == [T.step("Dog", "scores"), .first])
        #expect(!first.isMultiValued)
        #expect(try lhsPath("scores[2] > 1")?.steps == [T.step("Dog", "scores"), .index(2)])
        #expect(try lhsPath("scores[LAST] > 1")?.steps == [T.step("Dog", "scores"), .last])
        let all = try #require(try lhsPath("scores[*] > 1"))
        #expect(all.steps == [T.step("Dog", "scores"), .all])
        #expect(all.isMultiValued)
    }

    @Test("dictionaries: a key, .key, @keys, @values")
    func dictionaries() throws {
        let byKey = try #require(try lhsPath("meta['a'] > 1"))
        #expect(byKey.steps == [T.step("Dog", "meta"), .key("a")])
        #expect(!byKey.isMultiValued)
        #expect(try lhsPath("meta.a > 1")?.steps == [T.step("Dog", "meta"), .key("a")])
        let keys = try #require(try lhsPath("meta.@keys == 'a'"))
        #expect(keys.steps == [T.step("Dog", "meta"), .keys])
        #expect(keys.valueType == .string)
        #expect(keys.isMultiValued)
        #expect(try lhsPath("meta.@values > 1")?.steps == [T.step("Dog", "meta"), .values])
        #expect(try lhsPath("meta > 1")?.isMultiValued == true)
        let friendName = try #require(try lhsPath("friends.rex.name == 'a'"))
        #expect(friendName.steps == [T.step("Dog", "friends"), .key("rex"), T.step("Dog", "name")])
        #expect(!friendName.isMultiValued)
    }

    @Test("mixed values navigate by key and position")
    func mixedNavigation() throws {
        let path = try #require(try lhsPath("extra.a[0]['b'] == 1"))
        #expect(path.steps == [T.step("Dog", "extra"), .key("a"), .index(0), .key("b")])
        #expect(path.valueType == .mixed)
        #expect(try lhsPath("extra[*][*] == 1")?.isMultiValued == true)
    }

    @Test("backlinks: @links.Class.property and named linkingObjects")
    func backlinks() throws {
        let explicit = try #require(try lhsPath("@links.Person.dogs.name == 'a'"))
        #expect(explicit.steps == [.backlinks(className: "Person", property: "dogs"), T.step("Person", "name")])
        #expect(explicit.isMultiValued)
        let named = try #require(try lhsPath("owners.name == 'a'"))
        #expect(named.steps == [T.step("Dog", "owners"), T.step("Person", "name")])
        #expect(named.isMultiValued)
    }

    @Test("@links.@count counts every incoming link")
    func allBacklinks() throws {
        let comparison = try #require(try T.comparison("@links.@count > 1"))
        #expect(
            comparison.lhs.expression
                == .backlinkCount(BoundPath(steps: [], isMultiValued: false, rootClassName: "Dog", valueType: .int))
        )
        #expect(!comparison.lhs.isMultiValued)
    }

    @Test("@count of a collection is one value per object; .length of a string list is per element")
    func counts() throws {
        let count = try #require(try T.comparison("toys.@count > 1"))
        guard case .count(let path) = count.lhs.expression else {
            Issue.record("expected a count")
            return
        }
        #expect(path.steps == [T.step("Dog", "toys")])
        #expect(!count.lhs.isMultiValued)
        let lengths = try #require(try T.comparison("tags.length > 1"))
        #expect(lengths.lhs.isMultiValued)
        guard case .count(let elements) = lengths.lhs.expression else {
            Issue.record("expected element lengths")
            return
        }
        #expect(elements.steps == [T.step("Dog", "tags"), .all])
        let nameLength = try #require(try T.comparison("name.@size == 3"))
        #expect(!nameLength.lhs.isMultiValued)
    }

    @Test("aggregates of primitive lists and of a property across a link list")
    func aggregates() throws {
        let sum = try #require(try T.comparison("scores.@sum > 1"))
        guard case .aggregate(.sum, let path) = sum.lhs.expression else {
            Issue.record("expected @sum")
            return
        }
        #expect(path.steps == [T.step("Dog", "scores")])
        #expect(!sum.lhs.isMultiValued)
        let max = try #require(try T.comparison("toys.@max.price > 1"))
        guard case .aggregate(.max, let toyPath) = max.lhs.expression else {
            Issue.record("expected @max")
            return
        }
        #expect(toyPath.steps == [T.step("Dog", "toys"), T.step("Toy", "price")])
        // An int literal against a double aggregate stays an int: numbers compare by value.
        #expect(max.rhs.expression == .constant(.int(1)))
    }

    @Test("SUBQUERY binds its predicate against the element, nested ones by depth")
    func subquery() throws {
        let query = try T.bind(
            "SUBQUERY(dogs, $d, $d.age > 2 AND SUBQUERY($d.toys, $t, $t.price > $d.age).@count > 0).@count > 1",
            on: "Person"
        )
        guard case .comparison(let outer) = query.predicate,
            case .subqueryCount(let path, let inner) = outer.lhs.expression
        else {
            Issue.record("expected a subquery count")
            return
        }
        #expect(path.steps == [T.step("Person", "dogs")])
        guard case .and(let parts) = inner, case .comparison(let age) = parts[0],
            case .comparison(let nested) = parts[1],
            case .subqueryCount(let toys, let toyPredicate) = nested.lhs.expression,
            case .comparison(let price) = toyPredicate
        else {
            Issue.record("unexpected subquery shape")
            return
        }
        #expect(
            age.lhs.expression
                == .path(
                    BoundPath(
                        root: .element(depth: 0),
                        steps: [T.step("Dog", "age")],
                        isMultiValued: false,
                        rootClassName: "Dog",
                        valueType: .int
                    )
                )
        )
        #expect(toys.root == .element(depth: 0))
        #expect(
            price.lhs.expression
                == .path(
                    BoundPath(
                        root: .element(depth: 0),
                        steps: [T.step("Toy", "price")],
                        isMultiValued: false,
                        rootClassName: "Toy",
                        valueType: .double
                    )
                )
        )
        #expect(
            price.rhs.expression
                == .path(
                    BoundPath(
                        root: .element(depth: 1),
                        steps: [T.step("Dog", "age")],
                        isMultiValued: false,
                        rootClassName: "Dog",
                        valueType: .int
                    )
                )
        )
    }

    @Test("NSPredicate's SUBQUERY variables and SELF")
    func nsPredicateSubquery() throws {
        let query = try T.bind("SUBQUERY(dogs, $d, $d.age > 2).@count > 0", on: "Person", dialect: .nsPredicate)
        guard case .comparison(let outer) = query.predicate,
            case .subqueryCount(_, .comparison(let inner)) = outer.lhs.expression
        else {
            Issue.record("expected a subquery")
            return
        }
        guard case .path(let path) = inner.lhs.expression else {
            Issue.record("expected a path")
            return
        }
        #expect(path.root == .element(depth: 0))
        #expect(path.steps == [T.step("Dog", "age")])
    }

    @Test("a bare key path in a SUBQUERY is the element's in RQL, the query object's in NSPredicate")
    func bareKeyPathsInSubqueries() throws {
        func innerRoot(_ text: String, _ dialect: Dialect) throws -> BoundPath.Root? {
            let query = try T.bind(text, on: "Person", dialect: dialect)
            guard case .comparison(let outer) = query.predicate,
                case .subqueryCount(_, .comparison(let inner)) = outer.lhs.expression,
                case .path(let path) = inner.rhs.expression
            else { return nil }
            return path.root
        }
        #expect(try innerRoot("SUBQUERY(dogs, $d, $d.name == name).@count > 0", .rql) == .element(depth: 0))
        #expect(try innerRoot("SUBQUERY(dogs, $d, $d.name == name).@count > 0", .nsPredicate) == .object)
    }
}
