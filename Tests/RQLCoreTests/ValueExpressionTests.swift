import Foundation
import Testing

@testable import RQLCore

private func dec(_ text: String) -> Value {
    .decimal((try? Decimal128(text)) ?? .nan)
}

@Suite("Arithmetic")
struct ValueArithmeticTests {
    @Test(
        "int with int is integer arithmetic; a double makes it double; a decimal makes it decimal",
        arguments: [
            (ValueArithmetic.Operator.divide, Value.int(7), Value.int(2), Value.int(3)),
            (.divide, .int(-7), .int(2), .int(-3)),
            // Out of the Int64 range the result carries on exactly in decimal128; realm-core wraps
            // (INT64_MAX + 1 is INT64_MIN there, INT64_MIN / -1 is INT64_MIN).
            (.add, .int(Int64.max), .int(1), dec("9223372036854775808")),
            (.subtract, .int(Int64.min), .int(1), dec("-9223372036854775809")),
            (.multiply, .int(Int64.max), .int(2), dec("18446744073709551614")),
            (.divide, .int(Int64.min), .int(-1), dec("9223372036854775808")),
            (.add, .int(Int64.max), .int(-1), .int(Int64.max - 1)),
            (.multiply, .int(3), .double(0.5), .double(1.5)),
            (.subtract, .float(1.5), .int(1), .double(0.5)),
            (.divide, .double(1), .double(0), .double(.infinity)),
            (.add, dec("0.1"), .double(0.2), dec("0.3")),
            (.multiply, .int(2), dec("1.25"), dec("2.50")),
        ]
    )
    func arithmetic(op: ValueArithmetic.Operator, lhs: Value, rhs: Value, expected: Value) {
        #expect(ValueArithmetic.apply(op, lhs, rhs) == expected)
    }

    @Test("integer division by zero is infinite, as in realm-core; non-numeric operands give no value")
    func noValue() {
        #expect(ValueArithmetic.apply(.divide, .int(14), .int(0)) == .double(.infinity))
        #expect(ValueArithmetic.apply(.divide, .int(-14), .int(0)) == .double(-.infinity))
        #expect(
            ValueArithmetic.apply(.divide, .int(0), .int(0)).map {
                if case .double(let d) = $0 { d.isNaN } else { false }
            } == true
        )
        #expect(ValueArithmetic.apply(.add, .string("1"), .int(1)) == nil)
        #expect(ValueArithmetic.apply(.add, .null, .int(1)) == nil)
        #expect(ValueArithmetic.apply(.add, .bool(true), .int(1)) == nil)
        #expect(ValueArithmetic.integer(.multiply, 6, 7) == 42)
    }

    @Test("the typed integer kernel reports overflow as no Int64 result; apply carries on in decimal")
    func integerKernel() {
        #expect(ValueArithmetic.integer(.add, Int64.max, 1) == nil)
        #expect(ValueArithmetic.integer(.subtract, Int64.min, 1) == nil)
        #expect(ValueArithmetic.integer(.multiply, Int64.min, -1) == nil)
        #expect(ValueArithmetic.integer(.divide, Int64.min, -1) == nil)
        #expect(ValueArithmetic.integer(.divide, 7, 0) == nil)
        #expect(ValueArithmetic.integer(.divide, Int64.min, 1) == Int64.min)
    }
}

@Suite("Aggregates")
struct ValueAggregationTests {
    @Test("empty or all-null: @min, @max, @avg are null and @sum is 0")
    func empty() {
        for values in [[Value](), [.null, .null]] {
            #expect(ValueAggregation.minimum(values) == .null)
            #expect(ValueAggregation.maximum(values) == .null)
            #expect(ValueAggregation.average(values) == .null)
            #expect(ValueAggregation.sum(values) == .int(0))
        }
    }

    @Test("sums keep ints as ints, use decimals when present, doubles otherwise; @avg of ints is a double")
    func sums() {
        #expect(ValueAggregation.sum([.int(1), .int(2), .null, .int(3)]) == .int(6))
        #expect(ValueAggregation.sum([.int(1), .double(0.5)]) == .double(1.5))
        #expect(ValueAggregation.sum([.int(1), dec("0.25"), .double(0.25)]) == dec("1.5"))
        #expect(ValueAggregation.average([.int(1), .int(2)]) == .double(1.5))
        #expect(ValueAggregation.average([dec("1"), dec("2")]) == dec("1.5"))
    }

    @Test("@sum and @avg over mixed values ignore non-numbers; all non-numeric gives sum 0, avg null")
    func mixedSums() {
        let values: [Value] = [.string("foo"), .int(2), .bool(true), dec("NaN"), .int(3)]
        #expect(ValueAggregation.sum(values, overMixed: true) == dec("5"))
        #expect(ValueAggregation.sum([.string("foo"), .bool(true)], overMixed: true) == dec("0"))
        #expect(ValueAggregation.average([.string("foo"), .bool(true)], overMixed: true) == .null)
    }

    @Test("over mixed values numbers of every type add up together in decimal, as realm-core's Sum<Mixed>")
    func mixedSumsInDecimal() {
        // 0.1 + 0.2 is 0.3 exactly, not 0.30000000000000004; a float counts by its 7 digits.
        #expect(ValueAggregation.sum([.double(0.1), .double(0.2)], overMixed: true) == dec("0.3"))
        #expect(ValueAggregation.sum([.int(1), .double(2.5), .float(1.1)], overMixed: true) == dec("4.6"))
        #expect(ValueAggregation.average([.int(1), .double(2), .string("x")], overMixed: true) == dec("1.5"))
        // A property of one type keeps its own arithmetic.
        #expect(ValueAggregation.sum([.double(0.1), .double(0.2)]) == .double(0.1 + 0.2))
    }

    @Test("an int sum that leaves the Int64 range carries on exactly in decimal (realm-core wraps around)")
    func overflowingSums() {
        #expect(ValueAggregation.sum([.int(.max), .int(1)]) == dec("9223372036854775808"))
        #expect(ValueAggregation.sum([.int(.max), .int(1), .int(-2)]) == dec("9223372036854775806"))
        #expect(ValueAggregation.sum([.int(.min), .int(-1)]) == dec("-9223372036854775809"))
        #expect(ValueAggregation.average([.int(.min), .int(-1)]) == .double(-4_611_686_018_427_387_904.5))
        #expect(ValueAggregation.average([.int(.max), .int(.max)]) == .double(Double(Int64.max)))
        #expect(ValueAggregation.sum([.int(.max), .int(1)], overMixed: true) == dec("9223372036854775808"))
    }

    @Test("@min and @max over mixed values use the cross-type order: false is least, a UUID is greatest")
    func mixedExtremes() throws {
        let uuid = Value.uuid(try Value.parseUUID("3b241101-e2bb-4255-8caf-4136c566a962"))
        let values: [Value] = [
            .string("foo"), .int(1), .date(Timestamp.epoch), .bool(false), .bool(true), uuid, .objectId(.zero), .null,
        ]
        #expect(ValueAggregation.minimum(values) == .bool(false))
        #expect(ValueAggregation.maximum(values) == uuid)
        #expect(ValueAggregation.minimum([.double(.nan), .int(3), .double(2.5)]) == .double(2.5))
    }
}

@Suite("Constant coercion")
struct ValueCoercionTests {
    @Test(
        "constants convert to the property's type as realm-core does",
        arguments: [
            (Value.double(1.0), PropertyType.int, Value.int(1)),
            (.double(1e1), .int, .int(10)),
            (.double(1.5), .int, .double(1.5)),
            (dec("5.00"), .int, .int(5)),
            (.string("5"), .int, .int(5)),
            (.string("0x10"), .int, .int(16)),
            (.string("010"), .int, .int(8)),
            (.string("-2.0"), .int, .int(-2)),
            (.double(2.33), .float, .float(2.33)),
            (.string("2.5"), .double, .double(2.5)),
            (.int(3), .decimal128, dec("3")),
            (.string("0.1"), .decimal128, dec("0.1")),
            (.string("abc"), .data, .data([0x61, 0x62, 0x63])),
            (.string("1"), .mixed, .string("1")),
            (.null, .int, .null),
            (.list([.double(2.0), .string("x")]), .int, .list([.int(2), .string("x")])),
        ]
    )
    func conversions(constant: Value, type: PropertyType, expected: Value) throws {
        #expect(try ValueCoercion.coerce(constant, toCompareWith: type) == expected)
    }

    @Test(
        "incomparable constants are errors with realm-core's messages",
        arguments: [
            (Value.string("string"), PropertyType.int, "Unsupported comparison between type 'int' and type 'string'"),
            (.double(.infinity), .int, "Infinity not supported for int"),
            (.double(.nan), .int, "NaN not supported for int"),
            (.int(3), .string, "Unsupported comparison between type 'string' and type 'int'"),
            (
                .string("11223344556677889900aabb"), .objectId,
                "Unsupported comparison between type 'objectId' and type 'string'"
            ),
            (.int(1), .bool, "Unsupported comparison between type 'bool' and type 'int'"),
            (.int(0), .object("Dog"), "Unsupported comparison between type 'link' and type 'int'"),
        ]
    )
    func errors(constant: Value, type: PropertyType, message: String) {
        do {
            let value = try ValueCoercion.coerce(constant, toCompareWith: type)
            Issue.record("converted to \(value)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("integer text follows strtoll: sign, hex, octal, whole text only")
    func integerText() {
        #expect(ValueCoercion.parseInteger("-9223372036854775808") == Int64.min)
        #expect(ValueCoercion.parseInteger("9223372036854775808") == nil)
        #expect(ValueCoercion.parseInteger("0") == 0)
        #expect(ValueCoercion.parseInteger("08") == nil)
        #expect(ValueCoercion.parseInteger("12a") == nil)
        #expect(ValueCoercion.parseInteger("--1") == nil)
        #expect(ValueCoercion.parseInteger("") == nil)
    }
}

@Suite("@type and @size")
struct TypeAttributeTests {
    @Test(
        "type names are case-insensitive and cover their kinds",
        arguments: [
            ("INT", Value.int(1), true),
            ("long", .int(1), true),
            ("Numeric", .decimal(.zero), true),
            ("numeric", .float(1), true),
            ("numeric", .bool(true), false),
            ("byte[]", .data([]), true),
            ("timestamp", .date(Timestamp.epoch), true),
            ("collection", .map(MixedMap()), true),
            ("collection", .list([]), true),
            ("object", .list([]), false),
            ("guid", .uuid(UUID()), true),
            ("null", .null, true),
            ("string", .int(1), false),
        ]
    )
    func names(name: String, value: Value, expected: Bool) throws {
        #expect(try TypeAttribute(name).matches(value) == expected)
    }

    @Test("an unknown type name is an error listing the supported names")
    func unknownName() {
        #expect(throws: TypeAttributeError(name: "asdf")) { try TypeAttribute("asdf") }
        #expect(
            TypeAttributeError(name: "asdf").description.hasPrefix(
                "Unable to parse the type attribute string 'asdf', supported case insensitive values are: [null, int,"
            )
        )
        #expect(TypeAttribute.name(of: .decimal(.zero)) == "decimal128")
    }

    @Test("a property that is not mixed has one @type name; two values have the same @type only if one kind")
    func staticTypes() throws {
        #expect(TypeAttribute.name(of: PropertyType.int) == "int")
        #expect(TypeAttribute.name(of: PropertyType.date) == "timestamp")
        #expect(TypeAttribute.name(of: PropertyType.object("Dog")) == "link")
        #expect(TypeAttribute.name(of: PropertyType.mixed) == nil)
        for type in [PropertyType.bool, .int, .float, .double, .string, .data, .date, .decimal128, .objectId, .uuid] {
            let name = try #require(TypeAttribute.name(of: type))
            #expect((try? TypeAttribute(name)) != nil, "\(name) is a name @type accepts")
        }
        #expect(TypeAttribute.sameType(.int(1), .int(2)))
        #expect(!TypeAttribute.sameType(.int(1), .double(1)))
        #expect(TypeAttribute.sameType(.null, .null))
        #expect(!TypeAttribute.sameType(.string("a"), .data([0x61])))
    }

    @Test("@size is the byte length of strings and binaries and the element count of collections")
    func sizes() {
        #expect(ValueAggregation.size(of: .string("é")) == 2)
        #expect(ValueAggregation.size(of: .data([1, 2, 3])) == 3)
        #expect(ValueAggregation.size(of: .list([.null, .null])) == 2)
        #expect(ValueAggregation.size(of: .map(MixedMap(["a": .int(1)]))) == 1)
        #expect(ValueAggregation.size(of: .int(5)) == nil)
    }
}
