import Foundation
import Testing

@testable import RQLCore

private func dec(_ text: String) -> Value {
    .decimal((try? Decimal128(text)) ?? .nan)
}

@Suite("Value comparison: equality")
struct ValueEqualityTests {
    @Test(
        "numbers are equal by value across int, float, double and decimal",
        arguments: [
            (Value.int(1), Value.double(1.0)),
            (.int(1), .float(1.0)),
            (.int(1), dec("1")),
            (.int(1), dec("1.000")),
            (.double(0.5), .float(0.5)),
            (.double(0.1), dec("0.1")),
            (.float(2.5), dec("2.5")),
            (.int(-3), .double(-3.0)),
            (.int(Int64.max), dec("9223372036854775807")),
        ]
    )
    func crossTypeNumericEquality(lhs: Value, rhs: Value) {
        #expect(ValueComparison.evaluate(lhs, .equal, rhs))
        #expect(ValueComparison.evaluate(rhs, .equal, lhs))
        #expect(!ValueComparison.evaluate(lhs, .notEqual, rhs))
    }

    @Test(
        "values of different kinds are never equal (string vs number, bool vs number, string vs binary)",
        arguments: [
            (Value.string("1"), Value.int(1)),
            (.bool(true), .int(1)),
            (.bool(false), .double(0)),
            (.string("abc"), .data(Array("abc".utf8))),
            (.date(Timestamp.epoch), .int(0)),
            (.objectId(.zero), .string("000000000000000000000000")),
            (.link(ObjectLink(className: "Dog", key: RowKey(0))), .int(0)),
        ]
    )
    func differentKindsAreUnequal(lhs: Value, rhs: Value) {
        #expect(!ValueComparison.evaluate(lhs, .equal, rhs))
        #expect(ValueComparison.evaluate(lhs, .notEqual, rhs))
    }

    @Test(
        "bool is not numeric even in mixed values (realm-core's rule, although DESIGN.md lists bool with the numbers)"
    )
    func boolIsNotNumeric() {
        #expect(!ValueComparison.evaluate(.bool(true), .equal, .int(1)))
        #expect(ValueComparison.orderedCompare(.bool(true), .int(0)) == nil)
    }

    @Test("int against double compares exactly beyond 2^53")
    func intDoubleExactBeyond2To53() {
        let big = Int64(1) << 53
        #expect(!ValueComparison.evaluate(.int(big + 1), .equal, .double(Double(big))))
        #expect(ValueComparison.evaluate(.int(big + 1), .greater, .double(Double(big))))
        #expect(ValueComparison.evaluate(.int(Int64.max), .less, .double(9_223_372_036_854_775_808.0)))
        #expect(ValueComparison.evaluate(.int(Int64.min), .equal, .double(-9_223_372_036_854_775_808.0)))
        #expect(ValueComparison.evaluate(.int(2), .less, .double(2.5)))
        #expect(ValueComparison.evaluate(.int(-2), .greater, .double(-2.5)))
    }

    @Test("NaN equals nothing, not even NaN, and is never ordered")
    func nanEqualsNothing() {
        for nan in [Value.double(.nan), .float(.nan), .decimal(.nan)] {
            #expect(!ValueComparison.evaluate(nan, .equal, nan))
            #expect(ValueComparison.evaluate(nan, .notEqual, .int(1)))
            for op in [ComparisonOperator.less, .lessOrEqual, .greater, .greaterOrEqual] {
                #expect(!ValueComparison.evaluate(nan, op, .int(0)))
            }
        }
    }

    @Test("infinities order around every finite number, decimal and binary alike")
    func infinities() {
        #expect(ValueComparison.evaluate(dec("1E+6000"), .lessOrEqual, .double(.infinity)))
        #expect(ValueComparison.evaluate(.decimal(.negativeInfinity), .less, .int(Int64.min)))
        #expect(ValueComparison.evaluate(.decimal(.infinity), .equal, .double(.infinity)))
    }

    @Test("strings are equal only byte for byte (no Unicode normalisation, as realm-core)")
    func stringsByteWise() {
        #expect(ValueComparison.evaluate(.string("abc"), .equal, .string("abc")))
        #expect(!ValueComparison.evaluate(.string("abc"), .equal, .string("abC")))
        // "é" precomposed vs "e" + combining acute: Swift's == says equal, Realm's bytes do not.
        #expect(!ValueComparison.evaluate(.string("\u{E9}"), .equal, .string("e\u{301}")))
        #expect(
            ValueComparison.evaluate(.string("\u{E9}"), .equal, .string("e\u{301}"), options: .diacriticInsensitive)
        )
    }

    @Test("nested lists and maps compare element-wise with Realm equality")
    func nestedCollections() {
        let a = Value.list([.int(1), .map(MixedMap(["k": .double(2)]))])
        let b = Value.list([.double(1), .map(MixedMap(["k": .int(2)]))])
        #expect(ValueComparison.evaluate(a, .equal, b))
        #expect(!ValueComparison.evaluate(a, .equal, .list([.int(1)])))
        #expect(ValueComparison.orderedCompare(a, b) == nil)
    }

    @Test("links are equal when class and key are")
    func links() {
        let a = Value.link(ObjectLink(className: "Dog", key: RowKey(1)))
        #expect(ValueComparison.evaluate(a, .equal, .link(ObjectLink(className: "Dog", key: RowKey(1)))))
        #expect(!ValueComparison.evaluate(a, .equal, .link(ObjectLink(className: "Cat", key: RowKey(1)))))
        #expect(!ValueComparison.evaluate(a, .less, .link(ObjectLink(className: "Dog", key: RowKey(2)))))
    }
}

@Suite("Value comparison: null")
struct NullComparisonTests {
    @Test("null equals only null")
    func nullEqualsOnlyNull() {
        #expect(ValueComparison.evaluate(.null, .equal, .null))
        for value in [Value.int(0), .string(""), .data([]), .bool(false), .double(0), .list([])] {
            #expect(!ValueComparison.evaluate(.null, .equal, value))
            #expect(!ValueComparison.evaluate(value, .equal, .null))
            #expect(ValueComparison.evaluate(value, .notEqual, .null))
        }
        #expect(!ValueComparison.evaluate(.null, .notEqual, .null))
    }

    @Test(
        "< and > are false with a null; <= and >= are true only when both sides are null",
        arguments: [
            (ComparisonOperator.less, false, false),
            (.greater, false, false),
            (.lessOrEqual, true, false),
            (.greaterOrEqual, true, false),
        ]
    )
    func orderedWithNull(op: ComparisonOperator, bothNull: Bool, oneNull: Bool) {
        #expect(ValueComparison.evaluate(.null, op, .null) == bothNull)
        #expect(ValueComparison.evaluate(.null, op, .int(3)) == oneNull)
        #expect(ValueComparison.evaluate(.int(3), op, .null) == oneNull)
    }

    @Test(
        "null needle: CONTAINS/BEGINSWITH/ENDSWITH match all, LIKE only null (no binary CONTAINS[c] NULL quirk)"
    )
    func nullNeedle() {
        for op in [ComparisonOperator.contains, .beginsWith, .endsWith] {
            #expect(ValueComparison.evaluate(.string("abc"), op, .null))
            #expect(ValueComparison.evaluate(.null, op, .null))
            #expect(ValueComparison.evaluate(.string("abc"), op, .null, options: .caseInsensitive))
            #expect(!ValueComparison.evaluate(.null, op, .string("a")))
        }
        #expect(!ValueComparison.evaluate(.string("abc"), .like, .null))
        #expect(ValueComparison.evaluate(.null, .like, .null))
        #expect(!ValueComparison.evaluate(.null, .like, .string("*")))
    }
}

@Suite("Value comparison: ordering operators")
struct OrderedComparisonTests {
    /// (smaller, larger) pairs of every ordered type.
    static let pairs: [(Value, Value)] = [
        (.int(-5), .int(7)),
        (.int(1), .double(1.5)),
        (.float(0.25), .int(1)),
        (dec("0.1"), .double(0.2)),
        (dec("-1E+10"), dec("3")),
        (.string("B"), .string("a")),
        (.string("a"), .string("ab")),
        (.string("É"), .string("é")),
        (.string("é"), .string("Σ")),
        (.string("Σ"), .string("σ")),
        (.data([0x01]), .data([0x01, 0x00])),
        (.bool(false), .bool(true)),
        (.date(Timestamp(seconds: -1, nanoseconds: -5)!), .date(Timestamp(seconds: 0, nanoseconds: 0)!)),
        (.date(Timestamp(seconds: 0, nanoseconds: -500_000_000)!), .date(Timestamp.epoch)),
        (.date(Timestamp(seconds: 10, nanoseconds: 1)!), .date(Timestamp(seconds: 10, nanoseconds: 2)!)),
        (
            .objectId(try! ObjectId(hex: "000000000000000000000001")),
            .objectId(try! ObjectId(hex: "000000000000000000000100"))
        ),
        (
            .uuid(UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!),
            .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000100")!)
        ),
    ]

    @Test("each ordered operator on each comparable type", arguments: pairs)
    func operatorMatrix(small: Value, large: Value) {
        #expect(ValueComparison.evaluate(small, .less, large))
        #expect(ValueComparison.evaluate(small, .lessOrEqual, large))
        #expect(!ValueComparison.evaluate(small, .greater, large))
        #expect(!ValueComparison.evaluate(small, .greaterOrEqual, large))
        #expect(ValueComparison.evaluate(large, .greater, small))
        #expect(ValueComparison.evaluate(large, .greaterOrEqual, small))
        #expect(ValueComparison.evaluate(small, .lessOrEqual, small))
        #expect(ValueComparison.evaluate(small, .greaterOrEqual, small))
        #expect(!ValueComparison.evaluate(small, .less, small))
        #expect(!ValueComparison.evaluate(small, .equal, large))
        #expect(ValueComparison.evaluate(small, .notEqual, large))
    }

    @Test(
        "values of incomparable types are never ordered",
        arguments: [
            (Value.string("5"), Value.int(3)),
            (.int(3), .date(Timestamp.epoch)),
            (.string("a"), .data([0x61])),
            (.objectId(.zero), .uuid(UUID())),
        ]
    )
    func incomparableTypes(lhs: Value, rhs: Value) {
        for op in [ComparisonOperator.less, .lessOrEqual, .greater, .greaterOrEqual] {
            #expect(!ValueComparison.evaluate(lhs, op, rhs))
            #expect(!ValueComparison.evaluate(rhs, op, lhs))
        }
    }
}

@Suite("Equality keys")
struct EqualityKeyTests {
    @Test("keys of Realm-equal numbers are equal and hash alike")
    func numericKeys() {
        let keys = [EqualityKey(.int(2)), EqualityKey(.double(2)), EqualityKey(.float(2)), EqualityKey(dec("2.00"))]
        #expect(Set(keys).count == 1)
        #expect(EqualityKey(dec("0.5")) == EqualityKey(.double(0.5)))
        #expect(EqualityKey(.string("2")) != EqualityKey(.int(2)))
        #expect(EqualityKey(.bool(true)) != EqualityKey(.int(1)))
    }
}
