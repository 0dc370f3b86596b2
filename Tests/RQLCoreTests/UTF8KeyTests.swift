import Testing

@testable import RQLCore

/// `UTF8Key` equality compares native strings by their buffers and falls back to the UTF-8
/// views otherwise; both must mean "the same bytes".
@Suite("UTF8Key equality is byte equality")
struct UTF8KeyTests {
    @Test("the same bytes are equal, whether the strings are small (inline) or large")
    func sameBytes() {
        let small = "Dog"
        let large = String(repeating: "Pet", count: 20)
        #expect(UTF8Key(small) == UTF8Key("D" + "og"))
        #expect(UTF8Key(large) == UTF8Key(String(repeating: "Pe" + "t", count: 20)))
        #expect(UTF8Key("") == UTF8Key(String()))
    }

    @Test("a prefix, a different byte or another normalization is a different key")
    func differentBytes() {
        #expect(UTF8Key("ab") != UTF8Key("abc"))
        #expect(UTF8Key("abc") != UTF8Key("ab"))
        #expect(UTF8Key("abd") != UTF8Key("abc"))
        #expect(UTF8Key("") != UTF8Key("a"))
        #expect(UTF8Key("caf\u{E9}") != UTF8Key("cafe\u{301}"))
    }

    @Test("a dictionary keyed by UTF8Key finds each spelling by its own bytes")
    func dictionaryLookup() {
        let table = [UTF8Key("caf\u{E9}"): 1, UTF8Key("cafe\u{301}"): 2, UTF8Key("Person"): 3]
        #expect(table[UTF8Key("caf\u{E9}")] == 1)
        #expect(table[UTF8Key("cafe\u{301}")] == 2)
        #expect(table[UTF8Key("Pers" + "on")] == 3)
        #expect(table[UTF8Key("Perso")] == nil)
    }
}
