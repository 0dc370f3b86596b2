import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

@Suite("Binder: comparisons")
struct ComparisonBindingTests {
    typealias T = TestSchema

    @Test(
        "constants convert to the property's type",
        arguments: [
            ("age == 1.0", Value.int(1)),
            ("age == 1e1", .int(10)),
            ("age == '5'", .int(5)),
            ("age == '0x10'", .int(16)),
            ("age == 1.5", .double(1.5)),
            ("weight == 2.33", .float(2.33)),
            ("price == 3", .decimal(Decimal128(Int64(3)))),
            ("data == 'ab'", .data([97, 98])),
            ("extra == '5'", .string("5")),
            ("age == NULL", .null),
        ]
    )
    func coercions(query: String, expected: Value) throws {
        let comparison = try #require(try T.comparison(query))
        #expect(comparison.rhs.expression == .constant(expected))
    }

    @Test("IN lowers to == ANY over a list")
    func inList() throws {
        let comparison = try #require(try T.comparison("age IN {1, '2', 3.0}"))
        #expect(comparison.op == .equal)
        #expect(comparison.rhs == BoundOperand(.constantList([.int(1), .int(2), .int(3)]), isMultiValued: true))
        let reversed = try #require(try T.comparison("5 IN scores"))
        #expect(reversed.op == .equal)
        #expect(reversed.rhs.isMultiValued)
        #expect(reversed.rhs.quantifier == nil)
        let quantified = try #require(try T.comparison("age IN ALL $0", [.list([.int(1)])]))
        #expect(quantified.rhs.quantifier == .all)
    }

    @Test("written quantifiers are kept")
    func quantifiers() throws {
        #expect(try T.comparison("ALL scores > 1")?.lhs.quantifier == .all)
        #expect(try T.comparison("NONE toys.price > 1")?.lhs.quantifier == Quantifier.none)
        #expect(try T.comparison("SOME tags == 'a'")?.lhs.quantifier == .any)
    }

    @Test("BETWEEN lowers to >= AND <=")
    func between() throws {
        let query = try T.bind("age BETWEEN {1, 5.0}")
        guard case .and(let parts) = query.predicate, parts.count == 2, case .comparison(let low) = parts[0],
            case .comparison(let high) = parts[1]
        else {
            Issue.record("expected two comparisons")
            return
        }
        #expect(low.op == .greaterOrEqual)
        #expect(low.rhs.expression == .constant(.int(1)))
        #expect(high.op == .lessOrEqual)
        #expect(high.rhs.expression == .constant(.int(5)))
        guard case .and(let all) = try T.bind("ALL scores BETWEEN {1, 2}").predicate,
            case .comparison(let first) = all[0]
        else {
            Issue.record("expected ALL scores BETWEEN to bind")
            return
        }
        #expect(first.lhs.quantifier == .all)
    }

    @Test("string options are kept; [c] needs strings")
    func stringOptions() throws {
        let comparison = try #require(try T.comparison("name BEGINSWITH[c] 'r'"))
        #expect(comparison.op == .beginsWith)
        #expect(comparison.options == .caseInsensitive)
        #expect(try T.bindError("age ==[c] 5")?.kind == .stringOperatorOnNonString)
    }

    @Test("@type compares with validated, lower-cased type names")
    func typeAttribute() throws {
        let comparison = try #require(try T.comparison("extra.@type == 'Numeric'"))
        guard case .type(let path) = comparison.lhs.expression else {
            Issue.record("expected @type")
            return
        }
        #expect(path.steps == [T.step("Dog", "extra")])
        #expect(comparison.rhs.expression == .constant(.string("numeric")))
        let list = try #require(try T.comparison("extra.@type IN {'int', 'STRING'}"))
        #expect(list.rhs.expression == .constantList([.string("int"), .string("string")]))
        #expect(try T.bindError("extra.@type == 'asdf'")?.kind == .invalidConstant)
        #expect(try T.bindError("extra.@type == 23")?.kind == .typeMismatch)
        #expect(try T.bindError("age.@type == 'int'")?.kind == .twoConstants)
        #expect(try T.bindError("extra.@type ==[c] 'int'")?.kind == .unsupportedOperation)
    }

    @Test("obj('Class', key) is a look-up the evaluator performs")
    func objectLiteral() throws {
        let comparison = try #require(try T.comparison("owner == obj('Person', '7')"))
        #expect(comparison.rhs.expression == .object(className: "Person", primaryKey: .int(7)))
        let list = try #require(try T.comparison("toys == ANY {obj('Toy', 'ball'), NULL}"))
        #expect(
            list.rhs.expression == .list([.object(className: "Toy", primaryKey: .string("ball")), .constant(.null)])
        )
        #expect(try T.bindError("owner == obj('Nope', 1)")?.kind == .unknownClass)
        #expect(try T.bindError("owner == obj('Toy', 'ball')")?.kind == .linkTypeMismatch)
    }

    @Test("arithmetic over numbers")
    func arithmetic() throws {
        let comparison = try #require(try T.comparison("age * 2 + 1 > height"))
        #expect(
            comparison.lhs.expression
                == .arithmetic(
                    .add,
                    .arithmetic(
                        .multiply,
                        .path(
                            BoundPath(
                                steps: [T.step("Dog", "age")],
                                isMultiValued: false,
                                rootClassName: "Dog",
                                valueType: .int
                            )
                        ),
                        .constant(.int(2))
                    ),
                    .constant(.int(1))
                )
        )
        #expect(try T.bindError("age + name > 1")?.kind == .arithmeticOnNonNumeric)
        #expect(try T.bindError("age + NULL > 1")?.kind == .arithmeticOnNonNumeric)
        #expect(try T.bindError("{1, 2} * {1, 2} == toys.price")?.kind == .twoListsArithmetic)
        #expect(try T.comparison("ALL {8, 10} / 2 >= ANY toys.price")?.lhs.isMultiValued == true)
    }

    @Test("TEXT parses its terms")
    func fullText() throws {
        let query = try T.bind("description TEXT 'Good -bad dog* C#'")
        guard case .fullText(let path, let text) = query.predicate else {
            Issue.record("expected a full-text predicate")
            return
        }
        #expect(path.steps == [T.step("Dog", "description")])
        #expect(
            text.terms == [
                .init(token: "good"), .init(token: "bad", isExcluded: true), .init(token: "dog", isPrefix: true),
                .init(token: "c"),
            ]
        )
        #expect(try T.bindError("name TEXT 'a'")?.kind == .badFullTextTerm)
        #expect(try T.bindError("description TEXT ''")?.kind == .badFullTextTerm)
        #expect(try T.bindError("description TEXT 'a -a'")?.kind == .badFullTextTerm)
        #expect(try T.bindError("description TEXT 'object-oriented'")?.kind == .badFullTextTerm)
    }

    @Test("GEOWITHIN takes shapes from literals and arguments")
    func geoWithin() throws {
        let query = try T.bind("location GEOWITHIN geoCircle([1, $0], 0.5)", [.value(.double(2))])
        guard case .geoWithin(let path, let quantifier, let region) = query.predicate else {
            Issue.record("expected GEOWITHIN")
            return
        }
        #expect(path.steps == [T.step("Dog", "location")])
        #expect(quantifier == .any)
        #expect(region == .circle(center: GeoPoint(longitude: 1, latitude: 2), radius: 0.5))
        let box = GeoRegion.box(
            bottomLeft: GeoPoint(longitude: 0, latitude: 0),
            topRight: GeoPoint(longitude: 1, latitude: 1)
        )
        guard case .geoWithin(_, _, let argumentRegion) = try T.bind("location GEOWITHIN $0", [.geo(box)]).predicate
        else {
            Issue.record("expected GEOWITHIN")
            return
        }
        #expect(argumentRegion == box)
        guard
            case .geoWithin(_, _, let textRegion) = try T.bind(
                "location GEOWITHIN $0",
                [.value(.string("geoBox([0, 0], [1, 1])"))]
            ).predicate
        else {
            Issue.record("expected GEOWITHIN")
            return
        }
        #expect(textRegion == box)
        #expect(try T.bindError("location GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1]})")?.kind == .geoBadArgument)
    }

    @Test("links compare with links, NULL and obj(); ANY over link lists")
    func linkComparisons() throws {
        #expect(try T.comparison("owner == NULL")?.rhs.expression == .constant(.null))
        let link = Value.link(ObjectLink(className: "Person", key: RowKey(0)))
        #expect(try T.comparison("owner == $0", [.value(link)])?.rhs.expression == .constant(link))
        #expect(try T.comparison("owners == $0", [.value(link)])?.lhs.isMultiValued == true)
    }
}
