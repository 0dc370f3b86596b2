import Testing

@testable import RQLCore

@Suite("MATCHES patterns")
struct RegexPatternTests {
    @Test(
        "the whole string must match, as NSPredicate's MATCHES",
        arguments: [
            ("R.*", "Rex", true),
            ("R.*", "T-Rex", false),
            ("ex", "Rex", false),
            (".*ex", "Rex", true),
            ("[A-Z][a-z]+", "Rex", true),
            ("[A-Z][a-z]+", "rex", false),
            ("(?i)[A-Z][a-z]+", "rex", true),
            ("\\d{3}-\\d{4}", "555-1234", true),
            ("\\d{3}-\\d{4}", "555-12345", false),
            ("é+", "éé", true),
            ("", "", true),
        ]
    )
    func wholeMatch(pattern: String, text: String, expected: Bool) throws {
        #expect(try RegexPattern(pattern).matches(.string(text)) == expected)
    }

    @Test("only strings match: null, numbers and data never do")
    func onlyStrings() throws {
        let pattern = try RegexPattern(".*")
        #expect(pattern.matches(.string("")))
        #expect(!pattern.matches(.null))
        #expect(!pattern.matches(.int(1)))
        #expect(!pattern.matches(.data([0x41])))
    }

    @Test("UTF-8 bytes of a string column match like the string")
    func utf8() throws {
        let pattern = try RegexPattern("Zo[eë]")
        let bytes = Array("Zoë".utf8)
        #expect(bytes.withUnsafeBufferPointer { pattern.matches(utf8: $0) })
    }

    @Test("an invalid pattern is a typed error naming it")
    func invalidPattern() {
        #expect {
            try RegexPattern("a(b")
        } throws: { error in
            (error as? RegexPatternError)?.pattern == "a(b" && "\(error)".hasPrefix("invalid regular expression 'a(b'")
        }
    }

    @Test("patterns are equal by their text")
    func equality() throws {
        #expect(try RegexPattern("a+") == RegexPattern("a+"))
        #expect(try RegexPattern("a+") != RegexPattern("a*"))
    }
}
