import Foundation
import Testing

@testable import RQLCore

@Suite("Decimal128")
struct Decimal128Tests {
    @Test(
        "parses and prints in the IEEE scientific-string form",
        arguments: [
            ("0", "0"), ("19.99", "19.99"), ("-1.5E+3", "-1.5E+3"), ("1500", "1500"), ("0.000001", "0.000001"),
            ("0.0000001", "1E-7"), ("1e2", "1E+2"), ("+7.50", "7.50"), ("NaN", "NaN"), ("inf", "Infinity"),
            ("-Infinity", "-Infinity"), (".5", "0.5"), ("5.", "5"),
            ("1234567890123456789012345678901234", "1234567890123456789012345678901234"),
        ]
    )
    func textRoundTrip(text: String, printed: String) throws {
        #expect(try Decimal128(text).description == printed)
    }

    @Test("rounds beyond 34 digits half to even")
    func rounding() throws {
        #expect(
            try Decimal128("12345678901234567890123456789012345").description
                == "1.234567890123456789012345678901234E+34"
        )
        #expect(
            try Decimal128("12345678901234567890123456789012355").description
                == "1.234567890123456789012345678901236E+34"
        )
        #expect(
            try Decimal128("1234567890123456789012345678901234500001").description
                == "1.234567890123456789012345678901235E+39"
        )
    }

    @Test("rejects malformed text with a typed error", arguments: ["", "-", "1.2.3", "1e", "abc", "1 2", "0x10"])
    func malformed(text: String) {
        #expect(throws: ValueParseError.invalidDecimal(text)) { try Decimal128(text) }
    }

    @Test("overflow becomes infinity, underflow becomes zero")
    func range() throws {
        #expect(try Decimal128("1E+7000").isInfinite)
        #expect(try Decimal128("1E-7000").isZero)
        #expect(try Decimal128("1E+6144").description == "1.000000000000000000000000000000000E+6144")
    }

    @Test("compares and hashes by value, not by cohort")
    func valueSemantics() throws {
        #expect(try Decimal128("1.0") == Decimal128("1.00"))
        #expect(try Set([Decimal128("1.0"), Decimal128("1.00"), Decimal128("1")]).count == 1)
        #expect(try Decimal128("-0") == Decimal128("0"))
        #expect(try Decimal128("0.1") < Decimal128("0.10000000001"))
        #expect(try Decimal128("-2") < Decimal128("-1.5"))
        #expect(try Decimal128("1E+3") > Decimal128("999.999"))
        #expect(Decimal128.nan.compare(to: .zero) == nil)
    }

    @Test("converts to and from Int64 and Double")
    func conversions() throws {
        #expect(Decimal128(Int64.min).description == "-9223372036854775808")
        #expect(Decimal128(Int64.min).int64Value == Int64.min)
        #expect(try Decimal128("12.000").int64Value == 12)
        #expect(try Decimal128("12.5").int64Value == nil)
        #expect(try Decimal128("1E+20").int64Value == nil)
        #expect(Decimal128(0.1).description == "0.1")
        #expect(try Decimal128("2.5").doubleValue == 2.5)
        #expect(try Decimal128("-1E+400").doubleValue == -.infinity)
    }
}

@Suite("Timestamp")
struct TimestampTests {
    @Test(
        "reads ISO-8601 with up to nine fractional digits and offsets",
        arguments: [
            ("1970-01-01T00:00:00Z", Int64(0), Int32(0)),
            ("1970-01-01", 0, 0),
            ("2023-05-01T12:30:00.25Z", 1_682_944_200, 250_000_000),
            ("2023-05-01T14:30:00.25+02:00", 1_682_944_200, 250_000_000),
            ("2023-05-01T07:00:00-0530", 1_682_944_200, 0),
            ("1969-12-31T23:59:59.5Z", 0, -500_000_000),
            ("1969-12-31T23:59:58.999999999Z", -1, -1),
            ("2000-02-29T00:00:00.123456789Z", 951_782_400, 123_456_789),
            ("1900-01-01T00:00:00Z", -2_208_988_800, 0),
        ]
    )
    func parse(text: String, seconds: Int64, nanoseconds: Int32) throws {
        let t = try Timestamp(iso8601: text)
        #expect(t.seconds == seconds)
        #expect(t.nanoseconds == nanoseconds)
    }

    @Test(
        "rejects malformed dates with a typed error",
        arguments: [
            "", "2023-13-01", "2023-02-30", "2023-05-01T25:00:00Z", "2023-05-01T12:30:00.1234567891Z", "23-05-01",
            "2023-05-01T12:30:00Zjunk", "2023/05/01",
        ]
    )
    func malformed(text: String) {
        #expect(throws: ValueParseError.self) { try Timestamp(iso8601: text) }
    }

    @Test("prints ISO-8601 UTC and reads its own output back")
    func roundTrip() throws {
        for (seconds, nanos) in [
            (Int64(0), Int32(0)), (1_682_944_200, 250_000_000), (0, -1), (-86_401, -999_999_999), (253_402_300_799, 1),
        ] {
            let t = try #require(Timestamp(seconds: seconds, nanoseconds: nanos))
            #expect(try Timestamp(iso8601: t.iso8601) == t)
        }
        #expect(Timestamp(seconds: 0, nanoseconds: 1_000)?.iso8601 == "1970-01-01T00:00:00.000001Z")
        #expect(Timestamp(seconds: 0, nanoseconds: -500_000_000)?.iso8601 == "1969-12-31T23:59:59.5Z")
    }

    @Test("parts of opposite signs or out-of-range nanoseconds are rejected")
    func invariant() {
        #expect(Timestamp(seconds: 1, nanoseconds: -1) == nil)
        #expect(Timestamp(seconds: -1, nanoseconds: 1) == nil)
        #expect(Timestamp(seconds: 0, nanoseconds: 1_000_000_000) == nil)
        #expect(Timestamp(seconds: 0, nanoseconds: -5) != nil)
    }
}

@Suite("ObjectId and UUID")
struct IdentifierTests {
    @Test("ObjectId reads and prints 24 hex digits and orders by bytes")
    func objectId() throws {
        let id = try ObjectId(hex: "11223344556677889900AABB")
        #expect(id.hexString == "11223344556677889900aabb")
        #expect(id.bytes == [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0x00, 0xAA, 0xBB])
        #expect(try ObjectId(hex: "ff0000000000000000000000") > ObjectId(hex: "00ffffffffffffffffffffff"))
        #expect(try ObjectId(hex: "000000000000000000000002") > ObjectId(hex: "000000000000000000000001"))
    }

    @Test(
        "ObjectId rejects text that is not 24 hex digits",
        arguments: ["", "1122", "11223344556677889900aabg", "11223344556677889900aabbc"]
    )
    func badObjectId(text: String) {
        #expect(throws: ValueParseError.invalidObjectId(text)) { try ObjectId(hex: text) }
    }

    @Test("UUID parsing accepts only the canonical form; ordering is by bytes")
    func uuid() throws {
        let u = try Value.parseUUID("3B241101-e2bb-4255-8caf-4136c566a962")
        #expect(u.canonicalString == "3b241101-e2bb-4255-8caf-4136c566a962")
        #expect(throws: ValueParseError.self) { try Value.parseUUID("3b241101e2bb42558caf4136c566a962") }
        #expect(throws: ValueParseError.self) { try Value.parseUUID("{3b241101-e2bb-4255-8caf-4136c566a962}") }
        let small = try Value.parseUUID("00000000-0000-0000-0000-0000000000ff")
        let large = try Value.parseUUID("01000000-0000-0000-0000-000000000000")
        #expect(ValueComparison.compareUUID(small, large) < 0)
    }

    @Test("mixed maps keep keys in byte order and are deterministic")
    func mixedMap() {
        var m = MixedMap(["b": .int(2), "a": .int(1), "B": .int(0)])
        #expect(m.keys == ["B", "a", "b"])
        m["a"] = nil
        m["c"] = .null
        #expect(m.keys == ["B", "b", "c"])
        #expect(MixedMap(["x": .int(1), "y": .int(2)]) == MixedMap([("y", Value.int(2)), ("x", .int(1))]))
    }
}

@Suite("Decimal128 arithmetic")
struct Decimal128ArithmeticTests {
    private func d(_ text: String) -> Decimal128 { (try? Decimal128(text)) ?? .nan }

    @Test(
        "exact results keep the ideal exponent",
        arguments: [
            ("0.1", "+", "0.2", "0.3"),
            ("1.50", "+", "2.5", "4.00"),
            ("1", "-", "1", "0"),
            ("-5", "-", "-7.25", "2.25"),
            ("2.50", "*", "4", "10.00"),
            ("-1.5E+3", "*", "2", "-3.0E+3"),
            ("10", "/", "4", "2.5"),
            ("1", "/", "8", "0.125"),
            ("1.00", "/", "1", "1.00"),
            ("123456789", "*", "1000000000", "123456789000000000"),
        ]
    )
    func exact(lhs: String, op: String, rhs: String, expected: String) {
        let result: Decimal128
        switch op {
        case "+": result = d(lhs) + d(rhs)
        case "-": result = d(lhs) - d(rhs)
        case "*": result = d(lhs) * d(rhs)
        default: result = d(lhs) / d(rhs)
        }
        #expect(result.description == expected)
    }

    @Test("inexact results round half to even to 34 digits")
    func inexact() {
        #expect((d("1") / d("3")).description == "0.3333333333333333333333333333333333")
        #expect((d("2") / d("3")).description == "0.6666666666666666666666666666666667")
        #expect((d("1E+34") + d("0.5")).description == "1.000000000000000000000000000000000E+34")
        #expect((d("1E+34") + d("1.5")).description == "1.000000000000000000000000000000000E+34")
        #expect(
            (d("9999999999999999999999999999999999") + d("1")).description == "1.000000000000000000000000000000000E+34"
        )
        #expect((d("1E+30") + d("1E-30")) == d("1E+30"))
        #expect(
            (d("1234567890123456789") * d("9876543210987654321")).description
                == "1.219326311370217952237463801111264E+37"
        )
    }

    @Test("special values: NaN propagates, ∞ - ∞ and 0 / 0 are NaN, x / 0 is infinite, overflow is infinite")
    func specials() {
        #expect((Decimal128.nan + d("1")).isNaN)
        #expect((Decimal128.infinity - .infinity).isNaN)
        #expect((Decimal128.infinity + d("-5")) == .infinity)
        #expect((d("0") * .infinity).isNaN)
        #expect((d("0") / d("0")).isNaN)
        #expect((d("-3") / d("0")) == .negativeInfinity)
        #expect((d("3") / .infinity).isZero)
        #expect((d("1E+6000") * d("1E+6000")) == .infinity)
        #expect((-d("2")).description == "-2")
    }
}
