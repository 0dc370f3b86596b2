import RQLBytecode
import RQLCore
import RQLEngine
import RQLIR
import RQLStorage
import Testing

@testable import RQLVM

/// Programs that only emit an access path's candidates (`DirectProbe`) run without the batch
/// loop: they must return what the batch loop returned, the reference evaluator's rows, on the
/// column store and on the block store (blocks not full after deletions), with LIMIT, absent
/// keys, repeated and unordered IN values, and counts ignoring LIMIT.
@Suite("Direct index probes agree with the reference evaluator")
struct DirectProbeVMTests {
    /// `rows` rows: a primary key `id` (0, 3, 6, …), a hash- and sort-indexed int `k` (many
    /// repeats), an indexed string `s`, an unindexed double `e`; every fifth row deleted when
    /// `deleting`.
    static func store(rows: Int, deleting: Bool) throws -> BlockSnapshot {
        let schema = try Schema([
            ObjectSchema(
                name: "Row",
                properties: [
                    Property(name: "id", type: .int), Property(name: "k", type: .int, isIndexed: true),
                    Property(name: "s", type: .string, isIndexed: true), Property(name: "e", type: .double),
                ],
                primaryKey: "id"
            )
        ])
        var store = try BlockSnapshot(
            schema: schema,
            columns: [
                "Row": [
                    "id": .int((0..<rows).map { Int64($0 * 3) }), "k": .int((0..<rows).map { Int64(($0 &* 37) % 9) }),
                    "s": .string((0..<rows).map { "v\($0 % 6)" }), "e": .double((0..<rows).map { Double($0 % 13) }),
                ]
            ]
        )
        if deleting {
            store = try store.deleting((0..<rows).filter { $0 % 5 == 2 }.map { RowKey(Int64($0)) }, from: "Row")
        }
        return store
    }

    /// Queries whose optimized program is a probe and an emit (the ranges only when the optimizer
    /// picks the sorted index, which depends on the row count: `shapes` leaves them out).
    static let direct = [
        "id == 0", "id == 27", "id == 28", "id == 6", "id == -3", "id IN {27, 9, 27, 3000, 4}", "k == 3", "k == 8",
        "k == 11", "s == 'v2'", "s == 'zz'", "k IN {5, 1, 5}", "s IN {'v4', 'v0'}", "k == 3 LIMIT(5)",
        "k == 3 LIMIT(0)", "k > 6", "k BETWEEN {2, 4} LIMIT(700)", "id == 27 LIMIT(0)", "FALSEPREDICATE",
    ]

    /// Probes with more to do: a residual test or a result step that reads positions.
    static let notDirect = [
        "k == 3 AND e > 4", "k == 3 SORT(e DESC)", "k == 3 SORT(e ASC) LIMIT(4)", "k > 5 AND s == 'v1'",
    ]

    @Test("probe programs run directly, others through the batch loop")
    func shapes() throws {
        let store = try Self.store(rows: 100, deleting: false)
        for query in Self.direct where !["FALSEPREDICATE", "k > 6", "k BETWEEN {2, 4} LIMIT(700)"].contains(query) {
            let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
            let program = try VMHarness.compile(bound, store: store, optimized: true)
            #expect(RunPlan(program).direct != nil, "\(query) should run directly")
        }
        for query in Self.notDirect + ["e > 4", "TRUEPREDICATE"] {
            let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
            let program = try VMHarness.compile(bound, store: store, optimized: true)
            #expect(RunPlan(program).direct == nil, "\(query) should not run directly")
        }
    }

    @Test("direct probes return the reference rows and counts", arguments: [1, 70, 4_097, 9_000])
    func agree(rows: Int) throws {
        for deleting in [false, true] {
            let store = try Self.store(rows: rows, deleting: deleting)
            try Self.check(on: store, "\(rows) rows, deleting \(deleting)")
            let snapshot = try BlockStore(importing: store).snapshot
            try Self.check(on: snapshot, "block store, \(rows) rows, deleting \(deleting)")
        }
    }

    static func check<Store: StoreReader>(on store: Store, _ label: String) throws {
        for query in direct + notDirect {
            let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
            let expected = ReferenceEvaluator(store: store).run(bound)
            for optimized in [true, false] {
                let program = try VMHarness.compile(bound, store: store, optimized: optimized)
                let keys = try VirtualMachine().run(program, on: store)
                #expect(keys == expected, "\(label): \(query): \(keys.prefix(12)) vs \(expected.prefix(12))")
                // The batch loop's answer, for the same program.
                let looped = Execution(program: program, store: store, mode: .rows, positions: nil)
                looped.execute()
                #expect(looped.keys == keys, "\(label): \(query): batch loop and direct run differ")
                let counted = Execution(program: program, store: store, mode: .count, positions: nil)
                counted.execute()
                #expect(
                    try VirtualMachine().count(program, on: store) == counted.matchCount,
                    "\(label): count of \(query)"
                )
            }
        }
    }
}
