import RQLCore
import Testing

@testable import RQLStorage

@Suite("JSON reader and writer")
struct JSONTests {
    @Test("integers and numbers with a fraction or exponent stay distinct, and 64-bit integers are exact")
    func numbers() throws {
        let doc = try JSONValue.parse(
            #"[1, 1.0, 1e3, -0, 9223372036854775807, -9223372036854775808, 12345678901234567890]"#
        )
        guard case .array(let items) = doc else {
            Issue.record("not an array")
            return
        }
        let numbers = items.compactMap { if case .number(let n) = $0 { n } else { nil } }
        #expect(numbers.map(\.isInteger) == [true, false, false, true, true, true, true])
        #expect(numbers[4].int64Value == Int64.max)
        #expect(numbers[5].int64Value == Int64.min)
        #expect(numbers[6].int64Value == nil)
        #expect(numbers[2].doubleValue == 1000)
    }

    @Test("object members keep document order; strings decode every escape")
    func objectsAndStrings() throws {
        let doc = try JSONValue.parse(#"{"b": 1, "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83e\udd84"}"#)
        guard case .object(let members) = doc else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(doc["a"] == .string("x\"\\/\u{8}\u{C}\n\r\té🦄"))
    }

    @Test(
        "syntax errors report line and column",
        arguments: [
            ("{\"a\": }", 1, 7),
            ("[1,\n 2,\n x]", 3, 2),
            ("{\"a\" 1}", 1, 6),
            ("[1, 2", 1, 6),
            ("\"abc", 1, 5),
            ("01", 1, 2),
            ("[1.]", 1, 4),
            ("\"\\ud800\"", 1, 8),
            ("tru", 1, 1),
            ("{} {}", 1, 4),
        ]
    )
    func syntaxErrors(text: String, line: Int, column: Int) {
        do {
            _ = try JSONValue.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    @Test("deep nesting is an error, not a crash")
    func deepNesting() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(String(repeating: "[", count: 10_000)) }
    }

    @Test("the writer escapes strings and round-trips documents")
    func writer() throws {
        let text = #"{"k":["a\"b\n",1,2.5e-3,true,null,{"z":{}}],"é":"\u0001"}"#
        let doc = try JSONValue.parse(text)
        #expect(try JSONValue.parse(doc.serialized()) == doc)
        #expect(try JSONValue.parse(doc.serialized(pretty: true)) == doc)
        #expect(doc.serialized().contains(#"\u0001"#))
        #expect(try JSONValue.parse(doc.spacedLine) == doc)
    }

    @Test("the spaced line puts one space after each comma and colon, and nowhere else")
    func spacedLine() {
        let doc = JSONValue.object([
            JSONMember("suite", .string("vm")), JSONMember("n", .int(1_000_000)),
            JSONMember("ns", .array([.double(12.5), .double(.nan), .double(-.infinity), .int(Int64.min)])),
            JSONMember("empty", .object([])), JSONMember("none", .array([])), JSONMember("ok", .bool(true)),
        ])
        #expect(
            doc.spacedLine
                == #"{"suite": "vm", "n": 1000000, "ns": [12.5, null, null, -9223372036854775808], "empty": {}, "#
                + #""none": [], "ok": true}"#
        )
    }
}
