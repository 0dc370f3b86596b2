import Testing

@testable import RQLCore
@testable import RQLStorage

/// Bytes handed out `chunk` at a time, to exercise the parser's refills at every boundary.
final class ChunkedInput: ByteInput {
    private let bytes: [UInt8]
    private let chunk: Int
    private(set) var position = 0

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }

    func read(appendingTo buffer: inout [UInt8], upTo count: Int) -> Int {
        let end = min(bytes.count, position + min(count, chunk))
        buffer.append(contentsOf: bytes[position..<end])
        defer { position = end }
        return end - position
    }

    var failure: InputFailure? { nil }
}

private func syntaxError(_ text: [UInt8]) -> JSONSyntaxError? {
    do {
        _ = try JSONValue.parse(utf8: text)
        return nil
    } catch {
        return error
    }
}

@Suite("JSON parser: hostile input")
struct JSONParserHardeningTests {
    @Test(
        "a repeated key is an error naming the object's path",
        arguments: [
            (#"{"a": 1, "a": 2}"#, "the top-level object"),
            (#"{"x": [{"q": 1}, {"q": 1, "q": 2}]}"#, "'x[1]'"),
            (#"{"m": {"$date": 1, "$date": 2}}"#, "'m'"),
            (#"{"a.b": {"c": {"": 1, "": 2}}}"#, #"'["a.b"].c'"#),
        ]
    )
    func duplicateKeys(text: String, path: String) {
        let error = syntaxError(Array(text.utf8))
        #expect(error?.message.hasPrefix("duplicate key") == true)
        #expect(error?.description.hasSuffix(" in \(path)") == true, "\(String(describing: error))")
    }

    @Test("keys are compared by their bytes, in small and large objects alike")
    func keysAreBytes() throws {
        let precomposed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(throws: Never.self) { try JSONValue.parse(#"{"\#(precomposed)": 1, "\#(decomposed)": 2}"#) }
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect(throws: Never.self) {
            try JSONValue.parse(#"{\#(many), "\#(precomposed)": 1, "\#(decomposed)": 2}"#)
        }
    }

    @Test("an object with thousands of keys is checked for repeats in linear time")
    func manyKeys() {
        let members = (0..<20_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect(throws: Never.self) { try JSONValue.parse("{\(members)}") }
        #expect(syntaxError(Array("{\(members), \"k19999\": 0}".utf8))?.message == "duplicate key 'k19999'")
    }

    @Test("text that is not UTF-8 is refused with the byte offset of the first bad byte")
    func invalidUTF8() {
        let latin1: [UInt8] = Array(#"{"name": "R"#.utf8) + [0xE9] + Array(#"x"}"#.utf8)
        let error = syntaxError(latin1)
        #expect(error?.offset == 11)
        #expect(error?.message.contains("0xE9") == true)
        #expect(syntaxError([0x5B, 0xFF, 0x5D])?.offset == 1)  // outside a string too
        #expect(syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22])?.offset == 1)  // an encoded surrogate
    }

    @Test("UTF-16 and UTF-32 are named as such; a UTF-8 byte order mark is skipped")
    func encodings() throws {
        #expect(syntaxError([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])?.message.contains("UTF-16") == true)
        #expect(syntaxError([0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D])?.message.contains("UTF-16") == true)
        #expect(syntaxError([0x7B, 0x00, 0x7D, 0x00])?.message.contains("NUL bytes") == true)
        #expect(
            try JSONValue.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
                == .array([.number(JSONNumber(text: "1"))])
        )
    }

    @Test("reading a chunk at a time gives the same values and the same error positions", arguments: [1, 2, 3, 7, 64])
    func chunked(chunk: Int) throws {
        let good = Array(
            #"{"a": [1, -2.5e3, true, null, "x\u00e9\ud83d\udc36y"], "名前": {"b": "🐶\n"}, "c": 123456789012}"#.utf8
        )
        var parser = JSONParser(input: ChunkedInput(good, chunk: chunk))
        #expect(try parser.parseDocument() == JSONValue.parse(utf8: good))
        for bad in ["{\"a\": [1,\n 2,\n x]}", "{\"a\":\n  \"b\", \"a\": 1}", "[\"名前\", tru]", "{\"k\": 1e}"] {
            var streamed = JSONParser(input: ChunkedInput(Array(bad.utf8), chunk: chunk))
            let streamedError = try #require(throws: JSONSyntaxError.self) { try streamed.parseDocument() }
            let memoryError = try #require(throws: JSONSyntaxError.self) { try JSONValue.parse(bad) }
            #expect(streamedError.message == memoryError.message, "\(bad)")
            #expect(streamedError.line == memoryError.line, "\(bad)")
            // A streamed repeated key is placed after the key (the key's start may be gone).
            if !streamedError.message.hasPrefix("duplicate") {
                #expect(streamedError.offset == memoryError.offset, "\(bad)")
                #expect(streamedError.column == memoryError.column, "\(bad)")
            }
        }
    }

    @Test("JSON written by the writer escapes DEL and the C1 controls, and reads back the same")
    func writerEscapes() throws {
        let value = JSONValue.string("a\u{7F}b\u{9B}c\u{1B}")
        #expect(value.serialized() == #""a\u007fb\u009bc\u001b""#)
        #expect(try JSONValue.parse(value.serialized()) == value)
    }
}
