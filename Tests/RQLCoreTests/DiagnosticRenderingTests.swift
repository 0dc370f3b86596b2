import RQLCore
import Testing

/// A diagnostic on the bytes `span` of `query`.
private func render(_ query: String, _ span: Range<Int>, _ message: String = "problem") -> String {
    Diagnostic(.error, message, at: SourceSpan(offset: span.lowerBound, length: span.count, line: 1, column: 1))
        .rendered(in: query)
}

/// The span of the first occurrence of `word` in `query`, in bytes.
private func span(of word: String, in query: String) -> Range<Int> {
    let range = query.range(of: word)!
    let start = query.utf8.distance(from: query.startIndex, to: range.lowerBound)
    return start..<start + word.utf8.count
}

@Suite("Diagnostic rendering")
struct DiagnosticRenderingTests {
    @Test(
        "the caret is placed and sized by display width after any script",
        arguments: [
            ("e\u{301}e\u{301}e\u{301} == 1 AND agee > 2", 13),  // combining marks take no column
            ("名前 == 1 AND agee > 2", 14),  // CJK takes two
            ("🐶🐶 == 1 AND agee > 2", 14),  // so do emoji
            ("❤\u{FE0F} == 1 AND agee > 2", 12),
            ("한국 == 1 AND agee > 2", 14),
        ]
    )
    func caretPosition(query: String, column: Int) {
        let rendered = render(query, span(of: "agee", in: query))
        #expect(rendered.hasSuffix("\n  " + String(repeating: " ", count: column) + "^~~~"), "\(rendered)")
    }

    @Test("a wide span is underlined for all its columns")
    func caretWidth() {
        #expect(render("名前 > 2", span(of: "名前", in: "名前 > 2")) == "error: problem\n  名前 > 2\n  ^~~~")
        #expect(render("x == '🐶'", span(of: "'🐶'", in: "x == '🐶'")).hasSuffix("\n       ^~~~"))
        #expect(render("e\u{301} > 2", 0..<3).hasSuffix("\n  ^"))  // e and its combining mark: one column
    }

    @Test("CR, ESC, DEL and NUL are echoed escaped, and the caret stays under the span")
    func controlCharacters() {
        let query = "name == 'a\rb\u{1B}[2J\u{7F}\0' AND agee > 2"
        let rendered = render(query, span(of: "agee", in: query), "bad\u{1B}[31m")
        #expect(
            rendered == """
                error: bad\\u{1B}[31m
                  name == 'a\\rb\\u{1B}[2J\\u{7F}\\0' AND agee > 2
                                                      ^~~~
                """
        )
        #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("a 100 KB line is shown as a window around the span, cut with …")
    func longLine() {
        let filler = String(repeating: "x", count: 50_000)
        let query = "name == '\(filler)' AND agee > 2 AND name == '\(filler)'"
        let rendered = render(query, span(of: "agee", in: query))
        let lines = rendered.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("  …") && lines[1].hasSuffix("…"))
        #expect(lines[1].count <= 2 + Diagnostic.excerptWidth + 2)
        #expect(lines[1].contains("' AND agee > 2 AND name == '"))
        // The caret is under `agee` in the window.
        let caret = lines[2].firstIndex(of: "^")!
        let column = lines[2].distance(from: lines[2].startIndex, to: caret)
        let agee = lines[1].range(of: "agee")!.lowerBound
        #expect(column == lines[1].distance(from: lines[1].startIndex, to: agee))
        #expect(lines[2].hasSuffix("^~~~"))
    }

    @Test("a span at the start or end of a long line cuts only the other end; a long span is underlined to the cut")
    func longLineEnds() {
        let long = String(repeating: "y", count: 10_000)
        let atStart = render(long + " > 2", 0..<10_000).split(separator: "\n").map(String.init)
        #expect(atStart[1].hasPrefix("  yyy") && atStart[1].hasSuffix("…"))
        #expect(atStart[2] == "  ^" + String(repeating: "~", count: Diagnostic.excerptWidth - 1))
        let query = "name == " + long
        let atEnd = render(query, query.utf8.count..<query.utf8.count).split(separator: "\n").map(String.init)
        #expect(atEnd[1].hasPrefix("  …") && atEnd[1].hasSuffix("yyy"))
        #expect(atEnd[2].hasSuffix(" ^"))
    }

    @Test("a huge name quoted in the message is cut in the middle")
    func longMessage() {
        let name = String(repeating: "n", count: 100_000)
        let rendered = render(name, 0..<3, "unknown property '\(name)' on class 'Dog'")
        let message = rendered.split(separator: "\n")[0]
        #expect(message.count < 200)
        #expect(message.hasSuffix("' on class 'Dog'"))
        #expect(message.contains("…"))
    }

    @Test("bytes that are not UTF-8 are shown as \\x{FF} with the caret under them")
    func invalidBytes() {
        let bytes: [UInt8] = Array("a == '".utf8) + [0xFF] + Array("'".utf8)
        let diagnostic = Diagnostic(.error, "not UTF-8", at: SourceSpan(offset: 6, length: 1, line: 1, column: 7))
        let rendered = bytes.withUnsafeBufferPointer { diagnostic.rendered(inUTF8: $0) }
        #expect(rendered == "error: not UTF-8\n  a == '\\x{FF}'\n        ^~~~~~")
    }

    @Test("tabs are copied into the caret line; a multi-line query shows the line number")
    func tabsAndLines() {
        #expect(render("\tagee > 2", 1..<5) == "error: problem\n  \tagee > 2\n  \t^~~~")
        let query = "age > 2\r\n  AND 名前 == 1"
        #expect(
            render(query, span(of: "名前", in: query)) == """
                error: problem
                  2 |   AND 名前 == 1
                    |       ^~~~
                """
        )
    }
}
