import RQLCore
import RQLEngine
import RQLIR
import RQLStorage
import RQLVM
import Testing

/// The scan fast paths against the reference evaluator where they could go wrong: the null
/// bitmap read a word at a time (row counts that are not a multiple of 64, all-null and
/// no-null words, block boundaries), the top-N fused into the scan and the typed sort (ties
/// kept in row order, NaN and null keys, N larger than the matches, LIMIT 0) and a count's last filter
/// counted instead of written (nulls, NaN, sparse selections), on the column store and on
/// the block store with deletions.
@Suite("Scan fast paths agree with the reference evaluator")
struct ScanFastPathVMTests {
    /// `rows` rows of an optional int `n` (null in runs and stripes), an int `k` with many
    /// ties, a double `d` with NaN and a few nulls, and an optional string `s`.
    static func store(rows: Int, deleting: Bool = false) throws -> BlockSnapshot {
        let schema = try Schema([
            ObjectSchema(
                name: "Row",
                properties: [
                    Property(name: "n", type: .int, isOptional: true),
                    Property(name: "k", type: .int),
                    Property(name: "d", type: .double, isOptional: true),
                    Property(name: "e", type: .double),
                    Property(name: "s", type: .string, isOptional: true),
                ]
            )
        ])
        // Null in whole 64-row words (rows 128..<256), every third row elsewhere, and the last row.
        let nNulls: [Bool] = (0..<rows).map { (i: Int) -> Bool in
            (128..<256).contains(i) || i % 3 == 0 || i == rows - 1
        }
        let n: [Int64] = (0..<rows).map { nNulls[$0] ? 0 : Int64($0 % 11) }
        let k: [Int64] = (0..<rows).map { Int64(($0 &* 37) % 5) }
        let dNulls: [Bool] = (0..<rows).map { $0 % 13 == 5 }
        let d: [Double] = (0..<rows).map { (i: Int) -> Double in
            if dNulls[i] { return 0 }
            if i % 17 == 2 { return .nan }
            return Double((i &* 29) % 7) - 2.5
        }
        let e: [Double] = (0..<rows).map { (i: Int) -> Double in i % 19 == 4 ? .nan : Double((i &* 31) % 9) }
        let s: [String?] = (0..<rows).map { i in i % 4 == 1 ? nil : "v\(i % 6)" }
        var store = try BlockSnapshot(
            schema: schema,
            columns: [
                "Row": [
                    "n": .int(n, nulls: nNulls), "k": .int(k), "d": .double(d, nulls: dNulls), "e": .double(e),
                    "s": .string(s),
                ]
            ]
        )
        if deleting {
            let doomed = (0..<rows).filter { $0 % 5 == 2 }.map { RowKey(Int64($0)) }
            store = try store.deleting(doomed, from: "Row")
        }
        return store
    }

    static let rowCounts = [1, 63, 64, 65, 200, 4_095, 4_097]

    static let nullQueries = [
        "n == nil", "n != nil", "s == nil", "s != nil", "k == nil", "k != nil", "d == nil",
        "k > 1 AND n == nil", "k > 1 AND n != nil", "n == nil OR k == 0", "NOT (n == nil)",
    ]

    static let topQueries: [String] = {
        var queries: [String] = []
        for key in ["k", "n", "d", "e"] {
            for order in ["ASC", "DESC"] {
                for limit in [0, 3, 10_000] {
                    queries.append("k > 0 SORT(\(key) \(order)) LIMIT(\(limit))")
                }
            }
        }
        // Whole sorts on one key: typed (k; e where the filter drops NaN) or not (n, d: nulls).
        for key in ["k", "n", "d", "e"] {
            for order in ["ASC", "DESC"] { queries.append("k > 0 SORT(\(key) \(order))") }
        }
        queries.append("e < 100 SORT(e DESC)")
        queries.append("e < 100 SORT(e ASC) LIMIT(10000)")
        queries.append("TRUEPREDICATE SORT(d DESC) LIMIT(10)")
        queries.append("k == 4 SORT(k DESC) LIMIT(7)")
        queries.append("n > 3 SORT(e DESC, k ASC) LIMIT(5)")
        queries.append("k > 1 SORT(n ASC) LIMIT(3) SORT(k DESC)")
        queries.append("k > 1 SORT(e DESC) DISTINCT(k) LIMIT(2)")
        queries.append("k > 10 SORT(k DESC) LIMIT(3)")
        return queries
    }()

    /// Counts whose last filter feeds `emit` directly (counted, no selection written), dense
    /// and after another filter, with the shapes that fall back to the filter: nulls in the
    /// column, NaN, OR and NOT.
    static let countQueries = [
        "k > 1", "k == 4", "k != 2", "k <= 0", "k >= 3", "k < 3", "k > 10", "e > 4", "e == 3", "e != 3", "e < 4.5",
        "e >= 0", "n > 3", "n != 3", "d > 0", "d != 0.5", "n == nil", "n != nil", "k == nil", "k != nil", "s == nil",
        "s != nil", "d == nil", "k > 1 AND e > 2", "e > 2 AND k != 3", "k > 1 AND n == nil", "k > 1 AND n != nil",
        "k > 0 OR e > 5", "NOT (k > 1)", "n == nil OR k == 0", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    static func checkCount<Store: StoreReader>(_ query: String, on store: Store, _ label: String) throws {
        let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
        let expected = ReferenceEvaluator(store: store).run(bound).count
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            let counted = try VirtualMachine().count(program, on: store)
            #expect(
                counted == expected,
                "\(label): count of \(query) (optimized: \(optimized)): \(counted) vs \(expected)"
            )
        }
    }

    static func check<Store: StoreReader>(_ query: String, on store: Store, _ label: String) throws {
        let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
        let expected = ReferenceEvaluator(store: store).run(bound)
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            let keys = try VirtualMachine().run(program, on: store)
            #expect(
                keys == expected,
                "\(label): \(query) (optimized: \(optimized)): \(keys.prefix(12)) vs \(expected.prefix(12))"
            )
        }
    }

    @Test("null tests a word at a time", arguments: rowCounts)
    func nulls(rows: Int) throws {
        for deleting in [false, true] {
            let store = try Self.store(rows: rows, deleting: deleting)
            for query in Self.nullQueries { try Self.check(query, on: store, "\(rows) rows, deleting \(deleting)") }
        }
    }

    @Test("top-N fused into the scan", arguments: [1, 65, 4_097])
    func topN(rows: Int) throws {
        for deleting in [false, true] {
            let store = try Self.store(rows: rows, deleting: deleting)
            for query in Self.topQueries { try Self.check(query, on: store, "\(rows) rows, deleting \(deleting)") }
        }
    }

    @Test("a count's last filter is counted, not written", arguments: rowCounts)
    func fusedCount(rows: Int) throws {
        for deleting in [false, true] {
            let store = try Self.store(rows: rows, deleting: deleting)
            for query in Self.countQueries {
                try Self.checkCount(query, on: store, "\(rows) rows, deleting \(deleting)")
            }
        }
    }

    @Test("the fast paths on the block store with deletions")
    func blockStore() throws {
        let snapshot = try BlockStore(importing: Self.store(rows: 8_300, deleting: true)).snapshot
        for query in Self.nullQueries + Self.topQueries { try Self.check(query, on: snapshot, "block store") }
        for query in Self.countQueries { try Self.checkCount(query, on: snapshot, "block store") }
        #expect(snapshot.table(named: "Row").map(\.blockCount) ?? 0 > 1, "the table should span blocks")
    }
}
