import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// A value set on a property nothing derives from, in a block an earlier version shares, goes
/// into an overlay of the block (`TableData.setThroughOverlay`) instead of a copy of the block
/// and its column: each version still reads its own values, in memory and in a file, before and
/// after a checkpoint writes the overlay as a block.
@Suite("Commits through block overlays")
struct CommitOverlayTests {
    static let schemaJSON = #"""
        {"schema": {
          "Row": {"primaryKey": "id", "indexed": ["tag"], "properties": {
            "id": "int", "n": "int", "s": "string?", "tag": "string", "next": "Row?"
          }}
        }}
        """#

    static let rows = 10_000

    /// A store (in memory, or a file at `path` logging every commit) of `rows` Rows: three blocks.
    static func makeStore(path: String? = nil) throws -> BlockStore {
        let schema = try DatasetLoader.loadSchema(json: schemaJSON)
        let store = try path.map { try BlockStore.create(path: $0, schema: schema) } ?? BlockStore(schema: schema)
        let ids = (0..<Int64(rows)).map { $0 }
        _ = try store.write { t in
            try t.insert(
                columns: [
                    "id": .int(ids), "n": .int(ids.map { $0 % 7 }),
                    "s": .string(ids.map { $0 % 3 == 0 ? nil : "s\($0)" }), "tag": .string(ids.map { "t\($0 % 11)" }),
                ],
                into: "Row"
            )
        }
        if path != nil {
            store.logsCommits = true
            store.checkpointThreshold = 1 << 30
        }
        return store
    }

    static func set(_ store: BlockStore, _ key: Int64, _ property: String, _ value: Value) throws {
        _ = try store.write { try $0.set(property, of: ObjectLink(className: "Row", key: RowKey(key)), to: value) }
    }

    /// Every row's `n` and `s` in `snapshot`, by key.
    static func values(_ snapshot: BlockSnapshot) throws -> [Int64: [Value]] {
        let table = try #require(snapshot.table(named: "Row"))
        var result: [Int64: [Value]] = [:]
        for position in 0..<table.rowCount {
            result[table.rowKey(at: position).rawValue] = [1, 2].map { table.value(at: position, property: $0) }
        }
        return result
    }

    @Test("an update shares its block with the version before: neither is copied, and each version reads its own")
    func updateSharesTheBlock() throws {
        let store = try Self.makeStore()
        let before = store.snapshot
        var expected = try Self.values(before)
        try Self.set(store, 10, "n", .int(99))
        try Self.set(store, 4_100, "s", .null)
        let after = store.snapshot
        let blocks = Array(after.tables[0].blocks)
        #expect(blocks[0].overlay?.values.map(\.key) == [10])
        #expect(blocks[1].overlay?.values.map(\.key) == [4_100])
        #expect(blocks[0...1].allSatisfy { !$0.isRead }, "the commit read a block's part (copying it)")
        #expect(try Self.values(before) == expected, "the version before changed")
        expected[10]![0] = .int(99)
        expected[4_100]![1] = .null
        #expect(try Self.values(after) == expected)
    }

    @Test("values set on one block again and again merge into one overlay, copied once it holds the limit")
    func overlaysMergeUpToTheLimit() throws {
        let store = try Self.makeStore()
        let first = store.snapshot
        let original = try Self.values(first)
        var expected = original
        var random = SplitMix(seed: 11)
        var held: [(BlockSnapshot, [Int64: [Value]])] = []
        for commit in 0..<(3 * TableData.overlayValueLimit) {
            let key = Int64(random.next(4_096))
            let n = Value.int(Int64(commit))
            try Self.set(store, key, "n", n)
            expected[key]![0] = n
            let block = store.snapshot.tables[0].blocks[0]
            #expect((block.overlay?.values.count ?? 0) <= TableData.overlayValueLimit)
            if commit % 50 == 0 { held.append((store.snapshot, expected)) }
        }
        #expect(try Self.values(store.snapshot) == expected)
        for (snapshot, values) in held { #expect(try Self.values(snapshot) == values, "version \(snapshot.version)") }
        #expect(try Self.values(first) == original)
    }

    @Test("an indexed or link property, a block the transaction holds alone: set in the block, as before")
    func otherSetsChangeTheBlock() throws {
        let store = try Self.makeStore()
        try Self.set(store, 5, "tag", .string("x"))
        #expect(store.snapshot.tables[0].blocks[0].overlay == nil)
        try Self.set(store, 4_100, "next", .link(ObjectLink(className: "Row", key: RowKey(7))))
        #expect(store.snapshot.tables[0].blocks[1].overlay == nil)
        #expect(store.snapshot.table(named: "Row")!.indexLookup(property: 3, equalTo: .string("x")) == [5])
        // Inserted in the same transaction, the last block is the transaction's own.
        _ = try store.write { t in
            let key = try t.insert("Row", ["id": .int(-1), "tag": .string("new")])
            try t.set("n", of: ObjectLink(className: "Row", key: key), to: .int(5))
        }
        let last = store.snapshot.tables[0].blocks[2]
        #expect(last.overlay == nil)
        #expect(last.value(at: last.count - 1, column: 1) == .int(5))
    }

    @Test("logged updates over a file's mapped blocks reopen, refresh and checkpoint as the model, pages reused")
    func fileOverlaysOutliveTheirCheckpoint() throws {
        let directory = try TemporaryDirectory("commitoverlay")
        let path = directory.path("c.rql")
        do { _ = try Self.makeStore(path: path) }
        let model = try Self.makeStore()
        // Opened again, every block is a stub mapped from the checkpoint.
        let writer = try BlockStore.open(path: path)
        writer.logsCommits = true
        writer.checkpointThreshold = 1 << 30
        let reader = try BlockStore.open(path: path, readOnly: true)
        var random = SplitMix(seed: 21)
        for commit in 0..<300 {
            let key = Int64(random.next(Self.rows))
            let value: Value = random.next(2) == 0 ? .int(Int64(commit)) : .string("v\(commit)")
            let property = value == .int(Int64(commit)) ? "n" : "s"
            for store in [writer, model] { try Self.set(store, key, property, value) }
        }
        #expect(writer.snapshot.tables[0].blocks.contains { $0.overlay != nil })
        #expect(try Self.values(writer.snapshot) == Self.values(model.snapshot))
        #expect(try reader.refresh())
        #expect(try Self.values(reader.snapshot) == Self.values(model.snapshot))
        #expect(try Self.values(BlockStore.open(path: path, readOnly: true).snapshot) == Self.values(model.snapshot))
        // The checkpoint writes the overlays as blocks and frees their origins' pages; commits
        // without the log then reuse them.
        #expect(try writer.checkpoint())
        writer.logsCommits = false
        for commit in 0..<40 {
            let key = Int64(random.next(Self.rows))
            for store in [writer, model] { try Self.set(store, key, "n", .int(Int64(1_000 + commit))) }
        }
        #expect(try Self.values(writer.snapshot) == Self.values(model.snapshot), "after page reuse")
        #expect(try Self.values(BlockStore.open(path: path, readOnly: true).snapshot) == Self.values(model.snapshot))
        #expect(try BlockStore.verify(path: path).version == writer.snapshot.version)
    }
}
