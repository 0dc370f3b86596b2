import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// Every table's rows as values, embedded links replaced by the embedded object's own values
/// so that two stores compare equal regardless of embedded row numbering.
private func contents(_ store: BlockSnapshot) -> [String: [[Value]]] {
    func expand(_ value: Value) -> Value {
        switch value {
        case .link(let link):
            guard let (table, position) = store.resolve(link), table.objectSchema.isEmbedded else { return value }
            return .list(
                (0..<table.objectSchema.properties.count).map { expand(table.value(at: position, property: $0)) }
            )
        case .list(let items): return .list(items.map(expand))
        case .map(let map): return .map(MixedMap(map.map { ($0.key, expand($0.value)) }))
        default: return value
        }
    }
    var result: [String: [[Value]]] = [:]
    for objectSchema in store.schema.classes where !objectSchema.isEmbedded {
        guard let table = store.table(named: objectSchema.name) else { continue }
        result[objectSchema.name] = (0..<table.rowCount).map { row in
            (0..<objectSchema.properties.count).map { expand(table.value(at: row, property: $0)) }
        }
    }
    return result
}

@Suite("Dataset export")
struct DatasetRoundTripTests {
    @Test("demo dataset: load → export → load gives equal schema and data")
    func demoRoundTrip() throws {
        let original = try DemoDataset.load()
        let exported = try DatasetExporter.export(original)
        let reloaded = try DatasetLoader.load(json: exported)
        #expect(reloaded.schema == original.schema)
        #expect(contents(reloaded) == contents(original))
        // Export is deterministic: a second round gives the same text.
        #expect(try DatasetExporter.export(reloaded) == exported)
    }

    @Test("every value type survives the round trip, including NaN, infinities, negative dates and 64-bit extremes")
    func everyType() throws {
        let json = #"""
            {"schema": {
               "A": {"primaryKey": "id", "indexed": ["s"], "fulltext": ["text"],
                     "properties": {"id": "uuid", "b": "bool", "i": "int", "f": "float", "d": "double", "s": "string",
                                    "text": "string?", "bin": "data", "t": "date", "dec": "decimal128", "o": "objectId",
                                    "li": "list<int?>", "ss": "set<string>", "md": "map<double>", "m": "mixed",
                                    "ms": "list<mixed>", "next": "A?", "bs": "list<B>"}},
               "B": {"properties": {"n": "int", "owners": "linkingObjects<A.bs>"}}},
             "objects": {
               "A": [
                 {"id": "00000000-0000-0000-0000-000000000001", "b": true, "i": 9223372036854775807, "f": 0.1,
                  "d": "NaN", "s": "naïve \"quoted\"\n", "text": "Hello, world", "bin": "AAEC/w==",
                  "t": "1969-07-20T20:17:40.123456789Z", "dec": "-1.50E-10", "o": "ffffffffffffffffffffffff",
                  "li": [null, -9223372036854775808], "ss": ["b", "a"], "md": {"x": "-Infinity", "y": 1e300},
                  "m": {"$float": "NaN"}, "next": "00000000-0000-0000-0000-000000000002",
                  "ms": [1, 1.0, {"$decimal": "1"}, {"$date": [-1, -2]}, {"$binary": ""}, [{"k": [null]}],
                         {"$link": {"class": "B", "key": 0}}, {"$uuid": "00000000-0000-0000-0000-000000000003"}],
                  "bs": [1, 0, 1]},
                 {"id": "00000000-0000-0000-0000-000000000002", "t": -0.000000001, "d": 5e-324}],
               "B": [{"n": 1}, {"n": 2}]}}
            """#
        let original = try DatasetLoader.load(json: json)
        let reloaded = try DatasetLoader.load(json: try DatasetExporter.export(original))
        #expect(reloaded.schema == original.schema)
        #expect(contents(reloaded) == contents(original))
        #expect(firstValue(reloaded, "t", className: "A", row: 1) == .date(Timestamp(seconds: 0, nanoseconds: -1)!))
        let a0 = Value.link(ObjectLink(className: "A", key: RowKey(0)))
        #expect(firstValue(reloaded, "owners", className: "B", row: 1) == .list([a0, a0]))
        #expect(firstValue(reloaded, "owners", className: "B", row: 0) == .list([a0]))
    }
}

@Suite("Dataset robustness")
struct DatasetRobustnessTests {
    @Test("extreme dates export and reload exactly (tagged [s, ns] beyond nine-digit years)")
    func extremeDates() throws {
        let json = #"""
            {"schema": {"A": {"properties": {"t": "date", "m": "mixed"}}},
             "objects": {"A": [
               {"t": {"$date": [-9223372036854775808, 0]}, "m": {"$date": [9223372036854775807, 999999999]}},
               {"t": {"$date": [9223372036854775807, 999999999]}},
               {"t": "-0001-12-31T23:59:59.999999999Z"}]}}
            """#
        let store = try DatasetLoader.load(json: json)
        let reloaded = try DatasetLoader.load(json: try DatasetExporter.export(store))
        for row in 0..<3 {
            #expect(
                firstValue(reloaded, "t", className: "A", row: row) == firstValue(store, "t", className: "A", row: row)
            )
        }
        #expect(firstValue(reloaded, "m", className: "A") == .date(Timestamp(seconds: .max, nanoseconds: 999_999_999)!))
        #expect(throws: DatasetError.self) {
            try DatasetLoader.load(
                json: #"{"schema": {"A": {"properties": {"t": "date"}}}, "#
                    + #""objects": {"A": [{"t": {"$date": [-9223372036854775808, -1]}}]}}"#
            )
        }
    }

    @Test("randomly damaged documents load or throw a DatasetError, and never crash")
    func mutations() {
        var random = SplitMix(seed: 42)
        let original = Array(DemoDataset.json.utf8)
        let insertions = Array(#"{}[]",:0123456789.-e"$\ntrue"#.utf8)
        var loaded = 0
        var rejected = 0
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<(1 + random.next() % 3) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(insertions[Int(random.next() % UInt64(insertions.count))], at: position)
                default: bytes[position] = insertions[Int(random.next() % UInt64(insertions.count))]
                }
            }
            do {
                _ = try DatasetLoader.load(json: String(decoding: bytes, as: UTF8.self))
                loaded += 1
            } catch {
                rejected += 1
            }
        }
        #expect(loaded + rejected == 400)
        #expect(rejected > 100)
    }
}
