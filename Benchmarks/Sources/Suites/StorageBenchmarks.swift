import BenchmarkKit
import RQLCore
import RQLStorage

/// The block store (`RQLStorage.BlockStore`) on the benchmark dataset's `Person` rows:
///
///     rql-bench --filter storage/ --samples 5
///
/// - `bulk-columns`: a new store loaded from the dataset's column values in one transaction
///   (`insert(columns:into:)`), commit included; rows/s = rows ÷ median.
/// - `bulk-import`: the same rows imported from another in-memory store's snapshot
///   (`importObjects(from:)`, block by block).
/// - `commit-insert`, `commit-update`: one transaction per iteration on the loaded store
///   (insert one object; set one property of a random object), commit included.
/// - `scan-block`: `age > 90` counted through `withBlock`'s typed int views, the VM's access
///   pattern; compare with `baseline/Q9` (the same count over a plain array).
extension Registry {
    public mutating func registerStorageBenchmarks(rows: Int, seed: UInt64) {
        let state = StorageState(rows: rows, seed: seed)
        let fields: [(key: String, value: JSONValue)] = [("n", .int(rows))]
        add(
            Benchmark(suite: "storage", name: "bulk-columns", fields: fields, setUp: { try state.prepare() }) {
                iterations in
                for _ in 0..<iterations { blackHole(state.bulkLoad()) }
            }
        )
        add(
            Benchmark(suite: "storage", name: "bulk-import", fields: fields, setUp: { try state.prepare() }) {
                iterations in
                for _ in 0..<iterations { blackHole(state.bulkImport()) }
            }
        )
        add(
            Benchmark(suite: "storage", name: "commit-insert", fields: fields, setUp: { try state.prepareStore() }) {
                iterations in
                for _ in 0..<iterations { state.commitInsert() }
            }
        )
        add(
            Benchmark(suite: "storage", name: "commit-update", fields: fields, setUp: { try state.prepareStore() }) {
                iterations in
                for _ in 0..<iterations { state.commitUpdate() }
            }
        )
        add(
            Benchmark(
                suite: "storage",
                name: "scan-block",
                text: "age > 90",
                fields: fields,
                setUp: { try state.checkScans() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(StorageState.countAgeAbove90(state.scanTable!)) }
            }
        )
    }
}

/// The dataset as column values, the loaded stores, and the next key to insert. Built lazily.
public final class StorageState {
    let rows: Int
    let seed: UInt64
    public private(set) var schema: Schema?
    var columns: [String: ColumnValues]?
    /// The rows in a store of their own, the source `bulk-import` copies.
    public private(set) var source: BlockSnapshot?
    public private(set) var store: BlockStore?
    /// A store no benchmark writes to, for the scans.
    private var scanStore: BlockStore?
    private var nextID: Int64 = 0
    private var random = SplitMix64(seed: 7)

    public init(rows: Int, seed: UInt64) {
        self.rows = rows
        self.seed = seed
    }

    /// Generates the dataset's columns and a store of them, once.
    public var rowCount: Int { rows }

    public func prepare() throws {
        guard columns == nil else { return }
        let schema = try Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "id", type: .int), Property(name: "age", type: .int),
                    Property(name: "score", type: .double), Property(name: "name", type: .string),
                    Property(name: "city", type: .string), Property(name: "active", type: .bool),
                    Property(name: "nickname", type: .string, isOptional: true),
                ],
                primaryKey: "id"
            )
        ])
        let data = BenchmarkDataset(rows: rows, seed: seed)
        let columns: [String: ColumnValues] = [
            "id": .int(data.id), "age": .int(data.age), "score": .double(data.score),
            "name": .string((0..<rows).map { data.name.string(at: $0) }),
            "city": .string((0..<rows).map { data.city.string(at: $0) }), "active": .bool(data.active),
            "nickname": .string((0..<rows).map { data.nickname.string(at: $0) }),
        ]
        self.schema = schema
        self.columns = columns
        source = try BlockSnapshot(schema: schema, columns: ["Person": columns])
        nextID = Int64(rows)
    }

    /// A block store of the whole dataset, once, for the commit and scan benchmarks.
    public func prepareStore() throws {
        try prepare()
        if store == nil { store = bulkLoad() }
        guard store?.snapshot.table(named: "Person")?.rowCount ?? 0 >= rows else {
            throw SuiteError("the block store did not load \(rows) rows")
        }
    }

    func checkScans() throws {
        try prepare()
        if scanStore == nil { scanStore = bulkLoad() }
        let blocks = StorageState.countAgeAbove90(scanStore!.snapshot.table(named: "Person")!)
        var expected = 0
        if case .int(let ages, _) = columns?["age"] { expected = ages.filter { $0 > 90 }.count }
        guard blocks == expected else { throw SuiteError("age > 90: \(blocks) in blocks, \(expected) in the data") }
    }

    var scanTable: BlockTable? { scanStore?.snapshot.table(named: "Person") }

    public func bulkLoad() -> BlockStore {
        let store = BlockStore(schema: schema!)
        let transaction = store.beginWrite()
        do {
            try transaction.insert(columns: columns!, into: "Person")
            _ = try transaction.commit()
        } catch {
            fatalError("bulk load: \(error)")
        }
        return store
    }

    func bulkImport() -> BlockStore {
        do {
            return try BlockStore(importing: source!)
        } catch {
            fatalError("bulk import: \(error)")
        }
    }

    /// One transaction inserting one new Person.
    public func commitInsert() { commitInsert(into: store!) }

    /// One transaction inserting one new Person into `store` (in memory, or a file: durable).
    public func commitInsert(into store: BlockStore) {
        nextID += 1
        let transaction = store.beginWrite()
        do {
            try transaction.insert(
                "Person",
                [
                    "id": .int(nextID), "age": .int(nextID % 100), "score": .double(0.5), "name": .string("Newname"),
                    "city": .string("City7"), "active": .bool(true), "nickname": .null,
                ]
            )
            _ = try transaction.commit()
        } catch {
            fatalError("insert commit: \(error)")
        }
    }

    /// One transaction setting the age of a random Person of the original rows.
    public func commitUpdate() { commitUpdate(in: store!) }

    /// One transaction setting the age of a random Person of the original rows of `store`.
    public func commitUpdate(in store: BlockStore) {
        let key = RowKey(Int64(random.next() % UInt64(rows)))
        let transaction = store.beginWrite()
        do {
            try transaction.set(
                "age",
                of: ObjectLink(className: "Person", key: key),
                to: .int(Int64(random.next() % 100))
            )
            _ = try transaction.commit()
        } catch {
            fatalError("update commit: \(error)")
        }
    }

    /// `age > 90` counted block by block through the typed int views: the VM's access pattern.
    static func countAgeAbove90<Table: TableReader>(_ table: Table) -> Int {
        var count = 0
        for b in 0..<table.blockCount {
            table.withBlock(b) { block in
                guard case .int(let ages) = block.columns[1] else { return }
                var n = 0
                for age in ages.values where age > 90 { n &+= 1 }
                count &+= n
            }
        }
        return count
    }
}
