import RQLCore
import Testing

@testable import RQLSyntax

/// The constant on the right of `x == …`.
func literal(_ text: String, _ dialect: Dialect = .rql) throws -> Literal? {
    let query = try Parser.parse("x == \(text)", dialect: dialect)
    guard case .comparison(let comparison) = query.predicate.kind, case .literal(let literal) = comparison.rhs.kind
    else { return nil }
    return literal
}

@Suite("Literals")
struct LiteralTests {
    @Test(
        "numbers",
        arguments: [
            ("42", Literal.integer(42)), ("-7", .integer(-7)), ("+7", .integer(7)), ("0x1F", .integer(31)),
            ("0X398235fcAb", .integer(0x39_8235_fcAb)),
            ("010", .integer(10)),  // deliberately decimal; realm-core's strtoll reads octal 8
            ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
            ("5.034", .double(5.034)), ("1.", .double(1)), (".5", .double(0.5)), ("-.5", .double(-0.5)),
            ("1e3", .double(1000)), ("1.5E-2", .double(0.015)), ("1.5f", .float(1.5)), ("10f", .float(10)),
            ("inf", .double(.infinity)), ("-Infinity", .double(-.infinity)), ("+INF", .double(.infinity)),
            ("nan", .double(.nan)), ("NaN", .double(.nan)),
        ]
    )
    func numbers(text: String, expected: Literal) throws {
        #expect(try literal(text) == expected)
    }

    @Test("a literal of at most 15 significant digits is its double, as a second parse as decimal would decide")
    func shortLiterals() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2_000 {
            let digits = String((0..<(1 + next(15))).map { _ in Character(String(next(10))) })
            let point = next(digits.count + 1)
            let text = ["", "-", "+"][next(3)] + digits.prefix(point) + "." + digits.dropFirst(point)
            #expect(QueryParser.isShortDecimal(text), "\(text)")
            let value = try #require(Double(text))
            // The parser skips this decision for such literals: the decimal is the double's.
            if let exact = try? Decimal128(text) { #expect(exact.compare(to: Decimal128(value)) == 0, "\(text)") }
            #expect(try literal(text) == .double(value), "\(text)")
        }
        for long in ["1234567890.1234567", "1e5", "0.5e1", "12345678901234567890.5", "1-2"] {
            #expect(!QueryParser.isShortDecimal(long), "\(long)")
        }
    }

    @Test("hex integers beyond 64 bits are an error, not a wrap")
    func overflow() throws {
        let error = try #require(throws: SyntaxError.self) { try Parser.parse("x == 0x1FFFFFFFFFFFFFFFF") }
        #expect(error.kind == .invalidNumber)
        #expect(error.span.offset == 5)
    }

    @Test("numbers with more digits than a double holds keep them all, for decimal128")
    func preciseNumbers() throws {
        #expect(
            try literal("9223372036854775808")
                == .preciseDouble(9_223_372_036_854_775_808, decimal: try Decimal128("9223372036854775808"))
        )
        #expect(
            try literal("-99999999999999999999")
                == .preciseDouble(-1e20, decimal: try Decimal128("-99999999999999999999"))
        )
        #expect(
            try literal("3.141592653589793238")
                == .preciseDouble(3.141592653589793, decimal: try Decimal128("3.141592653589793238"))
        )
        #expect(try literal("1e400") == .preciseDouble(.infinity, decimal: try Decimal128("1e400")))
        // A number a double holds exactly stays a plain double, and prints back as written.
        #expect(try literal("0.1") == .double(0.1))
        let texts = [
            "3.141592653589793238", "9223372036854775808", "1e400", "-1.00000000000000000001",
            // An integer beyond Int64 that a double holds exactly, and an integral float that it does not.
            "92239223372000000000000", "9007199254740993.0",
            // More digits than Decimal128 holds: rounded to a value the double holds as well.
            String(repeating: "9", count: 74),
        ]
        for text in texts {
            let printed = SyntaxPrinter.print(try Parser.parse("x == \(text)"))
            #expect(try SyntaxPrinter.print(try Parser.parse(printed)) == printed, "\(printed)")
            #expect(try literal(String(printed.dropFirst("x == ".count))) == literal(text), "\(printed)")
        }
        // NSPredicate has no word for infinity: an overflowing literal prints as one that overflows
        // even Decimal128, so it reads back as the same plain double.
        let infinite = try Parser.parse("x == -1e854775808", dialect: .nsPredicate)
        let printedInfinity = SyntaxPrinter.print(infinite)
        #expect(
            try literal(String(printedInfinity.dropFirst("x == ".count)), .nsPredicate)
                == literal("-1e854775808", .nsPredicate),
            "\(printedInfinity)"
        )
    }

    @Test(
        "strings decode their escapes (realm-core keeps them undecoded)",
        arguments: [
            (#"'a\'b'"#, "a'b"), (#""a\"b""#, "a\"b"), (#"'\\ \/ \b \f \n \r \t \0'"#, "\\ / \u{8} \u{C} \n \r \t \0"),
            (#"'\u00e9\u0111'"#, "éđ"), (#"'\uD83D\uDE00'"#, "😀"), ("'raw\nnewline'", "raw\nnewline"),
            ("'日本語'", "日本語"), ("''", ""),
        ]
    )
    func strings(text: String, expected: String) throws {
        #expect(try literal(text) == .string(expected))
    }

    @Test("bad escapes are errors at the escape", arguments: [(#"'a\qb'"#, 7), (#"'\u12'"#, 6), (#"'\u0' = ''"#, 6)])
    func badEscapes(text: String, offset: Int) throws {
        let error = try #require(throws: SyntaxError.self) { try Parser.parse("x == \(text)") }
        #expect(error.kind == .invalidEscape)
        #expect(error.span.offset == offset)
    }

    @Test("dates and timestamps")
    func dates() throws {
        #expect(try literal("T1:2") == .timestamp(seconds: 1, nanoseconds: 2))
        #expect(try literal("T-1:-5") == .timestamp(seconds: -1, nanoseconds: -5))
        #expect(try literal("2017-12-04@12:00:00") == .timestamp(seconds: 1_512_388_800, nanoseconds: 0))
        #expect(try literal("2017-12-04T12:00:00:5") == .timestamp(seconds: 1_512_388_800, nanoseconds: 5))
        #expect(try literal("1970-1-1@0:0:0") == .timestamp(seconds: 0, nanoseconds: 0))
        // Before 1970 the nanoseconds take the sign of the seconds, as realm-core's driver does
        // (`if (seconds < 0) nanoseconds *= -1`): 23:59:59 on 1969-12-31 is -1 s, so `:1` is T-1:-1,
        // in both spellings of the separator.
        #expect(try literal("1969-12-31@23:59:59:500000000") == .timestamp(seconds: -1, nanoseconds: -500_000_000))
        #expect(try literal("1969-12-31@23:59:59:1") == .timestamp(seconds: -1, nanoseconds: -1))
        #expect(try literal("1969-12-31T23:59:59:1") == .timestamp(seconds: -1, nanoseconds: -1))
        #expect(try literal("1969-12-31T23:59:59") == .timestamp(seconds: -1, nanoseconds: 0))
        // Every year from 0 on: realm-core's C library stops at 1900, the calendar does not.
        #expect(try literal("1884-09-17@00:00:00") == .timestamp(seconds: -2_691_446_400, nanoseconds: 0))
        #expect(try literal("1884-09-17T00:00:00:7") == .timestamp(seconds: -2_691_446_400, nanoseconds: -7))
        #expect(try literal("0000-01-01@00:00:00") == .timestamp(seconds: -62_167_219_200, nanoseconds: 0))
        #expect(try literal("T-2691446400:0") == .timestamp(seconds: -2_691_446_400, nanoseconds: 0))
        #expect(try literal("12345-01-01@00:00:00") == .timestamp(seconds: 327_403_382_400, nanoseconds: 0))
        #expect(try literal("2000-02-29@00:00:00") == .timestamp(seconds: 951_782_400, nanoseconds: 0))
        for invalid in [
            "T-1:1", "T1:-1", "2001-02-29@00:00:00", "2017-13-01@00:00:00", "2017-12-04@24:00:00",
            "99999999999999999-01-01@00:00:00",
        ] {
            let error = try #require(throws: SyntaxError.self, "\(invalid)") { try Parser.parse("x == \(invalid)") }
            #expect(error.kind == .invalidLiteral, "\(invalid)")
        }
        for invalid in ["1970-1-1", "1970-1-1@0:0", "1970-1-1T@0:0:0"] {
            #expect(throws: SyntaxError.self, "\(invalid)") { try Parser.parse("x == \(invalid)") }
        }
    }

    @Test("ObjectId, UUID, base64, binary and object literals")
    func fixedShapes() throws {
        #expect(try literal("oid(507F1F77BCF86CD799439011)") == .objectId("507f1f77bcf86cd799439011"))
        #expect(
            try literal("uuid(3B241101-E2BB-4255-8CAF-4136C566A962)")
                == .uuid("3b241101-e2bb-4255-8caf-4136c566a962")
        )
        #expect(try literal(#"B64"SGVsbG8=""#) == .base64(Array("Hello".utf8)))
        #expect(try literal(#"B64"SGVsbG8""#) == .base64(Array("Hello".utf8)))
        #expect(try literal(#"B64"""#) == .base64([]))
        #expect(try literal("bin('abc')") == .binary(Array("abc".utf8)))
        #expect(try literal(#"binary(B64"AAEC")"#) == .binary([0, 1, 2]))
        #expect(try literal("true") == .bool(true))
        #expect(try literal("NULL") == .null)
        let object = try #require(try literal("obj('Dog', 'Rex')"))
        guard case .object(let className, let key) = object else {
            Issue.record("not an object")
            return
        }
        #expect(className == "Dog")
        #expect(key.kind == .literal(.string("Rex")))
        for invalid in ["oid(123)", "uuid(3B241101-E2BB-4255-8CAF)", #"B64"S=GV""#, #"B64"A""#, #"B64"ab!""#] {
            let error = try #require(throws: SyntaxError.self, "\(invalid)") { try Parser.parse("x == \(invalid)") }
            #expect(error.kind == .invalidLiteral, "\(invalid)")
        }
        // A primary key is an Int64: a longer integer is refused where elsewhere it reads as a
        // double, whose printed form (`2.2e+59`) would not parse back as a key (FuzzParse found it).
        let negative = try #require(try literal("obj('Dog', -5)"))
        guard case .object(_, let negativeKey) = negative else {
            Issue.record("not an object")
            return
        }
        #expect(negativeKey.kind == .literal(.integer(-5)))
        let tooLong = try #require(throws: SyntaxError.self) {
            try Parser.parse("owner == obj('dog', 222222222222222000000000000000000000222222222000000000000001)")
        }
        #expect(tooLong.kind == .invalidNumber)
        #expect(tooLong.message.contains("does not fit in 64 bits"))
    }

    @Test("arguments: $n with leading zeros, %-placeholders, variables")
    func arguments() throws {
        let query = try Parser.parse("a == $002")
        guard case .comparison(let comparison) = query.predicate.kind else {
            Issue.record()
            return
        }
        #expect(comparison.rhs.kind == .argument(.positional(2)))
        #expect(throws: SyntaxError.self) { try Parser.parse("a == $99999999999999999999") }
    }
}
