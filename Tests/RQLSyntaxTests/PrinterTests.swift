import Foundation
import Testing

@testable import RQLSyntax

/// Checks the printer's contract on one query: printing gives text that parses back to the same
/// tree, and printing that tree gives the same text.
func expectFixpoint(_ text: String, _ dialect: Dialect = .rql, sourceLocation: SourceLocation = #_sourceLocation) throws
{
    let tree = try Parser.parse(text, dialect: dialect)
    let printed = SyntaxPrinter.print(tree)
    let reparsed = try Parser.parse(printed, dialect: dialect)
    #expect(reparsed == tree, "\(text) → \(printed)", sourceLocation: sourceLocation)
    #expect(SyntaxPrinter.print(reparsed) == printed, sourceLocation: sourceLocation)
}

@Suite("Canonical printer")
struct PrinterTests {
    @Test(
        "canonical forms",
        arguments: [
            ("age>2 and name beginswith[c] \"r\"", "age > 2 AND name BEGINSWITH[c] 'r'"),
            ("a=1 || b<>2", "a == 1 OR b != 2"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("a == 1 OR (b == 2 AND c == 3)", "a == 1 OR b == 2 AND c == 3"),
            ("!(a == 1)", "NOT a == 1"),
            (
                "x == 0x10 && y == 1.50 && z == 'it''s'".replacingOccurrences(of: "''", with: "\\'"),
                "x == 16 AND y == 1.5 AND z == 'it\\'s'"
            ),
            ("(a + b) + c == 1", "(a + b) + c == 1"),
            ("a + (b + c) == 1", "a + (b + c) == 1"),
            ("(a * b) + c == 1", "a * b + c == 1"),
            ("a * (b + c) == 1", "a * (b + c) == 1"),
            ("n == 2017-12-04@12:00:00", "n == T1512388800:0"),
            ("float\\ fees > 1", "float\\ fees > 1"),
            ("a == null sort(b asc) limit(1)", "a == null SORT(b ASC) LIMIT(1)"),
            ("l geowithin geoCircle([1, 2], 0.5)", "l GEOWITHIN geoCircle([1, 2], 0.5)"),
        ]
    )
    func canonicalForms(query: String, expected: String) throws {
        #expect(SyntaxPrinter.print(try Parser.parse(query)) == expected)
        try expectFixpoint(query)
    }

    @Test("NSPredicate queries print in NSPredicate")
    func nsPredicate() throws {
        #expect(
            SyntaxPrinter.print(try Parser.parse("name ==[cd] %@ and #size > $min", dialect: .nsPredicate))
                == "name ==[cd] %@ AND #size > $min"
        )
        try expectFixpoint("a - -1 > 2 OR %K == %d", .nsPredicate)
    }

    @Test("every query of realm-core's conformance vectors parses, or fails as a syntax error, as realm-core's did")
    func conformanceQueries() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/realm-core-public.json")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        )
        let suites = try #require(document["suites"] as? [[String: Any]])
        var parsed = 0
        for suite in suites {
            for testCase in suite["cases"] as? [[String: Any]] ?? [] {
                guard let query = testCase["query"] as? String, testCase["skip"] == nil else { continue }
                let error = (testCase["expect"] as? [String: Any])?["error"]
                let category = (error as? [String: Any])?["category"] as? String ?? error as? String
                if category == "syntax" {
                    #expect(throws: SyntaxError.self, "\(query)") { try Parser.parse(query) }
                } else {
                    try expectFixpoint(query)
                    parsed += 1
                }
            }
        }
        #expect(parsed > 900)
    }
}
