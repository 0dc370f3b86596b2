import RQLBytecode
import RQLCore
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import RQLVM
import Testing

/// Generated data and queries, three ways: the VM on the fully optimized plan, the VM on the
/// unoptimized plan, and the reference evaluator must give the same keys (after the clauses),
/// the same count, and the same keys over a caller's positions. Seeded and reproducible; a
/// failure prints the seed, the attempt and the query, to become a fixed test.
@Suite("VM differential")
struct DifferentialTests {
    /// Checks one query three ways; returns the problems.
    static func check<Store: StoreReader>(_ bound: BoundQuery, store: Store, positions: [Int]) throws -> [String] {
        var problems: [String] = []
        let reference = ReferenceEvaluator(store: store)
        let expected = reference.run(bound)
        let expectedCount = reference.count(bound)
        let expectedAtPositions = reference.run(bound, positions: positions)
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            let vm = VirtualMachine()
            let keys = try vm.run(program, on: store)
            if keys != expected { problems.append("optimized \(optimized): run \(keys) != \(expected)") }
            let count = try vm.count(program, on: store)
            if count != expectedCount { problems.append("optimized \(optimized): count \(count) != \(expectedCount)") }
            let atPositions = try vm.run(program, on: store, positions: positions)
            if atPositions != expectedAtPositions {
                problems.append("optimized \(optimized): positions \(atPositions) != \(expectedAtPositions)")
            }
        }
        return problems
    }

    /// Positions as a collection query sees them: any order, repeats, some out of range.
    static func positions(_ rng: inout SeededRandom, rowCount: Int) -> [Int] {
        (0..<rng.int(below: 40)).map { _ in
            rng.chance(5) ? rowCount + rng.int(below: 3) : rng.int(below: max(rowCount, 1))
        }
    }

    static func run(seed: UInt64, rows: Int, deleting: Bool, attempts: Int) throws -> Int {
        let store = try Generated.store(count: rows, seed: seed, deleting: deleting)
        let binder = Binder(schema: store.schema)
        var rng = SeededRandom(seed: seed &* 104_729)
        let rowCount = store.table(named: "Item")?.rowCount ?? 0
        // Comparisons of computed values come from a second stream, so that adding them left
        // the first stream's queries (and the failures they once found) as they were.
        var values = SeededRandom(seed: seed &* 7_919 &+ 1)
        var checked = 0
        for attempt in 0..<(attempts + attempts / 4) {
            let text =
                attempt < attempts
                ? Generated.predicate(&rng) + Generated.clauses(&rng)
                : Generated.valuePredicate(&values) + Generated.clauses(&values)
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: "Item") else {
                continue
            }
            checked += 1
            let problems =
                attempt < attempts
                ? try check(bound, store: store, positions: positions(&rng, rowCount: rowCount))
                : try check(bound, store: store, positions: positions(&values, rowCount: rowCount))
            if !problems.isEmpty {
                let details = problems.joined(separator: "\n")
                Issue.record("seed \(seed) attempt \(attempt): \(text)\n\(details)")
            }
        }
        return checked
    }

    @Test(
        "generated queries on small tables agree three ways",
        arguments: [
            (UInt64(11), false), (12, true), (13, false), (14, true), (15, false), (16, true),
            (17, false), (18, true), (19, false), (20, true),
        ]
    )
    func smallTables(seed: UInt64, deleting: Bool) throws {
        let checked = try Self.run(seed: seed, rows: 60, deleting: deleting, attempts: 600)
        // Ten seeds of at least 500 bound queries: well over 5,000 cases per run.
        #expect(checked >= 500, "only \(checked) of 600 generated queries bound")
    }

    @Test("generated queries on multi-block tables agree three ways", arguments: [UInt64(31), 32])
    func multiBlockTables(seed: UInt64) throws {
        let checked = try Self.run(seed: seed, rows: 4_200, deleting: seed == 32, attempts: 12)
        #expect(checked >= 9)
    }

    @Test("generated queries on the block store (imported, with deletions) agree three ways")
    func blockStore() throws {
        let columns = try Generated.store(count: 6_000, seed: 41, deleting: true)
        let snapshot = try BlockStore(importing: columns).snapshot
        let binder = Binder(schema: snapshot.schema)
        var rng = SeededRandom(seed: 41)
        let rowCount = snapshot.table(named: "Item")?.rowCount ?? 0
        var checked = 0
        for attempt in 0..<12 {
            let text = Generated.predicate(&rng) + Generated.clauses(&rng)
            guard let syntax = try? Parser.parse(text), let bound = try? binder.bind(syntax, className: "Item") else {
                continue
            }
            checked += 1
            let problems = try Self.check(bound, store: snapshot, positions: Self.positions(&rng, rowCount: rowCount))
            if !problems.isEmpty {
                let details = problems.joined(separator: "\n")
                Issue.record("block store attempt \(attempt): \(text)\n\(details)")
            }
        }
        #expect(checked >= 8)
        #expect(snapshot.table(named: "Item").map(\.blockCount) ?? 0 > 1, "the table should span blocks")
    }
}
