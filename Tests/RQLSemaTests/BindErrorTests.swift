import RQLCore
import RQLIR
import RQLSema
import RQLSyntax
import Testing

@Suite("Binder: errors")
struct BindErrorTests {
    typealias T = TestSchema

    /// (query, arguments, kind, the text the span covers)
    static let cases: [(String, [QueryArgument], BindError.Kind, String)] = [
        ("agee > 2", [], .unknownProperty, "agee"),
        ("owner.nmae == 'a'", [], .unknownProperty, "nmae"),
        // Escapes make a name shorter than its source: the span still covers all of it.
        (#"a\tb == 1"#, [], .unknownProperty, #"a\tb"#),
        (#"é\n > 2"#, [], .unknownProperty, #"é\n"#),
        (#"owner.n\ ame == 'a'"#, [], .unknownProperty, #"n\ ame"#),
        ("@links.Toy.dogs.@count > 1", [], .unknownProperty, "@links.Toy.dogs"),
        ("age == 'abc'", [], .typeMismatch, "'abc'"),
        ("age == name", [], .typeMismatch, "age == name"),
        ("owner > $0", [.value(.null)], .unsupportedOperation, "owner > $0"),
        ("name CONTAINS 5", [], .stringOperatorOnNonString, "5"),
        ("tags.@min == 'a'", [], .unsupportedAggregate, "tags.@min"),
        ("toys.@max.name == 'a'", [], .unsupportedAggregate, "toys.@max.name"),
        ("toys.@max > 1", [], .aggregateNeedsProperty, "toys.@max"),
        ("name.@min > 1", [], .aggregateOnNonList, "name.@min"),
        ("scores.@min.x > 1", [], .aggregateOnNonList, "scores.@min.x"),
        ("owner[0].name == 'a'", [], .indexOnNonCollection, "[0]"),
        ("flags[0] == 1", [], .indexOnNonCollection, "[0]"),
        ("SUBQUERY(tags, $t, $t == 'a').@count > 0", [], .subqueryOnPrimitiveList, "tags"),
        ("SUBQUERY(owner, $t, $t.id == 1).@count > 0", [], .subqueryOnPrimitiveList, "owner"),
        ("scores == scores", [], .listVsList, "scores == scores"),
        ("toys == NULL", [], .listVsNull, "toys == NULL"),
        ("ALL age > 1", [], .quantifierWithoutList, "ALL age"),
        ("ANY $0 == age", [.value(.int(1))], .quantifierOnScalarArgument, "ANY $0"),
        ("age IN 5", [], .inNeedsList, "5"),
        ("{1, 2} * {1, 2} == age", [], .twoListsArithmetic, "{1, 2} * {1, 2}"),
        ("age + name > 1", [], .arithmeticOnNonNumeric, "age + name"),
        (
            "owner == $0", [.value(.link(ObjectLink(className: "Toy", key: RowKey(0))))], .linkTypeMismatch,
            "owner == $0"
        ),
        ("meta[FIRST] > 1", [], .dictionaryNotOrdered, "[FIRST]"),
        ("scores BETWEEN {1, 2}", [], .betweenOnList, "scores"),
        ("age BETWEEN {1, 2, 3}", [], .betweenOnList, "{1, 2, 3}"),
        ("age GEOWITHIN geoCircle([0, 0], 1)", [], .geoOnNonLink, "age"),
        ("owner GEOWITHIN geoCircle([0, 0], 1)", [], .geoWrongTarget, "owner"),
        ("location GEOWITHIN $0", [.value(.int(5))], .geoBadArgument, "$0"),
        ("description TEXT ''", [], .badFullTextTerm, "''"),
        ("age > $2", [.value(.int(1)), .value(.int(2))], .missingArgument, "$2"),
        ("age == $0", [.value(.string("oe"))], .argumentTypeMismatch, "$0"),
        ("1 == 2", [], .twoConstants, "1 == 2"),
        ("age > inf", [], .invalidConstant, "inf"),
        ("name == -inf", [], .invalidConstant, "-inf"),
        (
            "SUBQUERY(owners, $t, SUBQUERY($t.dogs, $t, $t.age > 1).@count > 0).@count > 0", [],
            .unsupportedOperation, "SUBQUERY($t.dogs, $t, $t.age > 1).@count"
        ),
        ("TRUEPREDICATE SORT(toys.name ASC)", [], .invalidSortKey, "toys.name"),
    ]

    @Test("each user mistake throws its kind, with a span on the offending part", arguments: cases)
    func kinds(query: String, arguments: [QueryArgument], kind: BindError.Kind, spanText: String) throws {
        let error = try #require(try T.bindError(query, arguments))
        #expect(error.kind == kind, "\(error.message)")
        #expect(T.text(query, error.span) == spanText, "\(error.message)")
    }

    @Test("every kind the conformance vectors use is covered, and unknown classes are reported")
    func unknownClass() throws {
        let syntax = try Parser.parse("age > 1")
        do {
            _ = try T.binder.bind(syntax, className: "Dgo")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownClass)
            #expect(error.message == "unknown class 'Dgo'; did you mean 'Dog'?")
        }
    }

    @Test("unknown properties suggest the closest name")
    func didYouMean() throws {
        #expect(try T.bindError("agee > 2")?.message == "unknown property 'agee' on class 'Dog'; did you mean 'age'?")
        #expect(
            try T.bindError("owner.nme == 'a'")?.message
                == "unknown property 'nme' on class 'Person'; did you mean 'name'?"
        )
        #expect(try T.bindError("zzzzzzz > 2")?.message == "unknown property 'zzzzzzz' on class 'Dog'")
    }

    @Test("missing arguments use realm-core's wording")
    func missingArgumentWording() throws {
        #expect(try T.bindError("age > $0")?.message == "Request for argument at index 0 but no arguments are provided")
        #expect(
            try T.bindError("age > $1", [.value(.int(1))])?.message
                == "Request for argument at index 1 but only 1 argument is provided"
        )
        #expect(
            try T.bindError("age > $2", [.value(.int(1)), .value(.int(1))])?.message
                == "Request for argument at index 2 but only 2 arguments are provided"
        )
    }

    @Test("the category names match the conformance vectors")
    func categories() {
        #expect(BindError.Kind.unknownProperty.category == "unknown_property")
        #expect(BindError.Kind.stringOperatorOnNonString.category == "string_op_on_non_string")
        #expect(BindError.Kind.quantifierOnScalarArgument.category == "quantifier_on_scalar_arg")
        #expect(BindError.Kind.badFullTextTerm.category == "bad_fulltext_term")
    }
}
