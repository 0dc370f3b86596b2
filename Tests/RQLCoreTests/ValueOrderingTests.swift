import Foundation
import Testing

@testable import RQLCore

@Suite("Sort order")
struct ValueOrderingTests {
    private func sorted(_ values: [Value]) -> [Value] {
        values.enumerated().sorted { a, b in
            let order = ValueOrdering.compare(a.element, b.element)
            return order != 0 ? order < 0 : a.offset < b.offset
        }.map(\.element)
    }

    @Test("across types: null < bool < numbers < string < binary < date < objectId < uuid < link < list < map")
    func crossTypeRank() throws {
        let expected: [Value] = [
            .null,
            .bool(false),
            .bool(true),
            .double(.nan),
            .int(-1),
            .double(0.5),
            .decimal(try Decimal128("2")),
            .float(3),
            .string("A"),
            .string("a"),
            .data([0]),
            .date(Timestamp.epoch),
            .objectId(.zero),
            .uuid(UUID()),
            .link(ObjectLink(className: "Dog", key: RowKey(0))),
            .list([]),
            .map(MixedMap()),
        ]
        #expect(sorted(expected.reversed()) == expected)
        #expect(sorted(expected.shuffled()) == expected)
    }

    @Test("nulls sort first ascending")
    func nullsFirst() {
        #expect(sorted([.int(1), .null, .int(-5), .null]) == [.null, .null, .int(-5), .int(1)])
    }

    @Test("numbers of different types that are equal tie, so a stable sort keeps their order")
    func numericTiesAreStable() throws {
        let input: [Value] = [.double(1), .int(1), .decimal(try Decimal128("1.0")), .float(1), .int(0)]
        #expect(sorted(input) == [.int(0), .double(1), .int(1), .decimal(try Decimal128("1.0")), .float(1)])
        #expect(ValueOrdering.isSameForDistinct(.int(1), .double(1)))
        #expect(!ValueOrdering.isSameForDistinct(.int(1), .string("1")))
        #expect(ValueOrdering.isSameForDistinct(.null, .null))
    }

    @Test("NaN sorts before every other number and ties with NaN")
    func nanFirst() {
        #expect(ValueOrdering.compare(.double(.nan), .double(-.infinity)) < 0)
        #expect(ValueOrdering.compare(.decimal(.nan), .int(Int64.min)) < 0)
        #expect(ValueOrdering.compare(.double(.nan), .float(.nan)) == 0)
        #expect(ValueOrdering.compare(.double(.nan), .bool(true)) > 0)
    }

    @Test("strings sort byte-wise on UTF-8: 'B' < 'a' < 'É' < 'é' < 'Σ' < 'σ'")
    func stringsByteWise() {
        let expected: [Value] = [
            .string("B"), .string("a"), .string("a'b"), .string("É"), .string("é"), .string("Σ"), .string("σ"),
        ]
        #expect(sorted(expected.reversed()) == expected)
    }

    @Test("links by class then key; lists element-wise then by length; maps by entries")
    func compositeValues() {
        let dog1 = Value.link(ObjectLink(className: "Dog", key: RowKey(1)))
        let dog2 = Value.link(ObjectLink(className: "Dog", key: RowKey(2)))
        let cat9 = Value.link(ObjectLink(className: "Cat", key: RowKey(9)))
        #expect(sorted([dog2, dog1, cat9]) == [cat9, dog1, dog2])
        #expect(ValueOrdering.compare(.list([.int(1)]), .list([.int(1), .int(0)])) < 0)
        #expect(ValueOrdering.compare(.list([.int(2)]), .list([.int(1), .int(0)])) > 0)
        #expect(ValueOrdering.compare(.map(MixedMap(["a": .int(1)])), .map(MixedMap(["b": .int(0)]))) < 0)
        #expect(ValueOrdering.compare(.map(MixedMap(["a": .int(1)])), .map(MixedMap(["a": .int(2)]))) < 0)
    }

    @Test("dates sort in time order, including before the epoch")
    func dates() throws {
        let early = Value.date(try Timestamp(iso8601: "1969-12-31T23:59:59.5Z"))
        let epoch = Value.date(Timestamp.epoch)
        let later = Value.date(try Timestamp(iso8601: "1970-01-01T00:00:00.000000001Z"))
        #expect(sorted([later, epoch, early]) == [early, epoch, later])
    }
}

@Suite("Value identity")
struct ValueIdentityTests {
    @Test("Value == is structural: 1 and 1.0 differ, NaN equals NaN, strings and map keys compare as bytes")
    func structuralEquality() {
        #expect(Value.int(1) != .double(1))
        #expect(Value.double(.nan) == .double(.nan))
        #expect(Set([Value.double(.nan), .double(.nan), .double(0), .double(-0.0)]).count == 2)
        #expect(Value.string("\u{E9}") != .string("e\u{301}"))
        #expect(Value.map(MixedMap(["\u{E9}": .int(1)])) != .map(MixedMap(["e\u{301}": .int(1)])))
        // Swift's own Dictionary would merge these keys (canonical equivalence); a MixedMap does not.
        #expect(MixedMap([("\u{E9}", Value.int(1)), ("e\u{301}", .int(2))]).count == 2)
    }

    @Test("values print close to RQL literal syntax")
    func descriptions() throws {
        #expect(Value.string("it's").description == #"'it\'s'"#)
        #expect(Value.data([0, 1]).description == #"B64"AAE=""#)
        #expect(Value.list([.int(1), .null, .float(1.5)]).description == "{1, null, 1.5f}")
        #expect(Value.map(MixedMap(["k": .bool(true)])).description == "{'k': true}")
        #expect(
            Value.objectId(try ObjectId(hex: "11223344556677889900aabb")).description == "oid(11223344556677889900aabb)"
        )
        #expect(Value.date(Timestamp(seconds: 5, nanoseconds: 7)!).description == "T5:7")
        #expect(Value.link(ObjectLink(className: "Dog", key: RowKey(3))).description == "Dog[O3]")
    }
}
