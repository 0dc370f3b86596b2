import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

@Suite("Block accessor")
struct TableBlockTests {
    /// 10,000 rows: two full blocks and a partial one, with nulls, strings, lists and links.
    static func store() throws -> BlockSnapshot {
        let schema = try DatasetLoader.loadSchema(
            json: #"""
                {"schema": {"Row": {"properties": {"n": "int?", "s": "string", "tags": "list<string>", "next": "Row?"}}}}
                """#
        )
        let count = 10_000
        return try BlockSnapshot(
            schema: schema,
            columns: [
                "Row": [
                    "n": .int((0..<count).map { Int64($0) }, nulls: (0..<count).map { $0 % 7 == 0 }),
                    "s": .string((0..<count).map { "s\($0)" }),
                    "tags": .values((0..<count).map { i in .list((0..<(i % 3)).map { .string("t\($0)") }) }),
                    "next": .values(
                        (0..<count).map { i in
                            i % 5 == 0
                                ? .null : .link(ObjectLink(className: "Row", key: RowKey(Int64((i + 1) % count))))
                        }
                    ),
                ]
            ]
        )
    }

    @Test("blocks cover every position once, at most `capacity` rows each, and read like `value(at:)`")
    func blocksMatchRows() throws {
        let table = try #require(try Self.store().table(named: "Row"))
        #expect(table.blockCount == 3)
        var next = 0
        for b in 0..<table.blockCount {
            table.withBlock(b) { block in
                #expect(block.positions.lowerBound == next)
                #expect(block.count <= TableBlock.capacity)
                next = block.positions.upperBound
                for i in 0..<block.count {
                    let position = block.positions.lowerBound + i
                    #expect(block.rowKeys[i] == table.rowKey(at: position))
                    guard case .int(let n) = block.columns[0], case .string(let s) = block.columns[1],
                        case .collection(let tags) = block.columns[2], case .link(let link) = block.columns[3]
                    else {
                        Issue.record("unexpected column views")
                        return
                    }
                    let expectedN = table.value(at: position, property: 0)
                    #expect(n.nulls.isNull(i) == expectedN.isNull)
                    if case .int(let value) = expectedN { #expect(n.values[i] == value) }
                    #expect(String(decoding: s.bytes(at: i), as: UTF8.self) == "s\(position)")
                    #expect(tags.range(of: i).count == position % 3)
                    #expect((link.keys[i] < 0) == (position % 5 == 0))
                }
            }
        }
        #expect(next == table.rowCount)
    }

    /// Each column of `block` that `selection` opens, as the values of its rows (via the test
    /// fixtures' reader of a view), for comparing two openings.
    static func values(of block: TableBlock, _ selection: ColumnSelection, schema: ObjectSchema) -> [[Value]] {
        (0..<block.columns.count).filter { selection.contains($0) }.map { c in
            (0..<block.count).map {
                Fixtures.value(of: block.columns[c], at: $0, property: schema.properties[c])
            }
        }
    }

    @Test(
        "a block opened for some columns has those columns' views, the same positions and keys, and ends after the last",
        arguments: [[], [0], [1], [3], [0, 2], [1, 3], [0, 1, 2, 3]]
    )
    func someColumns(properties: [Int]) throws {
        let memory = try Self.store()
        let blocks = try BlockStore(importing: memory)
        Self.checkSomeColumns(try #require(memory.table(named: "Row")), properties)
        Self.checkSomeColumns(try #require(blocks.snapshot.table(named: "Row")), properties)
    }

    static func checkSomeColumns(_ table: some TableReader, _ properties: [Int]) {
        let selection = ColumnSelection(properties)
        #expect(table.blockCount >= 3)
        for b in 0..<table.blockCount {
            let all = table.withBlock(b, columns: .all) { block in
                (block.positions, Array(block.rowKeys), values(of: block, selection, schema: table.objectSchema))
            }
            table.withBlock(b, columns: selection) { block in
                #expect(block.positions == all.0)
                #expect(Array(block.rowKeys) == all.1)
                #expect(block.columns.count == (properties.max().map { $0 + 1 } ?? 0))
                #expect(values(of: block, selection, schema: table.objectSchema) == all.2)
                for c in 0..<block.columns.count where !selection.contains(c) {
                    guard case .mixed(let unopened) = block.columns[c] else {
                        Issue.record("column \(c) was opened")
                        continue
                    }
                    #expect(unopened.values.isEmpty)
                }
            }
        }
    }
}
