import Testing

@testable import RQLCore

@Suite("String operators")
struct StringOperatorTests {
    @Test(
        "BEGINSWITH, ENDSWITH, CONTAINS and == on strings, case-sensitive",
        arguments: [
            (StringMatcher.Operation.beginsWith, "Buddy", "Bud", true),
            (.beginsWith, "Buddy", "bud", false),
            (.beginsWith, "Bu", "Bud", false),
            (.endsWith, "Buddy", "ddy", true),
            (.endsWith, "Buddy", "Bud", false),
            (.contains, "Tennis ball", "is b", true),
            (.contains, "Tennis ball", "IS B", false),
            (.contains, "aaab", "aab", true),
            (.contains, "ab", "abc", false),
            (.equal, "Rex", "Rex", true),
            (.equal, "Rex", "Re", false),
            (.contains, "naïve café", "é", true),
            (.beginsWith, "Шарик", "Ша", true),
        ]
    )
    func caseSensitive(operation: StringMatcher.Operation, haystack: String, needle: String, expected: Bool) {
        #expect(StringMatcher(operation, needle: needle).matches(haystack) == expected)
    }

    @Test("empty needle: CONTAINS, BEGINSWITH, ENDSWITH match every string; == and LIKE only the empty string")
    func emptyNeedle() {
        for operation in [StringMatcher.Operation.contains, .beginsWith, .endsWith] {
            #expect(StringMatcher(operation, needle: "").matches("abc"))
            #expect(StringMatcher(operation, needle: "").matches(""))
            #expect(StringMatcher(operation, needle: "", options: .caseInsensitive).matches("ÀBC"))
        }
        #expect(!StringMatcher(.equal, needle: "").matches("abc"))
        #expect(StringMatcher(.equal, needle: "").matches(""))
        #expect(!StringMatcher(.like, needle: "").matches("abc"))
        #expect(StringMatcher(.like, needle: "").matches(""))
    }

    @Test(
        "[c] folds case in Latin, Latin-1, Cyrillic and Greek (realm-core folds only ASCII and Latin-1)",
        arguments: [
            (StringMatcher.Operation.equal, "unicorn🦄", "UNICORN🦄"),
            (.equal, "é", "É"),
            (.equal, "ÀÉÎÕÜ", "àéîõü"),
            (.equal, "σ", "Σ"),
            (.equal, "ΣΊΣΥΦΟΣ", "σίσυφος"),
            (.equal, "Привет", "пРИВЕТ"),
            (.equal, "Ёлка", "ёЛКА"),
            (.contains, "Собака Шарик", "шар"),
            (.beginsWith, "Άρης", "άρ"),
            (.endsWith, "Chloé", "LOÉ"),
            (.like, "Шарик", "ш*К"),
            (.like, "Straße", "STRASSE"),
            (.equal, "ẞ", "ß"),
            (.endsWith, "ΟΔΟΣ", "ος"),
            (.contains, "ǅemal", "ǆ"),
        ]
    )
    func caseInsensitiveEveryScript(operation: StringMatcher.Operation, haystack: String, needle: String) {
        #expect(StringMatcher(operation, needle: needle, options: .caseInsensitive).matches(haystack))
        #expect(!StringMatcher(operation, needle: needle).matches(haystack))
    }

    @Test("[c] does not fold diacritics: 'é' ==[c] 'E' is false")
    func caseInsensitiveKeepsDiacritics() {
        #expect(!StringMatcher(.equal, needle: "E", options: .caseInsensitive).matches("é"))
        #expect(!StringMatcher(.contains, needle: "cafe", options: .caseInsensitive).matches("Café au lait"))
    }

    @Test(
        "[d] ignores diacritics but not case; [cd] ignores both (beyond realm-core, which has no [d])",
        arguments: [
            ("Café", "Cafe", StringOptions.diacriticInsensitive, true),
            ("Café", "cafe", StringOptions.diacriticInsensitive, false),
            ("Café", "CAFE", StringOptions([.caseInsensitive, .diacriticInsensitive]), true),
            ("Ёлка", "Елка", StringOptions.diacriticInsensitive, true),
            ("Ἄρης", "αρης", StringOptions([.caseInsensitive, .diacriticInsensitive]), true),
            ("naïve", "naive", StringOptions.diacriticInsensitive, true),
            ("naïve", "nave", StringOptions.diacriticInsensitive, false),
        ]
    )
    func diacriticInsensitive(haystack: String, needle: String, options: StringOptions, expected: Bool) {
        #expect(StringMatcher(.equal, needle: needle, options: options).matches(haystack) == expected)
    }

    @Test("[c] on an ASCII haystack with a non-ASCII needle still folds (Kelvin sign K)")
    func kelvinSign() {
        #expect(StringMatcher(.equal, needle: "k", options: .caseInsensitive).matches("\u{212A}"))
        #expect(StringMatcher(.contains, needle: "\u{212A}", options: .caseInsensitive).matches("ok"))
    }

    @Test("binary operators compare bytes; strings never match binaries")
    func binaries() {
        let data: [UInt8] = [0x00, 0x66, 0x6F, 0x6F, 0xFF]
        #expect(StringMatcher(.contains, binaryNeedle: [0x66, 0x6F]).matches(bytes: data))
        #expect(StringMatcher(.beginsWith, binaryNeedle: [0x00]).matches(bytes: data))
        #expect(StringMatcher(.endsWith, binaryNeedle: [0xFF]).matches(bytes: data))
        #expect(
            StringMatcher(.contains, binaryNeedle: Array("FO".utf8), options: .caseInsensitive).matches(bytes: data)
        )
        #expect(!ValueComparison.evaluate(.string("foo"), .contains, .data(Array("foo".utf8))))
        #expect(!ValueComparison.evaluate(.data(Array("foo".utf8)), .beginsWith, .string("f")))
        #expect(ValueComparison.evaluate(.data(Array("foo".utf8)), .beginsWith, .data(Array("f".utf8))))
    }

    @Test("==[c] and !=[c] through ValueComparison; != is true across kinds")
    func equalityWithOptions() {
        #expect(ValueComparison.evaluate(.string("Rex"), .equal, .string("rEX"), options: .caseInsensitive))
        #expect(!ValueComparison.evaluate(.string("Rex"), .notEqual, .string("rEX"), options: .caseInsensitive))
        #expect(
            ValueComparison.evaluate(.data(Array("abc".utf8)), .notEqual, .string("abc"), options: .caseInsensitive)
        )
    }

    @Test("folding helpers: ASCII detection and folded forms")
    func folding() {
        #expect(StringFolding.fold("HeLLo", options: .caseInsensitive) == "hello")
        #expect(
            StringFolding.fold("Crème Brûlée", options: [.caseInsensitive, .diacriticInsensitive]) == "creme brulee"
        )
        #expect(StringFolding.fold("Crème", options: []) == "Crème")
        #expect(Array("plain ascii text!".utf8).withUnsafeBufferPointer(StringFolding.isASCII))
        #expect(!Array("twelve bytes é".utf8).withUnsafeBufferPointer(StringFolding.isASCII))
    }
}

@Suite("LIKE patterns")
struct LikePatternTests {
    @Test(
        "wildcards * and ? over whole strings",
        arguments: [
            ("R?x", "Rex", true),
            ("R?x", "Rx", false),
            ("R?x", "Reex", false),
            ("*", "", true),
            ("*", "anything", true),
            ("?", "", false),
            ("?", "é", true),
            ("??", "é", false),
            ("?", "🦄", true),
            ("*ball", "Tennis ball", true),
            ("*ball", "Tennis balls", false),
            ("Ten*", "Tennis ball", true),
            ("*nis*", "Tennis ball", true),
            ("T*s*l", "Tennis ball", true),
            ("T*s*x", "Tennis ball", false),
            ("a*b*c", "aXbYbZc", true),
            ("a*a", "aaaa", true),
            ("*?", "", false),
            ("**", "", true),
            ("*a?", "banana", false),
            ("*n?", "banana", true),
            ("b*n?n?", "banana", true),
            ("?*?", "x", false),
            ("abc", "ABC", false),
            ("", "", true),
            ("", "x", false),
            ("*é*", "café", true),
            ("caf?", "café", true),
            ("\\*", "\\x", true),
        ]
    )
    func wildcards(pattern: String, text: String, expected: Bool) {
        #expect(LikePattern(pattern).matches(text) == expected)
        #expect(StringMatcher(.like, needle: pattern).matches(text) == expected)
    }

    @Test("LIKE has no escape character: a backslash is literal")
    func noEscape() {
        #expect(LikePattern("a\\*").matches("a\\xyz"))
        #expect(!LikePattern("a\\*").matches("a*"))
    }

    @Test("LIKE[c] folds ASCII on the fly and other scripts through Unicode folding")
    func likeCaseInsensitive() {
        #expect(StringMatcher(.like, needle: "b*Y", options: .caseInsensitive).matches("BUDDY"))
        #expect(StringMatcher(.like, needle: "?ΡΗΣ", options: .caseInsensitive).matches("άρης"))
        #expect(!StringMatcher(.like, needle: "b*Y").matches("BUDDY"))
    }

    @Test("a long pathological pattern finishes (backtracking only to the last star)")
    func pathological() {
        let text = String(repeating: "a", count: 2000)
        let pattern = String(repeating: "*a", count: 50) + "b"
        #expect(!LikePattern(pattern).matches(text))
    }
}
