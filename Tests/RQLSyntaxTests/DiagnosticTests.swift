import RQLCore
import Testing

@testable import RQLSyntax

func syntaxError(_ query: String, _ dialect: Dialect = .rql) throws -> SyntaxError {
    try #require(throws: SyntaxError.self) { try Parser.parse(query, dialect: dialect) }
}

@Suite("Syntax errors")
struct DiagnosticTests {
    @Test("an error says what was expected, after what, and what was found")
    func messages() throws {
        #expect(try syntaxError("age >").message == "expected a value after '>' but found end of input")
        #expect(try syntaxError("age > 2 AND").message == "expected a value after 'AND' but found end of input")
        #expect(
            try syntaxError("(0=0").message
                == "expected ')' to close the '(' at column 1 after '0' but found end of input"
        )
        #expect(try syntaxError("").message.contains("empty query"))
        #expect(
            try syntaxError("a contains_something").message
                == "expected a comparison operator after 'a' but found 'contains_something'"
        )
        #expect(try syntaxError("stone#age = 5").message == "invalid character '#'")
        #expect(try syntaxError("a < b < c").message == "comparisons cannot be chained; join them with AND")
        #expect(try syntaxError("name == 'abc").kind == .unterminatedString)
        #expect(try syntaxError("a.@foo == 1").kind == .unknownAtWord)
    }

    @Test("the rendered diagnostic shows the query and a caret under the span")
    func rendering() throws {
        let query = "age > 2 AND name === 'x'"
        let error = try syntaxError(query)
        #expect(
            error.rendered(in: query) == """
                error: expected a value after '==' but found '='
                  age > 2 AND name === 'x'
                                     ^
                """
        )
        let unterminated = "name == 'abc"
        #expect(
            try syntaxError(unterminated).rendered(in: unterminated) == """
                error: unterminated string; it needs a closing '
                  name == 'abc
                          ^~~~
                """
        )
    }

    @Test("a multi-line query shows the line of the error, with its number")
    func multiLine() throws {
        let query = "age > 2\n  AND name == #x"
        let error = try syntaxError(query)
        #expect(error.span.line == 2)
        #expect(error.span.column == 15)
        #expect(
            error.rendered(in: query) == """
                error: invalid character '#'
                  2 |   AND name == #x
                    |               ^
                """
        )
    }

    @Test("columns count characters, not bytes; the caret counts terminal columns (姓名 takes four)")
    func unicodeColumns() throws {
        let query = "姓名 == 'Bob' && x = #"
        let error = try syntaxError(query)
        #expect(error.span.column == 20)
        #expect(error.span.offset == query.utf8.count - 1)
        #expect(error.rendered(in: query).hasSuffix("\n  " + String(repeating: " ", count: 21) + "^"))
    }

    @Test("spans of string errors after a newline inside the string")
    func spanAfterNewlineInString() throws {
        let query = "a == 'x\ny' AND b == 'z\\q'"
        let error = try syntaxError(query)
        #expect(error.kind == .invalidEscape)
        #expect(error.span.line == 2)
        #expect(error.span.offset == query.utf8.count - 3)
    }
}

@Suite("Robustness")
struct RobustnessTests {
    @Test("10,000 nested parentheses, NOTs or subqueries are an error, not a stack overflow")
    func deepNesting() throws {
        let depth = 10_000
        let inputs = [
            String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth),
            "a == " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth),
            String(repeating: "!", count: depth) + "a == 1",
            String(repeating: "NOT ", count: depth) + "a == 1",
            String(repeating: "SUBQUERY(a, $x, ", count: depth) + "b == 1"
                + String(repeating: ").@count > 0", count: depth),
            String(repeating: "(", count: depth),
        ]
        for input in inputs {
            let error = try #require(throws: SyntaxError.self) { try Parser.parse(input) }
            #expect(error.kind == .nestingTooDeep)
        }
    }

    @Test("nesting up to the limit parses")
    func nestingAtTheLimit() throws {
        let depth = Parser.maximumNestingDepth
        let query = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try shape(query) == "(== a 1)")
    }

    @Test("a 1 MB query parses, and a 1 MB malformed one fails, in well under a second each")
    func largeInputs() throws {
        let terms = (0..<50_000).map { "field\($0) == \($0)" }
        let large = terms.joined(separator: " OR ")
        #expect(large.utf8.count > 1_000_000)
        let query = try Parser.parse(large)
        guard case .or(let operands) = query.predicate.kind else {
            Issue.record("not an OR")
            return
        }
        #expect(operands.count == 50_000)
        #expect(SyntaxPrinter.print(query) == large)
        let sum = "x == " + Array(repeating: "1", count: 300_000).joined(separator: " + ")
        #expect(try Parser.parse(sum).predicate.span.length == sum.utf8.count - 0)
        let unterminated = "x == '" + String(repeating: "a", count: 1_000_000)
        #expect(try syntaxError(unterminated).kind == .unterminatedString)
        let garbage = String(repeating: "a == 1 ", count: 150_000)
        #expect(try syntaxError(garbage).span.offset == 7)
    }
}
