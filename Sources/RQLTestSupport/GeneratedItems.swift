import Foundation
import RQLCore
import RQLDatasets
import RQLStorage

/// Generated data and queries for the optimizer's and the VM's property tests: a schema with every kind of column the
/// optimizer reasons about (indexed and not, optional, mixed, NaN-holding, links, lists), data
/// drawn from small domains so that comparisons collide, and queries over every operator.
public enum Generated {
    public static let schemaJSON = #"""
        {"schema": {
          "Item": {"primaryKey": "id", "indexed": ["i", "io", "d", "f", "s", "b", "dt", "m", "dec"],
            "properties": {"id": "int", "i": "int", "io": "int?", "d": "double", "f": "float?", "s": "string",
                           "so": "string?", "b": "bool", "dt": "date?", "m": "mixed", "dec": "decimal128?",
                           "tags": "list<int>", "owner": "Owner?", "others": "list<Owner>"}},
          "Owner": {"primaryKey": "name", "indexed": ["age"], "properties": {"name": "string", "age": "int?",
                    "nick": "string?", "score": "decimal128?", "scores": "list<int>", "weights": "set<double>",
                    "boss": "Owner?"}}
        }}
        """#

    public static let strings = ["", "a", "ab", "abc", "B", "b", "ß", "é", "e", "Ab"]

    /// A store of `count` items and 10 owners; with `deleting`, some items are deleted afterwards
    /// so that row keys and positions differ.
    public static func store(count: Int, seed: UInt64, deleting: Bool = false) throws -> BlockSnapshot {
        let schema = try DatasetLoader.loadSchema(json: schemaJSON)
        var rng = SeededRandom(seed: seed)
        func optional(_ value: Value) -> Value { rng.chance(20) ? .null : value }
        func decimal(_ text: String) -> Value { .decimal(try! Decimal128(text)) }
        let doubles: [Double] = [-1.5, -0.0, 0, 0.5, 1, 2, 2.5, 3, .nan, .infinity, -.infinity]
        let floats: [Float] = [-1, 0, 0.5, 1.5, 2, .nan]
        let mixed: [Value] = [
            .null, .int(1), .int(2), .double(1), .double(2.5), .string("a"), .string("1"), .bool(true),
            decimal("1"), decimal("2.5"), .double(.nan), .list([.int(1)]), .int(-1),
        ]
        var items: [String: [Value]] = [:]
        func column(_ name: String, _ make: () -> Value) { items[name] = (0..<count).map { _ in make() } }
        items["id"] = (0..<count).map { .int(Int64($0 * 3 + 1)) }
        column("i") { .int(Int64(rng.int(below: 10) - 3)) }
        column("io") { optional(.int(Int64(rng.int(below: 7) - 2))) }
        column("d") { .double(rng.pick(doubles)) }
        column("f") { optional(.float(rng.pick(floats))) }
        column("s") { .string(rng.pick(strings)) }
        column("so") { optional(.string(rng.pick(strings))) }
        column("b") { .bool(rng.chance(50)) }
        column("dt") { optional(.date(Timestamp(seconds: Int64(rng.int(below: 6) - 2), nanoseconds: 0)!)) }
        column("m") { rng.pick(mixed) }
        column("dec") { optional(decimal(rng.pick(["-1", "0", "1", "1.0", "2.5", "3"]))) }
        column("tags") { .list((0..<rng.int(below: 4)).map { _ in .int(Int64(rng.int(below: 5) - 1)) }) }
        column("owner") {
            rng.chance(30) ? .null : .link(ObjectLink(className: "Owner", key: RowKey(Int64(rng.int(below: 10)))))
        }
        column("others") {
            .list(
                (0..<rng.int(below: 4)).map { _ in
                    .link(ObjectLink(className: "Owner", key: RowKey(Int64(rng.int(below: 10)))))
                }
            )
        }
        // Owners link to owners (`owner.boss.age`: nulls along the path) and hold collections,
        // some empty (`owner.scores.@count`, `ANY owner.weights > 1`).
        let owners: [String: ColumnValues] = [
            "name": .values((0..<10).map { .string("o\($0)") }),
            "age": .values((0..<10).map { _ in optional(.int(Int64(20 + rng.int(below: 5)))) }),
            "nick": .values((0..<10).map { _ in optional(.string(rng.pick(strings))) }),
            "score": .values((0..<10).map { _ in optional(decimal(rng.pick(["-1", "0", "1", "2.5"]))) }),
            "scores": .values(
                (0..<10).map { _ in .list((0..<rng.int(below: 4)).map { _ in .int(Int64(rng.int(below: 5))) }) }
            ),
            "weights": .values(
                (0..<10).map { _ in
                    .list(
                        Set((0..<rng.int(below: 3)).map { _ in rng.int(below: 4) }).sorted().map {
                            .double(Double($0) / 2)
                        }
                    )
                }
            ),
            "boss": .values(
                (0..<10).map { _ in
                    rng.chance(40)
                        ? .null : .link(ObjectLink(className: "Owner", key: RowKey(Int64(rng.int(below: 10)))))
                }
            ),
        ]
        var store = try BlockSnapshot(
            schema: schema,
            columns: ["Item": items.mapValues { .values($0) }, "Owner": owners]
        )
        if deleting {
            let doomed = (0..<count).filter { $0 % 7 == 3 }.map { RowKey(Int64($0)) }
            store = try store.deleting(doomed, from: "Item")
            // Links to deleted owners: a gather must find no target.
            store = try store.deleting([RowKey(3), RowKey(8)], from: "Owner")
        }
        return store
    }

    /// Constants to compare each property with, as written in RQL.
    public static let constants: [String: [String]] = [
        "id": ["1", "4", "7", "0", "100", "4.0"],
        "i": ["-1", "0", "1", "2", "2.5", "3", "6", "-3", "1.0"],
        "io": ["-1", "0", "2", "3", "null", "1.5"],
        "d": ["-1.5", "0", "-0.0", "0.5", "1", "2", "2.5", "inf", "-inf", "3", "nan"],
        "f": ["0", "0.5", "1.5", "2", "-1", "1.5f", "null", "0.5f"],
        "s": ["''", "'a'", "'ab'", "'B'", "'ß'", "'e'", "'é'", "'abc'"],
        "so": ["''", "'a'", "'b'", "null", "'ab'"],
        "b": ["true", "false", "null"],
        "dt": ["T-1:0", "T0:0", "T2:0", "T1:0"],
        "m": ["1", "2.5", "'a'", "true", "null", "1.0", "'1'", "-1", "2"],
        "dec": ["1", "2.5", "0", "-1", "1.0", "3"],
        "owner.age": ["20", "22", "null", "25"],
        "tags": ["0", "1", "2", "-1"],
        "owner.boss.age": ["20", "22", "null", "23"],
        "owner.nick": ["''", "'a'", "'b'", "null", "'ab'"],
        "owner.score": ["1", "2.5", "0", "null", "-1"],
        "owner.boss.name": ["'o1'", "'o2'", "null", "'o'"],
    ]

    public static let comparisons = ["==", "!=", "<", "<=", ">", ">="]

    /// A random predicate over Item, `depth` levels of AND/OR/NOT at most.
    public static func predicate(_ rng: inout SeededRandom, depth: Int = 3) -> String {
        if depth > 0 && rng.chance(45) {
            switch rng.int(below: 5) {
            case 0:
                return "NOT " + parenthesized(predicate(&rng, depth: depth - 1))
            case 1, 2:
                // Several tests of one column: what filter combining and index selection work on.
                let property = rng.pick(["i", "io", "d", "s", "dt", "m", "dec", "id", "f"])
                let count = 2 + rng.int(below: 3)
                let glue = rng.chance(50) ? " AND " : " OR "
                return parenthesized((0..<count).map { _ in atom(&rng, on: property) }.joined(separator: glue))
            default:
                let count = 2 + rng.int(below: 3)
                let glue = rng.chance(50) ? " AND " : " OR "
                return parenthesized((0..<count).map { _ in predicate(&rng, depth: depth - 1) }.joined(separator: glue))
            }
        }
        return atom(&rng, on: nil)
    }

    static func parenthesized(_ text: String) -> String { "(" + text + ")" }

    /// One comparison, on `property` or a random one.
    public static func atom(_ rng: inout SeededRandom, on property: String?) -> String {
        let name =
            property
            ?? rng.pick([
                "i", "io", "d", "f", "s", "so", "b", "dt", "m", "dec", "id", "tags", "owner", "owner.age", "special",
                "owner.boss.age", "owner.nick", "owner.score", "owner.boss.name", "collections",
            ])
        let k = { (rng: inout SeededRandom) in rng.pick(constants[name] ?? ["1"]) }
        switch name {
        case "tags":
            let quantifier = rng.pick(["ANY ", "ALL ", "NONE ", "", "SOME "])
            if rng.chance(25) { return "tags.@count \(rng.pick(comparisons)) \(rng.int(below: 4))" }
            if rng.chance(15) { return "tags.@sum > \(rng.int(below: 5))" }
            return "\(quantifier)tags \(rng.pick(comparisons)) \(k(&rng))"
        case "owner":
            return rng.pick(["owner == nil", "owner != nil", "owner.name == 'o1'", "owner.name IN {'o1', 'o2'}"])
        case "collections":
            // Collections of values through a to-one link (null for some items), quantified,
            // counted and aggregated.
            let collection = rng.pick(["owner.scores", "owner.weights", "tags", "owner.boss.scores"])
            let k = rng.pick(["0", "1", "2", "0.5", "null"])
            switch rng.int(below: 4) {
            case 0: return "\(collection).@count \(rng.pick(comparisons)) \(rng.int(below: 3))"
            case 1: return "\(collection).\(rng.pick(["@sum", "@avg", "@min", "@max"])) \(rng.pick(comparisons)) \(k)"
            case 2: return "\(rng.pick(["ANY", "ALL", "NONE", ""])) \(collection) \(rng.pick(comparisons)) \(k)"
            default: return "\(collection).@size == 0"
            }
        case "special":
            return rng.pick([
                "TRUEPREDICATE", "FALSEPREDICATE", "i + 1 > 2", "i > 1 + 1", "i * 2 == 4", "i IN {}",
                "2 * 3 < i", "d / 0 > 1", "NOT (i == 1 OR i == 2)", "SUBQUERY(others, $o, $o.age > 21).@count > 0",
                "SUBQUERY(others, $o, $o.age > 20 AND $o.age > 21 AND NOT $o.name == 'o1').@count == 1",
                "SUBQUERY(others, $o, $o.age == 20 OR $o.age == 22 OR $o.age IN {24, 24}).@count > 0",
                "ANY others.age > 21", "ALL others.age >= 21", "others.@count > 1", "NONE others.name IN {'o1', 'o2'}",
            ])
        default:
            break
        }
        switch rng.int(below: 10) {
        case 0, 1:
            let list = (0..<rng.int(below: 5)).map { _ in k(&rng) }.joined(separator: ", ")
            return "\(name) IN {\(list)}"
        case 2:
            return "\(name) BETWEEN {\(k(&rng)), \(k(&rng))}"
        case 3:
            // The constant first: normalization moves it.
            return "\(k(&rng)) \(rng.pick(comparisons)) \(name)"
        case 4 where name == "s" || name == "so" || name == "owner.nick",
            5 where name == "s" || name == "so" || name == "owner.nick":
            let op = rng.pick(["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "==", "!="])
            let options = rng.pick(["", "[c]", "[d]", "[cd]"])
            return "\(name) \(op)\(options) \(k(&rng))"
        default:
            return "\(name) \(rng.pick(comparisons)) \(k(&rng))"
        }
    }

    /// Numbers per row: columns, through links, counts and aggregates.
    public static let numbers = [
        "i", "io", "d", "f", "dec", "m", "id", "owner.age", "owner.boss.age", "owner.score", "tags.@count",
        "tags.@sum", "owner.scores.@max", "owner.weights.@avg", "owner.@links.@count",
    ]

    /// Two computed values compared: two paths (`io > owner.age`), arithmetic on either side
    /// (`i * 2 + 1 >= owner.age`), strings and links of two paths. Drawn from a stream of its own
    /// (see `DifferentialTests.run`), so the queries `predicate` makes for a seed stay the same.
    public static func values(_ rng: inout SeededRandom) -> String {
        func operand(_ rng: inout SeededRandom, depth: Int) -> String {
            if depth > 0 && rng.chance(40) {
                let op = rng.pick(["+", "-", "*", "/"])
                return "(\(operand(&rng, depth: depth - 1)) \(op) \(operand(&rng, depth: depth - 1)))"
            }
            if rng.chance(20) { return rng.pick(["0", "1", "2", "-1", "0.5", "null", "9223372036854775807"]) }
            return rng.pick(numbers)
        }
        switch rng.int(below: 5) {
        case 0:
            return rng.pick([
                "s == so", "so BEGINSWITH[c] owner.nick", "owner.name == owner.boss.name", "owner == owner.boss",
                "s != owner.nick", "owner.nick CONTAINS[cd] s", "so == owner.boss.nick", "s LIKE owner.nick",
                "m.@type == 'numeric'", "m.@type IN {'string', 'null'}", "m.@type != 'double'", "s.@size > 1",
                "so.@size == 0", "owner.nick.@size < s.@size", "m.@size >= 1", "owner.boss.nick.@count == 1",
                "@links.@count == 0", "owner.@links.@count > 1", "owner.boss.@links.@count >= i",
            ])
        default:
            let lhs = operand(&rng, depth: 2)
            var rhs = operand(&rng, depth: 2)
            if rhs == lhs { rhs = rng.pick(numbers) }
            return "\(lhs) \(rng.pick(comparisons)) \(rhs)"
        }
    }

    /// A predicate built around `values`: alone, or joined with a random predicate, or negated.
    public static func valuePredicate(_ rng: inout SeededRandom) -> String {
        switch rng.int(below: 4) {
        case 0: return values(&rng) + (rng.chance(50) ? " AND " : " OR ") + predicate(&rng, depth: 1)
        case 1: return "NOT " + parenthesized(values(&rng))
        default: return values(&rng)
        }
    }

    /// Result clauses, sometimes none.
    public static func clauses(_ rng: inout SeededRandom) -> String {
        rng.pick([
            "", "", "", " SORT(i ASC)", " SORT(d DESC, id ASC) LIMIT(3)", " LIMIT(2)", " DISTINCT(s)",
            " SORT(s ASC) DISTINCT(i) LIMIT(4)", " LIMIT(5) LIMIT(2)", " LIMIT(0)", " SORT(id DESC) LIMIT(1)",
            " SORT(owner.age ASC, id ASC) LIMIT(6)", " DISTINCT(owner.name)", " SORT(so DESC) LIMIT(7)",
            " DISTINCT(m, b)", " LIMIT(3) SORT(i DESC)",
        ])
    }
}
