import Testing

@testable import RQLSyntax

/// The tree shape of a query, as an S-expression.
func shape(_ query: String, _ dialect: Dialect = .rql) throws -> String {
    SyntaxTreeDump.dump(try Parser.parse(query, dialect: dialect))
}

@Suite("Parser: precedence and grouping")
struct PrecedenceTests {
    @Test(
        "operators group as realm-core's grammar says",
        arguments: [
            ("a == 1 || b == 2 && c == 3", "(or (== a 1) (and (== b 2) (== c 3)))"),
            ("a == 1 && b == 2 || c == 3", "(or (and (== a 1) (== b 2)) (== c 3))"),
            ("a == 1 AND b == 2 AND c == 3", "(and (== a 1) (== b 2) (== c 3))"),
            ("(a == 1 OR b == 2) AND c == 3", "(and (or (== a 1) (== b 2)) (== c 3))"),
            ("!a == 5 && b == 1", "(and (not (== a 5)) (== b 1))"),
            ("NOT a == 1 OR b == 2", "(or (not (== a 1)) (== b 2))"),
            ("!!a == 1", "(not (not (== a 1)))"),
            ("NOT (a == 1 AND b == 2)", "(not (and (== a 1) (== b 2)))"),
            ("2 * (age - 5) == 70", "(== (* 2 (- age 5)) 70)"),
            ("a + b * c - d / e > 0", "(> (- (+ a (* b c)) (/ d e)) 0)"),
            ("(age + 1) * 2 > 5", "(> (* (+ age 1) 2) 5)"),
            ("((age)) > 5", "(> age 5)"),
            ("((a == 1)) OR ((b + 1) < 2)", "(or (== a 1) (< (+ b 1) 2))"),
            ("5 < (age + 1)", "(< 5 (+ age 1))"),
            ("TRUEPREDICATE AND NOT FALSEPREDICATE", "(and TRUEPREDICATE (not FALSEPREDICATE))"),
            ("!SUBQUERY(items, $x, $x.a > 1).@count > 0", "(not (> (SUBQUERY items $x (> $x.a 1)) 0))"),
        ]
    )
    func grouping(query: String, expected: String) throws {
        #expect(try shape(query) == expected)
    }

    @Test("comparisons do not chain")
    func noChaining() {
        #expect(throws: SyntaxError.self) { try Parser.parse("a < b < c") }
    }
}

@Suite("Parser: keywords, names and operators")
struct KeywordTests {
    @Test(
        "keywords that realm-core also accepts as property names",
        arguments: [
            ("in IN {1}", "(IN in {1})"),
            ("desc CONTAINS[c] $0", "(CONTAINSc desc $0)"),
            ("contains contains 'contains'", "(CONTAINS contains 'contains')"),
            ("sort > 0", "(> sort 0)"),
            ("between == 0", "(== between 0)"),
            ("NOT0 = 0", "(== NOT0 0)"),
            ("truepredicates = falsepredicates", "(== truepredicates falsepredicates)"),
            ("$0a == $-1", "(== $0a $-1)"),
            ("T2017-12-04 == 1", "(== T2017-12-04 1)"),
            ("Not == True", "(== Not True)"),
        ]
    )
    func keywordsAsNames(query: String, expected: String) throws {
        #expect(try shape(query) == expected)
    }

    @Test(
        "keyword case rules follow realm-core",
        arguments: [
            ("a == 1 aNd b == 2", true), ("a == 1 Or b == 2", true), ("a BeGiNsWiTh 'x'", true),
            ("not a == 1", true), ("NOT a == 1", true), ("Not a == 1", false),
            ("a In {1}", false), ("a in {1}", true), ("x == NULL", true), ("x == Nil", true),
            ("a == 1 TruePredicate", false), ("truePredicate", true), ("ANY a == 1", true), ("Any a == 1", false),
        ]
    )
    func keywordCase(query: String, parses: Bool) {
        #expect((try? Parser.parse(query)) != nil || !parses)
        #expect((try? Parser.parse(query)) == nil || parses)
    }

    @Test(
        "operator spellings",
        arguments: [
            ("a = 1", "=="), ("a == 1", "=="), ("a != 1", "!="), ("a <> 1", "!="), ("a < 1", "<"),
            ("a <= 1", "<="), ("a =< 1", "<="), ("a > 1", ">"), ("a >= 1", ">="), ("a => 1", ">="),
            ("a && b == 1", "&&"),
        ]
    )
    func operatorSpellings(query: String, op: String) throws {
        if op == "&&" {
            #expect(throws: SyntaxError.self) { try Parser.parse(query) }
        } else {
            #expect(try shape(query) == "(\(op) a 1)")
        }
    }

    @Test("[c], [d] and [cd] only after equality, IN and the string operators")
    func modifiers() throws {
        #expect(try shape("a ==[c] 'x'") == "(==c a 'x')")
        #expect(try shape("a CONTAINS[cd] 'x'") == "(CONTAINScd a 'x')")
        #expect(try shape("a LIKE[d] 'x'") == "(LIKEd a 'x')")
        #expect(try shape("a contains [c] b") == "(CONTAINSc a b)")
        let error = try #require(throws: SyntaxError.self) { try Parser.parse("a <[c] 1") }
        #expect(error.kind == .unsupported)
        #expect(throws: SyntaxError.self) { try Parser.parse("a ==[C] 'x'") }
    }

    @Test("the sign of a number is part of it: `age -1` is two operands")
    func signedNumbers() throws {
        #expect(try shape("age - 1 == 2") == "(== (- age 1) 2)")
        #expect(try shape("-1 = 12") == "(== -1 12)")
        let error = try #require(throws: SyntaxError.self) { try Parser.parse("age -1 == 2") }
        #expect(error.span.offset == 4)
        #expect(try shape("age-1 == 2") == "(== age-1 2)")  // a name: '-' continues names in RQL
    }
}

@Suite("Parser: key paths")
struct KeyPathTests {
    @Test(
        "paths, subscripts and postfixes",
        arguments: [
            ("dogs.@count > 2", "(> dogs.@count 2)"),
            ("name.@size > 2", "(> name.@count 2)"),
            ("list[SIZE] > 2", "(> list.@count 2)"),
            ("mixed.@type == 'int'", "(== mixed.@type 'int')"),
            ("scores.@avg > 2", "(> scores.@avg 2)"),
            ("dogs.@max.age > 2", "(> dogs.@max.age 2)"),
            ("list[0] == 1", "(== list[0] 1)"),
            ("list[FIRST].name == 'a'", "(== list[FIRST].name 'a')"),
            ("list[LAST] == 1", "(== list[LAST] 1)"),
            ("dict['key'] == 1", "(== dict['key'] 1)"),
            ("dict[$0] == 1", "(== dict[$0] 1)"),
            ("mixed[*] == 1", "(== mixed[*] 1)"),
            ("dict.@keys == 'a'", "(== dict.@keys 'a')"),
            ("dict.@values > 1", "(== dict.@values 1)".replacingOccurrences(of: "==", with: ">")),
            ("p.@links.class.prop.@count > 2", "(> p.@links.class.prop.@count 2)"),
            ("@links.@count > 2", "(> @links.@count 2)"),
            ("@links.Person.dogs.name == 'a'", "(== @links.Person.dogs.name 'a')"),
            ("$K0 == 1", "(== $K0 1)"),
            ("float\\ fees > 1", "(> float\\ fees 1)"),
            ("姓名 == 'Bob'", "(== 姓名 'Bob')"),
            ("ALL items.price > 5", "(> (ALL items.price) 5)"),
            ("ANY {1, 2} == NONE ints", "(== (ANY {1 2}) (NONE ints))"),
            ("x IN ANY $0", "(IN x (ANY $0))"),
            ("SOME a == 1", "(== (ANY a) 1)"),
        ]
    )
    func paths(query: String, expected: String) throws {
        #expect(try shape(query) == expected)
    }

    @Test("an escaped name decodes its escapes")
    func escapedName() throws {
        let query = try Parser.parse("float\\ fees\\tx > 1")
        guard case .comparison(let comparison) = query.predicate.kind, case .keyPath(let path) = comparison.lhs.kind
        else {
            Issue.record("not a comparison")
            return
        }
        #expect(path.elements.map(\.kind) == [.property("float fees\tx")])
    }

    @Test(
        "malformed key paths are syntax errors",
        arguments: ["a..b = a", "@prop > 2", "prop@links > 2", "list[-1] == 1", "a.@count.b == 1", "@links.C == 1"]
    )
    func malformed(query: String) {
        #expect(throws: SyntaxError.self) { try Parser.parse(query) }
    }
}

@Suite("Parser: SUBQUERY, lists, BETWEEN, geospatial, clauses")
struct ConstructTests {
    @Test("SUBQUERY counts a to-many path with a '$' variable")
    func subquery() throws {
        #expect(
            try shape("SUBQUERY(items, $x, $x.name == 'Tom').@size > 0")
                == "(> (SUBQUERY items $x (== $x.name 'Tom')) 0)"
        )
        for invalid in [
            "SUBQUERY(items, $x, $x.name == 'Tom').@min > 0", "SUBQUERY(items, var, var.name == 'Tom').@count > 0",
            "SUBQUERY(items, , name == 'Tom').@count > 0", "SUBQUERY(items, $x, $x.name == 'Tom') > 0",
        ] {
            #expect(throws: SyntaxError.self, "\(invalid)") { try Parser.parse(invalid) }
        }
    }

    @Test("lists hold constants and arguments only")
    func lists() throws {
        #expect(try shape("a IN {}") == "(IN a {})")
        #expect(try shape("a IN {1, 'b', $0, null}") == "(IN a {1 'b' $0 null})")
        for invalid in ["a IN {b, c}", "a IN {1 2}", "a IN [1, 2]", "a IN {{1}}", "a IN {1,}", "a IN 1, 2}"] {
            #expect(throws: SyntaxError.self, "\(invalid)") { try Parser.parse(invalid) }
        }
    }

    @Test("BETWEEN takes a list or an argument")
    func between() throws {
        #expect(try shape("age BETWEEN {30, 40}") == "(BETWEEN age {30 40})")
        #expect(try shape("age BETWEEN $0") == "(BETWEEN age $0)")
        #expect(throws: SyntaxError.self) { try Parser.parse("a between {1 2}") }
    }

    @Test("GEOWITHIN shapes")
    func geo() throws {
        #expect(
            try shape("location GEOWITHIN geoBox([0.2, 0.2], [0.7, 0.7])")
                == "(GEOWITHIN location geoBox([0.2, 0.2], [0.7, 0.7]))"
        )
        #expect(
            try shape("location GEOWITHIN geoCircle([-122.4, 37.8, 10.0], 0.5)")
                == "(GEOWITHIN location geoCircle([-122.4, 37.8, 10.0], 0.5))"
        )
        #expect(
            try shape("l geoWithin geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[$0, $1], [2, 2]})")
                == "(GEOWITHIN l geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[$0, $1], [2, 2]}))"
        )
        #expect(try shape("location GEOWITHIN $0") == "(GEOWITHIN location $0)")
        #expect(throws: SyntaxError.self) { try Parser.parse("link geoWithin 5.0") }
    }

    @Test("SORT, DISTINCT and LIMIT in any order and number")
    func clauses() throws {
        let query = try Parser.parse("a == b sort(a ASC, b DESC) DISTINCT(p) LIMIT(2) sort(c Descending)")
        #expect(query.clauses.count == 4)
        #expect(SyntaxPrinter.print(query) == "a == b SORT(a ASC, b DESC) DISTINCT(p) LIMIT(2) SORT(c DESC)")
        for invalid in [
            "a=b SORT(p)", "a=b sort()", "distinct(p)", "a=b Distinct", "a=b DISTINCT(p q)", "a=b LIMIT",
            "a=b LIMIT(-1)", "a=b LIMIT(0xFFEE)", "a=b LIMIT(11asdf)", "a=b LIMIT(2.5)", "SORT(a ASC)",
        ] {
            #expect(throws: SyntaxError.self, "\(invalid)") { try Parser.parse(invalid) }
        }
    }
}

@Suite("Parser: NSPredicate dialect")
struct NSPredicateTests {
    @Test(
        "format syntax maps onto the same tree",
        arguments: [
            ("name ==[cd] %@ AND age > %d", "(and (==cd name %@) (> age %d))"),
            ("%K == %@", "(== %K %@)"),
            ("age-1 > 2", "(> (- age 1) 2)"),
            ("age > -1", "(> age -1)"),
            ("flag == YES or flag == no", "(or (== flag true) (== flag false))"),
            ("any dogs.age > 3", "(> (ANY dogs.age) 3)"),
            ("SELF == $VALUE", "(== SELF $VALUE)"),
            ("name matches '^a.*'", "(MATCHES name '^a.*')"),
            ("#size == 1", "(== #size 1)"),
            ("dict.@allKeys == 'a'", "(== dict.@keys 'a')"),
            ("SUBQUERY(dogs, $d, $d.age > 1).@count > 0", "(> (SUBQUERY dogs $d (> $d.age 1)) 0)"),
            ("x == 0x1F OR x == 0o17 OR x == 0b101", "(or (== x 31) (== x 15) (== x 5))"),
            ("age BETWEEN {1, 5}", "(BETWEEN age {1 5})"),
        ]
    )
    func formatSyntax(query: String, expected: String) throws {
        #expect(try shape(query, .nsPredicate) == expected)
    }

    @Test("placeholders are numbered in order of appearance, %K included")
    func placeholderNumbering() throws {
        let query = try Parser.parse("%K == %@ AND b IN %@", dialect: .nsPredicate)
        guard case .and(let operands) = query.predicate.kind,
            case .comparison(let first) = operands[0].kind, case .comparison(let second) = operands[1].kind,
            case .keyPath(let path) = first.lhs.kind
        else {
            Issue.record("unexpected tree")
            return
        }
        #expect(path.elements.map(\.kind) == [.keyPathArgument(0)])
        #expect(first.rhs.kind == .argument(.placeholder(1, specifier: "@")))
        #expect(second.rhs.kind == .argument(.placeholder(2, specifier: "@")))
    }

    @Test("RQL-only syntax is rejected in NSPredicate", arguments: ["a == 1 SORT(a ASC)", "a == $0", "a == 1.5f"])
    func rqlOnly(query: String) {
        #expect(throws: SyntaxError.self) { try Parser.parse(query, dialect: .nsPredicate) }
    }
}
