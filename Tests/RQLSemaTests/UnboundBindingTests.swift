import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

/// Unbound IR (what the DSL builds) binds through the one binder: each case pairs an unbound
/// query with the query text that must bind to the identical bound IR.
@Suite("Binder: unbound IR from the DSL")
struct UnboundBindingTests {
    typealias T = TestSchema

    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var unbound: UnboundPredicate
        var arguments: [QueryArgument] = []
        var className = "Dog"
        var testDescription: String { text }
    }

    static func path(_ names: String..., postfix: UnboundPostfix? = nil) -> UnboundExpression {
        .keyPath(UnboundKeyPath(names.map { .property($0) }, postfix: postfix))
    }

    static func element(_ names: String..., depth: Int = 0) -> UnboundExpression {
        .keyPath(UnboundKeyPath(root: .element(depth: depth), names.map { .property($0) }))
    }

    static func compare(
        _ lhs: UnboundExpression,
        _ op: ComparisonOperator,
        _ rhs: UnboundExpression,
        options: StringOptions = []
    ) -> UnboundPredicate {
        .comparison(UnboundComparison(lhs, op, rhs, options: options))
    }

    static let cases: [Case] = [
        Case(text: "age > 2", unbound: compare(path("age"), .greater, .constant(.int(2)))),
        Case(
            text: "age > 2 AND (name == 'Rex' OR NOT height < 1.5)",
            unbound: .and([
                compare(path("age"), .greater, .constant(.int(2))),
                .or([
                    compare(path("name"), .equal, .constant(.string("Rex"))),
                    .not(compare(path("height"), .less, .constant(.double(1.5)))),
                ]),
            ])
        ),
        Case(
            text: "name BEGINSWITH[cd] 'r'",
            unbound: compare(
                path("name"),
                .beginsWith,
                .constant(.string("r")),
                options: [.caseInsensitive, .diacriticInsensitive]
            )
        ),
        Case(
            text: "name LIKE[c] 'R?x*'",
            unbound: compare(path("name"), .like, .constant(.string("R?x*")), options: .caseInsensitive)
        ),
        Case(text: "owner.name == 'Ann'", unbound: compare(path("owner", "name"), .equal, .constant(.string("Ann")))),
        Case(text: "owner == NULL", unbound: compare(path("owner"), .equal, .constant(.null))),
        Case(
            text: "ANY tags == 'x'",
            unbound: compare(.quantified(.any, path("tags")), .equal, .constant(.string("x")))
        ),
        Case(
            text: "ANY toys.price > 3.0",
            unbound: compare(.quantified(.any, path("toys", "price")), .greater, .constant(.double(3)))
        ),
        Case(text: "age IN {1, 2, 3}", unbound: compare(path("age"), .in, .list([.int(1), .int(2), .int(3)]))),
        Case(
            text: "ANY scores IN {1, 2}",
            unbound: compare(.quantified(.any, path("scores")), .in, .list([.int(1), .int(2)]))
        ),
        Case(
            text: "ALL {'a', 'b'} IN tags",
            unbound: compare(.quantified(.all, .list([.string("a"), .string("b")])), .in, path("tags"))
        ),
        Case(text: "age BETWEEN {1, 5}", unbound: .between(path("age"), lower: .int(1), upper: .int(5))),
        Case(text: "toys.@count > 2", unbound: compare(path("toys", postfix: .count), .greater, .constant(.int(2)))),
        Case(
            text: "scores.@avg > 2.5",
            unbound: compare(
                path("scores", postfix: .aggregate(.avg, property: nil)),
                .greater,
                .constant(.double(2.5))
            )
        ),
        Case(
            text: "toys.@max.price < 10.0",
            unbound: compare(path("toys", postfix: .aggregate(.max, property: "price")), .less, .constant(.double(10)))
        ),
        Case(
            text: "meta['a'] > 1",
            unbound: compare(.keyPath(UnboundKeyPath([.property("meta"), .key("a")])), .greater, .constant(.int(1)))
        ),
        Case(
            text: "ANY meta.@keys BEGINSWITH 'a'",
            unbound: compare(
                .quantified(.any, .keyPath(UnboundKeyPath([.property("meta"), .keys]))),
                .beginsWith,
                .constant(.string("a"))
            )
        ),
        Case(
            text: "ANY meta.@values > 1",
            unbound: compare(
                .quantified(.any, .keyPath(UnboundKeyPath([.property("meta"), .values]))),
                .greater,
                .constant(.int(1))
            )
        ),
        Case(
            text: "extra[0]['k'][*] == 1",
            unbound: compare(
                .keyPath(UnboundKeyPath([.property("extra"), .index(0), .key("k"), .all])),
                .equal,
                .constant(.int(1))
            )
        ),
        Case(
            text: "SUBQUERY(toys, $x, $x.price > 5.0 AND $x.name == 'ball').@count > 1",
            unbound: compare(
                .subqueryCount(
                    collection: UnboundKeyPath("toys"),
                    predicate: .and([
                        compare(element("price"), .greater, .constant(.double(5))),
                        compare(element("name"), .equal, .constant(.string("ball"))),
                    ])
                ),
                .greater,
                .constant(.int(1))
            )
        ),
        Case(
            text: "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > $d.age).@count > 0).@count == 1",
            unbound: compare(
                .subqueryCount(
                    collection: UnboundKeyPath("dogs"),
                    predicate: compare(
                        .subqueryCount(
                            collection: UnboundKeyPath(root: .element(depth: 0), "toys"),
                            predicate: compare(element("price"), .greater, element("age", depth: 1))
                        ),
                        .greater,
                        .constant(.int(0))
                    )
                ),
                .equal,
                .constant(.int(1))
            ),
            className: "Person"
        ),
        Case(
            text: "location GEOWITHIN geoBox([1.0, 2.0], [3.0, 4.0])",
            unbound: .geoWithin(
                UnboundKeyPath("location"),
                .box(bottomLeft: GeoPoint(longitude: 1, latitude: 2), topRight: GeoPoint(longitude: 3, latitude: 4))
            )
        ),
        Case(text: "TRUEPREDICATE", unbound: .and([])),
        Case(text: "FALSEPREDICATE", unbound: .or([])),
        Case(text: "age == height", unbound: compare(path("age"), .equal, path("height"))),
    ]

    @Test("an unbound predicate binds to the same IR as its query text", arguments: cases)
    func sameIR(_ c: Case) throws {
        let fromText = try T.bind(c.text, on: c.className, c.arguments)
        let fromUnbound = try T.binder.bind(UnboundQuery(predicate: c.unbound), className: c.className)
        #expect(IRPrinter.print(fromUnbound) == IRPrinter.print(fromText))
        #expect(fromUnbound == fromText)
    }

    @Test(
        "the lowered text parses back to the lowered tree (NSPredicate dialect)",
        arguments: cases.filter { !$0.text.contains("GEOWITHIN") }
    )
    func textRoundTrip(_ c: Case) throws {
        let lowered = try Binder.lower(UnboundQuery(predicate: c.unbound))
        let parsed = try Parser.parse(lowered.text, dialect: .nsPredicate)
        #expect(parsed == lowered.syntax)
        let bound = try T.binder.bind(parsed, className: c.className, arguments: lowered.arguments)
        #expect(bound == (try T.bind(c.text, on: c.className)))
    }

    @Test("constants become %@ arguments in order; map keys are subscript arguments")
    func loweredText() throws {
        let lowered = try Binder.lower(
            UnboundQuery(
                predicate: .and([
                    Self.compare(Self.path("age"), .greater, .constant(.int(2))),
                    Self.compare(.keyPath(UnboundKeyPath([.property("meta"), .key("k")])), .less, .constant(.int(9))),
                ])
            )
        )
        #expect(lowered.text == "age > %@ AND meta[%@] < %@")
        #expect(lowered.arguments == [.value(.int(2)), .value(.string("k")), .value(.int(9))])
    }

    @Test("sort, distinct and limit clauses bind like their text")
    func clauses() throws {
        let query = UnboundQuery(
            predicate: .constant(true),
            clauses: [
                .sort([UnboundSortKey(UnboundKeyPath("owner", "name"), ascending: false)]),
                .distinct([UnboundKeyPath("age")]),
                .limit(3),
            ]
        )
        let fromText = try T.bind("TRUEPREDICATE SORT(owner.name DESC) DISTINCT(age) LIMIT(3)")
        #expect(try T.binder.bind(query, className: "Dog") == fromText)
        #expect(try Binder.lower(query).text == "TRUEPREDICATE SORT(owner.name DESC) DISTINCT(age) LIMIT(3)")
    }

    @Test("an invalid operand fails with its message, pointing at its place in the text")
    func invalidOperand() throws {
        let predicate = Self.compare(
            .invalid("'firstLetter' is not a persisted property of 'Dog'"),
            .equal,
            .constant(.int(1))
        )
        do {
            _ = try T.binder.bind(UnboundQuery(predicate: predicate), className: "Dog")
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "'firstLetter' is not a persisted property of 'Dog'")
            #expect(error.span.offset == 0)
        }
    }

    @Test("a binding error renders in the lowered text, under the part it is about")
    func bindingErrorSpan() throws {
        let predicate = Self.compare(Self.path("name"), .greater, .constant(.int(5)))
        let lowered = try Binder.lower(UnboundQuery(predicate: predicate))
        do {
            _ = try T.binder.bind(lowered.syntax, className: "Dog", arguments: lowered.arguments)
            Issue.record("expected an error")
        } catch {
            // A number argument against a string property is a type mismatch, as realm-core says.
            #expect(error.kind == .typeMismatch)
            #expect(T.text(lowered.text, error.span) == "%@")
            #expect(error.rendered(in: lowered.text).hasSuffix("  name > %@\n         ^~"))
        }
    }

    @Test("a key path to an unknown property fails with the binder's suggestion")
    func unknownProperty() throws {
        let predicate = Self.compare(Self.path("agee"), .greater, .constant(.int(5)))
        let lowered = try Binder.lower(UnboundQuery(predicate: predicate))
        do {
            _ = try T.binder.bind(lowered.syntax, className: "Dog", arguments: lowered.arguments)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "unknown property 'agee' on class 'Dog'; did you mean 'age'?")
            #expect(T.text(lowered.text, error.span) == "agee")
        }
    }
}
