import Foundation
import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import RQLTestSupport
import Testing

@testable import RQLOptimizer

@Suite("Column statistics")
struct StatisticsTests {
    static func column(_ name: String, _ harness: OptimizerHarness) throws -> Int {
        try #require(harness.store.schema[harness.className]?.propertyIndex(named: name))
    }

    @Test("a small table is read whole: counts, range and distinct values are exact")
    func exactForSmallTables() throws {
        let harness = try Fixtures.people()
        let context = try harness.context()
        let age = try #require(context.statistics(property: try Self.column("age", harness)))
        #expect(age.isExact && age.rowCount == 200 && age.sampleSize == 200)
        #expect(age.nullCount == 0 && age.distinctCount == 100)
        #expect(age.minimum == .int(0) && age.maximum == .int(99))
        let nickname = try #require(context.statistics(property: try Self.column("nickname", harness)))
        #expect(nickname.nullCount == 67 && nickname.distinctCount == 17)
        // Links and collections have none.
        #expect(context.statistics(property: try Self.column("dog", harness)) == nil)
        #expect(context.statistics(property: try Self.column("tags", harness)) == nil)
        #expect(context.statistics(property: 99) == nil)
    }

    /// 200,000 rows: `n` uniform in 0 ..< 100 with every fifth row null, `u` unique, `d` a
    /// double in [0, 1) with some NaNs.
    static func largeStore() throws -> BlockSnapshot {
        let count = 200_000
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"Big": {"properties": {"n": "int?", "u": "int", "d": "double"}}}}"#
        )
        var rng = SeededRandom(seed: 11)
        var n: [Int64] = []
        var nulls: [Bool] = []
        var d: [Double] = []
        for i in 0..<count {
            n.append(Int64(rng.int(below: 100)))
            nulls.append(i % 5 == 2)
            d.append(i % 50 == 7 ? .nan : Double(rng.next() >> 11) * 0x1p-53)
        }
        return try BlockSnapshot(
            schema: schema,
            columns: ["Big": ["n": .int(n, nulls: nulls), "u": .int((0..<count).map { Int64($0) }), "d": .double(d)]]
        )
    }

    @Test("a large table is sampled: estimates are close, and cheap to compute")
    func sampledForLargeTables() throws {
        let store = try Self.largeStore()
        let table = try #require(store.table(named: "Big"))
        let cache = StatisticsCache()
        let start = ThreadCPUTime.now()
        let n = try #require(cache.statistics(of: table, className: "Big", version: store.version, property: 0))
        let u = try #require(cache.statistics(of: table, className: "Big", version: store.version, property: 1))
        let d = try #require(cache.statistics(of: table, className: "Big", version: store.version, property: 2))
        // A runaway guard (a whole-column scan per statistic would show): sampling reads 1,024 rows.
        #expect(ThreadCPUTime.now() - start < .seconds(1))
        #expect(!n.isExact && n.sampleSize == PropertyStatistics.sampleLimit)
        #expect(abs(Double(n.nullCount) - 40_000) < 4_000)
        #expect((90...110).contains(n.distinctCount), "\(n.distinctCount)")
        #expect(abs(n.fraction(where: .greater, .int(89)) - 0.8 * 0.1) < 0.03)
        #expect(u.distinctCount > 150_000, "a sample of distinct values estimates a unique column: \(u.distinctCount)")
        #expect(abs(d.fraction(where: .less, .double(0.25)) - 0.25 * 0.98) < 0.05)
        #expect(d.sortedSample.allSatisfy { !NumericComparison.isNaN($0) })
    }

    @Test("a sample reads a few blocks spread over the table, rows spread within them")
    func sampleReadsFewBlocks() throws {
        let store = try Self.largeStore()
        let table = try #require(store.table(named: "Big"))
        #expect(table.blockCount > StatisticsSampler.blockLimit)
        let positions = StatisticsSampler.positions(in: table, size: PropertyStatistics.sampleLimit)
        #expect(positions.count == PropertyStatistics.sampleLimit)
        #expect(positions.first == 0)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
        let blocks = (0..<table.blockCount).map { b in table.withBlock(b, columns: .none) { $0.positions } }
        let touched = Set(positions.map { p in blocks.firstIndex { $0.contains(p) } ?? -1 })
        #expect(touched.count == StatisticsSampler.blockLimit && !touched.contains(-1))
        // The blocks reach the table's last eighth, so a column ordered like the rows keeps its range.
        #expect(touched.contains { $0 >= table.blockCount * 7 / 8 - 1 })
        // Within a block the rows are spread out, not the block's first rows.
        let last = try #require(touched.max())
        #expect(positions.filter { blocks[last].contains($0) }.last! > blocks[last].upperBound - 1_024)
    }

    @Test("statistics are cached per store version and column; a commit samples afresh")
    func cachedPerVersion() throws {
        let harness = try Fixtures.people()
        let cache = StatisticsCache()
        let options = OptimizerOptions(statisticsCache: cache)
        let logical = LogicalPlan(try harness.bind("age > 90 AND score < 0.5"))
        _ = try Optimizer.optimize(logical, store: harness.store, options: options)
        let first = cache.samplingCount
        #expect(first == 2)
        _ = try Optimizer.optimize(logical, store: harness.store, options: options)
        #expect(cache.samplingCount == first)
        let grown = try BlockStore(importing: harness.store)
        _ = try grown.write { try $0.insert("Person", ["id": .int(1000), "age": .int(1), "score": .double(0.5)]) }
        let next = grown.snapshot
        #expect(next.version == harness.store.version + 1)
        _ = try Optimizer.optimize(logical, store: next, options: options)
        #expect(cache.samplingCount == first + 2)
        #expect(cache.count == 4)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test("comparisons of the primary key are estimated from its uniqueness, without a sample")
    func primaryKeyWithoutSample() throws {
        let harness = try Fixtures.people()
        let cache = StatisticsCache()
        let options = OptimizerOptions(statisticsCache: cache)
        let expected: [(String, Double)] = [("id == 3", 1), ("id IN {1, 2, 300}", 3), ("id != 3", 199)]
        for (query, matches) in expected {
            let (plan, _) = try Optimizer.optimize(
                LogicalPlan(try harness.bind(query)),
                store: harness.store,
                options: options
            )
            #expect(plan.estimatedMatches == matches, "\(query)")
        }
        #expect(cache.samplingCount == 0)
        // Any other column is still sampled.
        _ = try Optimizer.optimize(LogicalPlan(try harness.bind("age == 3")), store: harness.store, options: options)
        #expect(cache.samplingCount == 1)
    }

    @Test("the cache keeps at most its capacity of table versions, dropping the oldest")
    func capacity() throws {
        let harness = try Fixtures.people()
        let table = try #require(harness.store.table(named: "Person"))
        let cache = StatisticsCache(capacity: 3)
        for version in UInt64(1)...5 {
            _ = cache.statistics(of: table, className: "Person", version: version, property: 1)
            _ = cache.statistics(of: table, className: "Person", version: version, property: 2)
        }
        #expect(cache.count == 6 && cache.samplingCount == 10)
        _ = cache.statistics(of: table, className: "Person", version: 5, property: 1)
        #expect(cache.samplingCount == 10)
        _ = cache.statistics(of: table, className: "Person", version: 1, property: 1)
        #expect(cache.samplingCount == 11)
    }

    @Test(
        "selectivity estimates for every kind of comparison",
        arguments: [
            ("age == 5", 0.01), ("age != 5", 0.99), ("age > 90", 0.09), ("age >= 90", 0.1), ("age < 10", 0.1),
            ("nickname == nil", 0.335), ("nickname != nil", 0.665), ("city IN {'City1', 'City2'}", 0.1),
            ("city == 'Nowhere'", 0.005), ("score BETWEEN {0.25, 0.5}", 0.25), ("active == true", 0.5),
            ("mixed == 3", 0.105), ("TRUEPREDICATE", 1), ("FALSEPREDICATE", 0),
            // Fixed guesses where the statistics cannot see.
            ("dog.age > 3", 1.0 / 3), ("ANY tags == 1", 0.1), ("ALL tags > 1", 1.0 / 9), ("tags.@count == 2", 0.1),
            ("age > 90 AND active == true", 0.045), ("age > 90 OR age < 10", 0.181), ("NOT age > 90", 0.91),
        ] as [(String, Double)]
    )
    func selectivities(query: String, expected: Double) throws {
        let harness = try Fixtures.people()
        let estimator = SelectivityEstimator(context: try harness.context())
        let estimate = estimator.selectivity(of: try harness.bind(query).predicate)
        #expect(abs(estimate - expected) < 0.02, "\(query): \(estimate)")
    }

    @Test("string operators and [c]/[d] are estimated by testing sampled values")
    func sampledOperators() throws {
        let harness = try Fixtures.people()
        let estimator = SelectivityEstimator(context: try harness.context())
        // Names are Mari, Joel, Anna, Kato, Lina with "", "an" or "ka" appended, evenly.
        let begins = estimator.selectivity(of: try harness.bind("name BEGINSWITH 'Ma'").predicate)
        #expect(abs(begins - 0.2) < 0.06)
        let contains = estimator.selectivity(of: try harness.bind("name CONTAINS[c] 'AN'").predicate)
        #expect(contains > 0.3 && contains < 0.6)
        let none = estimator.selectivity(of: try harness.bind("name ENDSWITH 'zz'").predicate)
        #expect(none > 0 && none < 0.02)
    }
}
