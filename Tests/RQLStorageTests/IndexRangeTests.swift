import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Index ranges")
struct IndexRangeTests {
    /// The rows for which `x > lower` (or `>=`) and `x < upper` (or `<=`) hold under
    /// `ValueComparison`: what an index range must return.
    static func bruteForce(
        _ values: [Value],
        lower: Value?,
        lowerInclusive: Bool,
        upper: Value?,
        upperInclusive: Bool
    ) -> [Int] {
        values.indices.filter { row in
            let x = values[row]
            if let lower, !ValueComparison.evaluate(x, lowerInclusive ? .greaterOrEqual : .greater, lower) {
                return false
            }
            if let upper, !ValueComparison.evaluate(x, upperInclusive ? .lessOrEqual : .less, upper) { return false }
            // An unbounded range still leaves out what no ordered comparison matches.
            return !x.isNull && !NumericComparison.isNaN(x)
        }
    }

    /// A store with one indexed property of each kind that gets a sorted index, plus an indexed
    /// string (hash only) and an unindexed int.
    static func store(rows: Int, seed: UInt64) throws -> (BlockSnapshot, [String: [Value]]) {
        let schema = try DatasetLoader.loadSchema(
            json: #"""
                {"schema": {"Row": {"indexed": ["i", "d", "f", "dec", "when", "s"],
                  "properties": {"i": "int?", "d": "double", "f": "float?", "dec": "decimal128?",
                                 "when": "date?", "s": "string", "plain": "int"}}}}
                """#
        )
        var rng = SplitMix(seed: seed)
        func maybeNull(_ value: Value) -> Value { rng.next() % 7 == 0 ? .null : value }
        let doubles: [Double] = [-.infinity, -2.5, -0.0, 0.0, 0.5, 1, 2, 2.5, 1e300, .infinity, .nan]
        var columns: [String: [Value]] = [:]
        columns["i"] = (0..<rows).map { _ in maybeNull(.int(Int64(rng.next() % 21) - 10)) }
        columns["d"] = (0..<rows).map { _ in .double(doubles[Int(rng.next() % UInt64(doubles.count))]) }
        columns["f"] = (0..<rows).map { _ in maybeNull(.float(Float(Int(rng.next() % 9) - 4) / 2)) }
        columns["dec"] = (0..<rows).map { _ in
            maybeNull(.decimal(try! Decimal128("\(Int(rng.next() % 41) - 20).\(rng.next() % 10)")))
        }
        columns["when"] = (0..<rows).map { _ in
            maybeNull(.date(Timestamp(seconds: Int64(rng.next() % 5) - 2, nanoseconds: 0)!))
        }
        columns["s"] = (0..<rows).map { _ in .string("s\(rng.next() % 5)") }
        columns["plain"] = (0..<rows).map { _ in .int(Int64(rng.next() % 5)) }
        let store = try BlockSnapshot(schema: schema, columns: ["Row": columns.mapValues { .values($0) }])
        return (store, columns)
    }

    static let bounds: [Value?] = [
        nil, .int(-3), .int(0), .int(2), .double(-0.0), .double(0.5), .double(2.5), .double(-.infinity),
        .double(.infinity), .float(1.5), .decimal(try! Decimal128("0.5")), .decimal(try! Decimal128("-3")),
    ]

    @Test(
        "a range holds exactly the rows the comparisons match, for every numeric type and bound type",
        arguments: ["i", "d", "f", "dec"]
    )
    func numericRangesMatchComparisons(property: String) throws {
        for (rows, seed) in [(100, 1), (3000, 2)] as [(Int, UInt64)] {
            let (store, columns) = try Self.store(rows: rows, seed: seed)
            let table = try #require(store.table(named: "Row"))
            let column = try #require(table.objectSchema.propertyIndex(named: property))
            let values = try #require(columns[property])
            for lower in Self.bounds {
                for upper in Self.bounds {
                    for (li, ui) in [(true, true), (true, false), (false, true), (false, false)] {
                        let got = table.indexRange(
                            property: column,
                            lower: lower,
                            lowerInclusive: li,
                            upper: upper,
                            upperInclusive: ui
                        )
                        let expected = Self.bruteForce(
                            values,
                            lower: lower,
                            lowerInclusive: li,
                            upper: upper,
                            upperInclusive: ui
                        )
                        #expect(
                            got == expected,
                            "\(property) \(String(describing: lower)) \(li) \(String(describing: upper)) \(ui)"
                        )
                    }
                }
            }
        }
    }

    @Test("dates range by instant; nulls are never inside")
    func dateRanges() throws {
        let (store, columns) = try Self.store(rows: 500, seed: 3)
        let table = try #require(store.table(named: "Row"))
        let column = try #require(table.objectSchema.propertyIndex(named: "when"))
        let values = try #require(columns["when"])
        let dates = (-3...3).map { Value.date(Timestamp(seconds: Int64($0), nanoseconds: 0)!) }
        for lower in [nil] + dates {
            for upper in [nil] + dates {
                let got = table.indexRange(
                    property: column,
                    lower: lower,
                    lowerInclusive: true,
                    upper: upper,
                    upperInclusive: false
                )
                #expect(
                    got
                        == Self.bruteForce(
                            values,
                            lower: lower,
                            lowerInclusive: true,
                            upper: upper,
                            upperInclusive: false
                        )
                )
            }
        }
    }

    @Test("only indexed properties of an orderable type have a sorted index; every index answers ranges")
    func whichPropertiesHaveOne() throws {
        let (store, _) = try Self.store(rows: 10, seed: 4)
        let table = try #require(store.table(named: "Row"))
        for (name, expected) in [("i", true), ("d", true), ("when", true), ("s", false), ("plain", false)] {
            let column = try #require(table.objectSchema.propertyIndex(named: name))
            #expect(table.objectSchema.properties[column].hasSortedIndex == expected, "\(name)")
            let answer = table.indexRange(
                property: column,
                lower: nil,
                lowerInclusive: true,
                upper: nil,
                upperInclusive: true
            )
            #expect((answer != nil) == table.hasIndex(property: column), "\(name)")
        }
    }

    @Test("a null or NaN bound gives an empty range: no ordered comparison with them holds")
    func nullAndNaNBounds() throws {
        let (store, _) = try Self.store(rows: 200, seed: 5)
        let table = try #require(store.table(named: "Row"))
        let column = try #require(table.objectSchema.propertyIndex(named: "d"))
        for bound in [Value.null, .double(.nan), .float(.nan)] {
            #expect(
                table.indexRange(property: column, lower: bound, lowerInclusive: true, upper: nil, upperInclusive: true)
                    == []
            )
            #expect(
                table.indexRange(property: column, lower: nil, lowerInclusive: true, upper: bound, upperInclusive: true)
                    == []
            )
        }
    }

    @Test("narrow and wide ranges over several blocks come back in ascending position order")
    func ascendingOverBlocks() throws {
        let count = 10_000
        var rng = SplitMix(seed: 6)
        let values = (0..<count).map { _ in Int64(rng.next() % 1000) }
        let schema = try Schema([
            ObjectSchema(name: "Row", properties: [Property(name: "n", type: .int, isIndexed: true)])
        ])
        let store = try BlockSnapshot(schema: schema, columns: ["Row": ["n": .int(values)]])
        let table = try #require(store.table(named: "Row"))
        #expect(table.blockCount > 1)
        for (low, high) in [(5, 5), (0, 10), (100, 900), (-1, 2000)] {
            let got = table.indexRange(
                property: 0,
                lower: .int(Int64(low)),
                lowerInclusive: true,
                upper: .int(Int64(high)),
                upperInclusive: true
            )
            #expect(got == values.indices.filter { (Int64(low)...Int64(high)).contains(values[$0]) })
        }
    }

    @Test("an indexed mixed property ranges across types and leaves out nulls and NaNs")
    func mixedRanges() throws {
        let values: [Value] = [
            .string("b"), .int(3), .null, .double(.nan), .double(1.5), .bool(true), .string("a"),
            .link(ObjectLink(className: "X", key: RowKey(0))), .decimal(Decimal128(Int64(2))),
        ]
        let schema = try Schema([
            ObjectSchema(name: "Row", properties: [Property(name: "m", type: .mixed, isIndexed: true)]),
            ObjectSchema(name: "X", properties: [Property(name: "n", type: .int)]),
        ])
        let store = try BlockSnapshot(
            schema: schema,
            columns: ["Row": ["m": .values(values)], "X": ["n": .int([0])]]
        )
        let table = try #require(store.table(named: "Row"))
        // Numbers between 1 and 3 inclusive, whatever their type.
        #expect(
            table.indexRange(property: 0, lower: .int(1), lowerInclusive: true, upper: .int(3), upperInclusive: true)
                == [1, 4, 8]
        )
        // ValueOrdering puts strings after numbers (and links after strings: the mixed index
        // orders every value, so a string range is bounded on both sides).
        #expect(
            table.indexRange(
                property: 0,
                lower: .string(""),
                lowerInclusive: true,
                upper: .string("z"),
                upperInclusive: true
            ) == [0, 6]
        )
    }
}
