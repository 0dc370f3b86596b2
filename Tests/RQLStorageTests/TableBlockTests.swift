import RQLCore
import Testing

@testable import RQLStorage

@Suite("Block accessor")
struct TableBlockTests {
    /// 10,000 rows: two full blocks and a partial one, with nulls, strings, lists and links.
    static func store() throws -> ColumnStore {
        let schema = try DatasetLoader.loadSchema(
            json: #"""
                {"schema": {"Row": {"properties": {"n": "int?", "s": "string", "tags": "list<string>", "next": "Row?"}}}}
                """#
        )
        let count = 10_000
        return try ColumnStore(
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
}
