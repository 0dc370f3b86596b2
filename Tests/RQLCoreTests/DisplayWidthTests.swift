import RQLCore
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test(
        "each script takes the columns a terminal gives it",
        arguments: [
            ("age", 3),
            ("e\u{301}", 1),  // e + combining acute: one column
            ("a\u{301}\u{302}\u{303}", 1),  // stacked combining marks
            ("\u{301}", 0),  // a combining mark alone
            ("名前", 4),  // CJK ideographs are wide
            ("ｶﾀｶﾅ", 4),  // halfwidth katakana is narrow
            ("ＡＢ", 4),  // fullwidth Latin is wide
            ("한국어", 6),  // Hangul syllables are wide
            ("\u{1100}\u{1161}\u{11A8}", 2),  // a conjoining jamo syllable is one wide character
            ("🐶", 2),  // emoji presentation
            ("❤\u{FE0F}", 2),  // text-default emoji asking for emoji presentation
            ("❤", 1),  // the same character in text presentation
            ("👨\u{200D}👩\u{200D}👧", 2),  // one ZWJ family
            ("🇫🇷", 2),  // a flag: two regional indicators
            ("a\u{200B}b", 2),  // zero-width space
            ("Шарик", 5), ("Άρης", 4), ("שלום", 4), ("مرحبا", 5),
        ]
    )
    func widths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}

@Suite("Terminal text")
struct TerminalTextTests {
    @Test("characters a terminal acts on are escaped, everything else is kept")
    func escaping() {
        #expect(TerminalText.escaped("a\rb") == #"a\rb"#)
        #expect(TerminalText.escaped("\u{1B}[31mred") == #"\u{1B}[31mred"#)
        #expect(TerminalText.escaped("nul\0del\u{7F}") == #"nul\0del\u{7F}"#)
        #expect(TerminalText.escaped("csi\u{9B}") == #"csi\u{9B}"#)
        #expect(TerminalText.escaped("rtl\u{202E}txt") == #"rtl\u{202E}txt"#)
        #expect(TerminalText.escaped("tab\there") == #"tab\there"#)
        #expect(TerminalText.escaped("tab\there", keepingTabs: true) == "tab\there")
        #expect(TerminalText.escaped("名前 é 🐶") == "名前 é 🐶")
    }
}

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    @Test(
        "the first byte that is not UTF-8 is found",
        arguments: [
            ([0x61, 0x62], nil),
            (Array("añ名🐶".utf8), nil),
            ([0x61, 0xFF, 0x62], 1),
            ([0x61, 0x80], 1),  // a lone continuation byte
            ([0xC0, 0xAF], 0),  // an overlong '/'
            ([0xE0, 0x80, 0xAF], 0),  // an overlong three-byte form
            ([0xED, 0xA0, 0x80], 0),  // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0),  // past U+10FFFF
            ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0xE2, 0x82], 9),  // cut short
        ] as [([UInt8], Int?)]
    )
    func offsets(bytes: [UInt8], offset: Int?) {
        #expect(UTF8Validation.firstInvalidOffset(in: bytes) == offset)
    }

    @Test("decoding refuses with the offset and the byte, never replaces")
    func decoding() throws {
        #expect(try UTF8Validation.decode(Array("ok".utf8)) == "ok")
        #expect(throws: InvalidUTF8Error(offset: 2, byte: 0xFE)) { try UTF8Validation.decode([0x61, 0x62, 0xFE]) }
        #expect(InvalidUTF8Error(offset: 2, byte: 0xFE).location == "byte 0xFE at byte offset 2")
    }
}
