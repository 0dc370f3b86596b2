import RQLBytecode
import RQLCore
import RQLEngine
import RQLIR
import RQLStorage
import Testing

@testable import RQLVM

/// What a run sets up before and around its batches: the columns it opens in each block
/// (only those its program reads), the result arrays (sized once for the most rows the run can
/// emit), and the counting kernel of int orderings (exact over all of `Int64`).
@Suite("Run setup: columns opened, results presized, int counts")
struct RunSetupVMTests {
    static let store: BlockSnapshot = {
        let schema = try! Schema([
            ObjectSchema(
                name: "Row",
                properties: [
                    Property(name: "id", type: .int), Property(name: "k", type: .int, isIndexed: true),
                    Property(name: "e", type: .double), Property(name: "s", type: .string),
                    Property(name: "link", type: .object("Row"), isOptional: true),
                ],
                primaryKey: "id"
            )
        ])
        let rows = 9_000
        return try! BlockSnapshot(
            schema: schema,
            columns: [
                "Row": [
                    "id": .int((0..<rows).map { Int64($0) }), "k": .int((0..<rows).map { Int64($0 % 7) }),
                    "e": .double((0..<rows).map { Double($0 % 13) }), "s": .string((0..<rows).map { "v\($0 % 5)" }),
                    "link": .values(
                        (0..<rows).map { i in
                            i % 3 == 0 ? .null : .link(ObjectLink(className: "Row", key: RowKey(Int64((i * 7) % rows))))
                        }
                    ),
                ]
            ]
        )
    }()

    static func program(_ query: String, optimized: Bool = true) throws -> Program {
        let bound = try QueryEngine().bind(query, className: "Row", schema: store.schema)
        return try VMHarness.compile(bound, store: store, optimized: optimized)
    }

    static func execution(
        _ query: String,
        mode: Execution<BlockSnapshot>.Mode = .rows
    ) throws -> Execution<BlockSnapshot> {
        let execution = Execution(program: try program(query), store: store, mode: mode, positions: nil)
        execution.execute()
        return execution
    }

    /// Properties: id 0, k 1, e 2, s 3, link 4.
    @Test(
        "a run opens the columns its program reads from the block, and no other",
        arguments: [
            ("k > 1", [1]), ("k > 1 AND s == 'v1'", [1, 3]), ("s BEGINSWITH 'v' OR e < 2.5", [2, 3]),
            ("TRUEPREDICATE", []), ("id == 17", []), ("k == 3", []), ("k == 3 AND e > 4", [2]),
            ("link.k > 3", [4]), ("link.s == 'v2' AND k != 1", [1, 4]), ("k > 0 SORT(e DESC) LIMIT(3)", [1, 2]),
            ("k > 0 SORT(s ASC)", [1]),
        ]
    )
    func columnsOpened(query: String, expected: [Int]) throws {
        let program = try Self.program(query)
        let selection = ColumnsRead.selection(program.instructions.map(Op.init), program)
        #expect(selection == ColumnSelection(expected), "\(query): \((0..<5).filter { selection.contains($0) })")
        // The rows are the reference evaluator's whichever columns were opened.
        let bound = try QueryEngine().bind(query, className: "Row", schema: Self.store.schema)
        #expect(try VirtualMachine().run(program, on: Self.store) == ReferenceEvaluator(store: Self.store).run(bound))
    }

    @Test(
        "the result arrays are sized once for every row a scan can emit, and positions are kept only for a later step"
    )
    func resultPresized() throws {
        let scan = try Self.execution("k > 1")
        #expect(scan.keys.count == (0..<9_000).filter { $0 % 7 > 1 }.count)
        #expect(scan.resultBound == 9_000)
        #expect(scan.keys.capacity >= 9_000 && scan.keys.capacity < 2 * 9_000)
        #expect(scan.result.isEmpty && !scan.keepsPositions)

        let limited = try Self.execution("k > 1 LIMIT(5)")
        #expect(limited.keys.count == 5)
        #expect(limited.resultBound == 5)
        #expect(limited.keys.capacity < 64)

        let probe = try Self.execution("k == 3")
        #expect(probe.resultBound == (0..<9_000).filter { $0 % 7 == 3 }.count)
        #expect(probe.keys.count == probe.resultBound)

        let sorted = try Self.execution("k > 1 SORT(e DESC)")
        #expect(sorted.keepsPositions)
        #expect(sorted.result.count == sorted.keys.count && sorted.keys.count == scan.keys.count)
        #expect(sorted.result.map { Self.store.table(named: "Row")!.rowKey(at: $0) } == sorted.keys)
    }

    static let extremes: [Int64] = [.min, .min + 1, -(1 << 62), -2, -1, 0, 1, 2, 1 << 62, .max - 1, .max]

    @Test("counting an int ordering is exact over all of Int64, overflowing subtractions included")
    func countOrderingExtremes() {
        var values = Self.extremes
        for i in 0..<200 { values.append(Int64(truncatingIfNeeded: UInt64(i) &* 0x9E37_79B9_7F4A_7C15)) }
        values.withUnsafeBufferPointer { buffer in
            let view = FixedWidthColumnView(
                values: buffer,
                nulls: NullMask(words: UnsafeBufferPointer(start: nil, count: 0))
            )
            let rows = UnsafeMutablePointer<Int32>.allocate(capacity: buffer.count)
            defer { rows.deallocate() }
            for k in Self.extremes + values.prefix(20) {
                for op in [ComparisonOperator.greater, .greaterOrEqual, .less, .lessOrEqual, .equal, .notEqual] {
                    let expected = values.filter { ValueComparison.evaluate(.int($0), op, .int(k)) }.count
                    let counted = Kernels.countMatches(view, op, k, rows, buffer.count, dense: true)
                    #expect(counted == expected, "x \(op) \(k)")
                }
            }
        }
    }
}
