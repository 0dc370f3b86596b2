import Foundation
import RQLCore
import RQLDatasets
import RQLEngine
import Testing

@testable import RQLStorage
@testable import RQLTools

/// `rqlc run` writes its results through `DatasetObjectWriter`, straight from the column views;
/// what it prints must stay byte for byte what the dataset exporter's `JSONValue`s give (the way
/// rqlc printed before), in every format, for every property type, on a dataset and on a store
/// file (with deleted rows, so keys are not positions), in table order and sorted.
@Suite("rqlc run: result output matches the exporter byte for byte")
struct ResultOutputTests {
    typealias Directory = StoreCommandTests.Directory

    /// Every property type, optional and not, nulls, strings that need escapes (quotes,
    /// backslashes, C0, DEL and C1 controls, non-ASCII, a combining mark, CSV's comma), NaN and
    /// the infinities, dates beyond ISO-8601's years, collections, mixed values of every tag,
    /// links to classes keyed by string, objectId and position, and embedded objects in
    /// embedded objects.
    static let everyType = #"""
        {"schema": {
           "Owner": {"primaryKey": "name", "properties": {"name": "string", "n": "int",
                     "things": "linkingObjects<Thing.owners>"}},
           "Tag": {"properties": {"label": "string?"}},
           "Ident": {"primaryKey": "o", "properties": {"o": "objectId"}},
           "Geo": {"embedded": true, "properties": {"lat": "double", "ids": "list<int>"}},
           "Addr": {"embedded": true, "properties": {"street": "string", "tags": "list<string>", "owner": "Owner?",
                    "geo": "Geo?", "geos": "list<Geo>"}},
           "Thing": {"primaryKey": "id", "properties": {
              "id": "int", "b": "bool", "bo": "bool?", "i": "int", "io": "int?", "f": "float", "fo": "float?",
              "d": "double", "do": "double?", "s": "string", "so": "string?", "bin": "data", "bino": "data?",
              "t": "date", "to": "date?", "dec": "decimal128", "deco": "decimal128?", "o": "objectId",
              "oo": "objectId?", "u": "uuid", "uo": "uuid?", "m": "mixed", "li": "list<int>", "lio": "list<int?>",
              "ld": "list<double>", "ls": "list<string?>", "lb": "list<bool>", "lf": "list<float>",
              "lt": "list<date>", "ss": "set<string>", "si": "set<int>", "mi": "map<int>", "mm": "map<mixed>",
              "lm": "list<mixed>", "owner": "Owner?", "owners": "list<Owner>", "tag": "Tag?", "tags": "list<Tag>",
              "ident": "Ident?", "addr": "Addr?", "addrs": "list<Addr>", "mo": "map<Owner?>", "so2": "set<Owner>"}}},
         "objects": {
           "Owner": [{"name": "Ann, \"the\" first\n", "n": 1}, {"name": "Bo", "n": 2}, {"name": "漢字 é", "n": 3}],
           "Tag": [{"label": "red"}, {"label": null}, {"label": "a\u0001b"}],
           "Ident": [{"o": "0123456789abcdef01234567"}],
           "Thing": [
             {"id": 1, "b": true, "bo": false, "i": -9223372036854775808, "io": 9223372036854775807, "f": 0.1,
              "fo": "NaN", "d": 1e300, "do": "-Infinity", "s": "q\"b\\s\n\r\t\u0001\u001f\u007f\u0085\u009f\u00a0 é 漢字 😀 e\u0301 ,x",
              "so": "plain", "bin": "AAEC/w==", "bino": "", "t": "1969-07-20T20:17:40.123456789Z",
              "to": {"$date": [-9223372036854775808, 0]}, "dec": "-1.50E-10", "deco": "-0",
              "o": "ffffffffffffffffffffffff", "oo": "000000000000000000000000",
              "u": "00000000-0000-0000-0000-000000000001", "uo": "ffffffff-ffff-ffff-ffff-ffffffffffff",
              "m": {"$float": "NaN"}, "li": [1, -2, 0], "lio": [null, 3], "ld": [0.5, "NaN", "Infinity", 5e-324],
              "ls": ["a\"", null, "\u0085"], "lb": [true, false], "lf": [1.5, "-Infinity"],
              "lt": ["2020-01-01T00:00:00Z", {"$date": [9223372036854775807, 999999999]}],
              "ss": ["b", "a", "é"], "si": [3, 1, 2], "mi": {"z": 1, "a\n": 2}, "mm": {"x": {"$oid": "0123456789abcdef01234567"}, "y": [1, {"k": null}]},
              "lm": [1, 1.0, "s", null, true, {"$decimal": "1"}, {"$date": [-1, -2]}, {"$binary": ""}, [{"k": [null]}],
                     {"$link": {"class": "Owner", "key": "Bo"}}, {"$uuid": "00000000-0000-0000-0000-000000000003"},
                     {"$double": "Infinity"}, {"$float": 2.5}, {"$link": {"class": "Tag", "key": 2}}],
              "owner": "Ann, \"the\" first\n", "owners": ["Bo", "漢字 é", "Bo"], "tag": 2, "tags": [0, 1, 2],
              "ident": "0123456789abcdef01234567",
              "addr": {"street": "Main \"1\"", "tags": ["x", "y"], "owner": "Bo",
                       "geo": {"lat": 1.25, "ids": [1, 2]}, "geos": [{"lat": -0.0, "ids": []}]},
              "addrs": [{"street": "a", "tags": [], "owner": null, "geo": null, "geos": []},
                        {"street": "b,c", "tags": ["\t"], "owner": "漢字 é", "geo": {"lat": 2.0, "ids": [3]}, "geos": []}],
              "mo": {"k": "Bo", "n": null}, "so2": ["Bo", "Ann, \"the\" first\n"]},
             {"id": 2, "m": "text \"q\"", "f": "Infinity", "d": "NaN", "s": "", "t": -0.000000001,
              "mm": {}, "lm": [], "owner": null},
             {"id": 3, "m": {"$link": {"class": "Thing", "key": 1}}, "s": "3", "tag": 0, "ident": null, "addr": null},
             {"id": -4, "m": [1, [2, [3]], {"a": {"b": {"$oid": "0123456789abcdef01234567"}}}], "s": "minus"},
             {"id": 5, "m": {"$date": [1, 5]}, "s": "\u00ff\u0000"}]}}
        """#

    /// `count` rows of a class without a primary key over three blocks, and of one keyed by int.
    static func bigDataset(count: Int) -> String {
        var rows: [String] = []
        for i in 0..<count {
            let nickname = i % 3 == 0 ? "null" : "\"n\(i % 17)\\\"\""
            rows.append(#"{"id": \#(i), "age": \#(i % 100), "score": \#(Double(i % 1000) / 7), "nick": \#(nickname)}"#)
        }
        return #"""
            {"schema": {"Big": {"primaryKey": "id", "properties": {"id": "int", "age": "int", "score": "double",
                                "nick": "string?"}},
                        "Plain": {"properties": {"v": "int"}}},
             "objects": {"Big": [\#(rows.joined(separator: ",\n"))],
                         "Plain": [\#((0..<count).map { #"{"v": \#($0 % 5)}"# }.joined(separator: ","))]}}
            """#
    }

    static let queries: [(className: String, query: String)] = [
        ("Thing", "TRUEPREDICATE"), ("Thing", "TRUEPREDICATE SORT(id DESC)"), ("Thing", "s BEGINSWITH 'q'"),
        ("Thing", "id == 99"), ("Owner", "TRUEPREDICATE"), ("Tag", "TRUEPREDICATE SORT(label DESC)"),
        ("Ident", "TRUEPREDICATE"),
        ("Big", "age > 90"), ("Big", "age < 3 SORT(score DESC, id ASC)"), ("Big", "TRUEPREDICATE LIMIT(5000)"),
        ("Big", "nick == nil SORT(id DESC) LIMIT(4200)"), ("Plain", "v == 1"), ("Plain", "v > 2 SORT(v ASC)"),
    ]

    static let formats = ["jsonl", "json", "keys", "csv", "table"]

    @Test("every format prints what the exporter's JSON values give, on a dataset and on a store file with deletions")
    func matchesExporter() throws {
        let directory = try Directory()
        let every = try StoreCommandTests.importChecked(Self.everyType, name: "every", in: directory)
        let big = try StoreCommandTests.importChecked(Self.bigDataset(count: 9_000), name: "big", in: directory)
        // Deleted rows: keys are no longer positions, and blocks hold gaps.
        _ = try BlockStore.open(path: big.store).write { t in
            for key in stride(from: 0, to: 9_000, by: 7) {
                try t.delete(ObjectLink(className: "Big", key: RowKey(Int64(key))))
            }
            try t.delete(ObjectLink(className: "Plain", key: RowKey(4_100)))
        }
        var checked = 0
        for (className, query) in Self.queries {
            let paths = className == "Big" || className == "Plain" ? [big.json, big.store] : [every.json, every.store]
            for path in paths {
                let snapshot =
                    path.hasSuffix(".rql")
                    ? try BlockStore.open(path: path, readOnly: true).snapshot
                    : try DatasetLoader.load(json: String(contentsOfFile: path, encoding: .utf8))
                let engine = QueryEngine()
                let keys = engine.run(try engine.compile(query, className: className, store: snapshot), on: snapshot)
                let table = try #require(snapshot.table(named: className))
                for format in Self.formats {
                    let result = RQLCommand.run(
                        ["run", "--data", path, "--class", className, "--format", format, query]
                    )
                    #expect(result.exitCode == 0, "\(format) \(query): \(result.standardError)")
                    let expected = try Self.reference(format, keys, table, snapshot)
                    #expect(result.standardOutput == expected, "\(format) \(query) on \(path)")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.queries.count * 2 * Self.formats.count)
    }

    @Test("keys print digit for digit: every length of int key, both signs, the extremes, a null key, positions")
    func keyDigits() throws {
        var ids: [Int64] = [.min, .max, 0, -1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            ids += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        let keyed = (ids.map { #"{"id": \#($0)}"# } + [#"{"id": null}"#]).joined(separator: ",")
        let plain = (0..<5_000).map { #"{"v": \#($0 % 7)}"# }.joined(separator: ",")
        let json = #"""
            {"schema": {"K": {"primaryKey": "id", "properties": {"id": "int?"}}, "P": {"properties": {"v": "int"}}},
             "objects": {"K": [\#(keyed)], "P": [\#(plain)]}}
            """#
        let directory = try Directory()
        let paths = try StoreCommandTests.importChecked(json, name: "digits", in: directory)
        for path in [paths.json, paths.store] {
            let keys = RQLCommand.run(["run", "--data", path, "--class", "K", "--format", "keys", "TRUEPREDICATE"])
            #expect(keys.exitCode == 0, "\(keys.standardError)")
            let lines = keys.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "", "\(path): the last key ends its line")
            #expect(Set(lines.dropLast()) == Set(ids.map { Substring(String($0)) } + ["null"]), "\(path)")
            #expect(lines.count == ids.count + 2, "\(path)")
            let positions = RQLCommand.run(["run", "--data", path, "--class", "P", "--format", "keys", "v == 3"])
            let expected = (0..<5_000).filter { $0 % 7 == 3 }.map { "\($0)\n" }.joined()
            #expect(positions.standardOutput == expected, "\(path)")
        }
    }

    @Test("export prints what DatasetExporter.export gives, for every property type and across blocks")
    func exportMatchesExporter() throws {
        let directory = try Directory()
        for (name, json) in [("every", Self.everyType), ("big", Self.bigDataset(count: 9_000))] {
            let paths = try StoreCommandTests.importChecked(json, name: name, in: directory)
            let store = try BlockStore.open(path: paths.store, readOnly: true)
            let result = RQLCommand.run(["export", paths.store])
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput == (try DatasetExporter.export(store.snapshot)) + "\n", "\(name)")
        }
    }

    @Test("rqlc shell prints through the same writer")
    func shell() throws {
        let directory = try Directory()
        let every = try StoreCommandTests.importChecked(Self.everyType, name: "every", in: directory)
        let snapshot = try BlockStore.open(path: every.store, readOnly: true).snapshot
        let engine = QueryEngine()
        let keys = engine.run(try engine.compile("TRUEPREDICATE", className: "Thing", store: snapshot), on: snapshot)
        let table = try #require(snapshot.table(named: "Thing"))
        for format in Self.formats {
            let script = ".class Thing\n.format \(format)\nTRUEPREDICATE\n"
            let result = RQLCommand.run(
                ["shell", every.store],
                environment: CommandEnvironment(files: [:], standardInput: Array(script.utf8))
            )
            #expect(result.exitCode == 0, "\(format): \(result.standardError)")
            #expect(try result.standardOutput == Self.reference(format, keys, table, snapshot), "\(format)")
        }
    }

    /// What rqlc printed before `DatasetObjectWriter`: each object built as a `JSONValue` by
    /// `DatasetExporter` and serialized.
    static func reference(
        _ format: String,
        _ keys: [RowKey],
        _ table: BlockTable,
        _ store: BlockSnapshot
    ) throws -> String {
        let positions = keys.compactMap { table.position(of: $0) }
        let properties = table.objectSchema.properties.filter { !$0.isBacklink }
        func members(_ position: Int) throws -> [JSONMember] {
            guard case .object(let members) = try DatasetExporter.object(at: position, in: table, store: store) else {
                return []
            }
            return members
        }
        switch format {
        case "jsonl":
            return try positions.map { try DatasetExporter.object(at: $0, in: table, store: store).serialized() + "\n" }
                .joined()
        case "json":
            let objects = try positions.map {
                try DatasetExporter.object(at: $0, in: table, store: store).serialized(pretty: true, indent: 1)
            }
            return objects.isEmpty ? "[]\n" : "[\n  " + objects.joined(separator: ",\n  ") + "\n]\n"
        case "keys":
            return positions.map { DatasetExporter.key(at: $0, in: table).serialized() + "\n" }.joined()
        case "csv":
            let records = try positions.map { position in
                CSV.line(
                    zip(properties, try members(position)).map { property, member in
                        switch member.value {
                        case .null: ""
                        case .string(let string) where !property.isLink: string
                        default: member.value.serialized()
                        }
                    }
                )
            }
            return CSV.header(of: table.objectSchema) + records.joined()
        default:
            let cells = try positions.map { position in
                try members(position).map { member in
                    if case .string(let string) = member.value { string } else { member.value.serialized() }
                }
            }
            return ResultFormat.textTable(cells, of: table.objectSchema)
        }
    }
}
