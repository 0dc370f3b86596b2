import Foundation
import RQLCore
import RQLDatasets
import RQLEngine
import Testing

@testable import RQLStorage

/// Sizes that crashed or ran away before (issue 16): a class with 10,000 properties overflowed the
/// stack (one nested call per column when a block's views were opened, and again when a bulk
/// insert gathered them), and a map of 200,000 keys took 15 s to load (each key inserted into a
/// sorted array). Each test checks the answer at the size that failed.
@Suite("Wide classes and large maps")
struct WideAndLargeTests {
    static let propertyCount = 10_000

    /// A dataset with one class `W` of `propertyCount` int properties `p0 …` and two objects:
    /// object `o` holds `o * 100_000 + p` in property `p`.
    static func wideDataset() -> String {
        let properties = (0..<propertyCount).map { #""p\#($0)": "int""# }.joined(separator: ", ")
        let objects = (0..<2).map { o in
            "{" + (0..<propertyCount).map { #""p\#($0)": \#(o * 100_000 + $0)"# }.joined(separator: ", ") + "}"
        }
        return
            #"{"schema": {"W": {"properties": {\#(properties)}}}, "objects": {"W": [\#(objects.joined(separator: ", "))]}}"#
    }

    static func checkWide(_ table: some TableReader) {
        #expect(table.rowCount == 2)
        for p in [0, 4_321, propertyCount - 1] {
            #expect(table.value(at: 1, property: p) == .int(Int64(100_000 + p)))
        }
        table.withBlock(0) { block in
            #expect(block.columns.count == propertyCount)
            guard case .int(let last) = block.columns[propertyCount - 1] else {
                Issue.record("the last column is not an int view")
                return
            }
            #expect(Array(last.values) == [Int64(propertyCount - 1), Int64(100_000 + propertyCount - 1)])
        }
    }

    @Test("a dataset class of 10,000 properties loads and opens every column of a block")
    func wideDataset() throws {
        let store = try DatasetLoader.load(json: Self.wideDataset())
        let table = try #require(store.table(named: "W"))
        Self.checkWide(table)
        let engine = try QueryEngine(options: EngineOptions(backend: .reference))
        let query = try engine.compile("p9999 > 100000", className: "W", store: store)
        #expect(engine.run(query, on: store) == [RowKey(1)])
    }

    @Test("10,000 properties go into the block store by import and by a bulk insert of columns")
    func wideBlockStore() throws {
        let source = try DatasetLoader.load(json: Self.wideDataset())
        let store = BlockStore(schema: source.schema)
        let transaction = store.beginWrite()
        try transaction.importObjects(from: source)
        let columns = Dictionary(
            uniqueKeysWithValues: (0..<Self.propertyCount).map {
                ("p\($0)", ColumnValues.int([Int64($0), Int64($0) + 1]))
            }
        )
        try transaction.insert(columns: columns, into: "W")
        _ = try transaction.commit()
        let table = try #require(store.snapshot.table(named: "W"))
        #expect(table.rowCount == 4)
        #expect(table.value(at: 2, property: 9_999) == .int(9_999))
        #expect(table.value(at: 3, property: 9_999) == .int(10_000))
        #expect(table.value(at: 1, property: 9_999) == .int(109_999))
    }

    @Test("a map of 200,000 keys in any order is built in n log n, the last of a repeated key kept")
    func largeMap() {
        let count = 200_000
        // A fixed permutation of the keys, so the load cannot rely on them arriving in order.
        let keys = (0..<count).map { "k\(($0 &* 7_919) % count)" }
        let map = MixedMap(keys.map { ($0, Value.int(1)) } + [("k7", .int(2))])
        #expect(map.count == count)
        #expect(map["k7"] == .int(2))
        #expect(map["k199999"] == .int(1))
        #expect(zip(map.keys, map.keys.dropFirst()).allSatisfy { compareUTF8($0, $1) < 0 })
    }

    @Test("a mixed value nested deeper than a block can read back is refused, not stored as null")
    func deepMixed() throws {
        let schema = try Schema([
            ObjectSchema(name: "A", properties: [Property(name: "m", type: .mixed, isOptional: true)])
        ])
        let store = BlockStore(schema: schema)
        func nested(_ depth: Int) -> Value {
            var value = Value.int(7)
            for _ in 0..<depth { value = .list([value]) }
            return value
        }
        let transaction = store.beginWrite()
        let key = try transaction.insert("A", [:])
        let object = ObjectLink(className: "A", key: key)
        try transaction.set("m", of: object, to: nested(MixedCoding.maximumDepth - 1))
        #expect(throws: WriteError.self) { try transaction.set("m", of: object, to: nested(MixedCoding.maximumDepth)) }
        _ = try transaction.commit()
        #expect(store.snapshot.table(named: "A")?.value(at: 0, property: 0) == nested(MixedCoding.maximumDepth - 1))
    }

    @Test("a dataset's mixed value nested deeper than a block can read back is refused when loaded")
    func deepMixedImport() throws {
        let depth = MixedCoding.maximumDepth + 10
        let json =
            #"{"schema": {"A": {"properties": {"m": "mixed"}}}, "objects": {"A": [{"m": "#
            + String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth) + "}]}}"
        #expect(throws: DatasetError.self) { try DatasetLoader.load(json: json) }
    }

    @Test("a dataset map of 200,000 keys loads, in key byte order")
    func largeDatasetMap() throws {
        let count = 200_000
        let members = (0..<count).reversed().map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let json = #"{"schema": {"M": {"properties": {"m": "map<int>"}}}, "objects": {"M": [{"m": {\#(members)}}]}}"#
        let store = try DatasetLoader.load(json: json)
        guard case .map(let map)? = store.table(named: "M").map({ $0.value(at: 0, property: 0) }) else {
            Issue.record("no map")
            return
        }
        #expect(map.count == count)
        #expect(map["k123456"] == .int(123_456))
        #expect(map.keys.first == "k0" && map.keys.last == "k99999")
    }
}
