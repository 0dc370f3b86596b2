import Foundation
import RQLCore
import RQLDatasets
import Testing

@_spi(Fuzzing) @testable import RQLStorage

/// Replaying the commit log on open and refresh: values set on properties nothing derives
/// from go into overlays of their blocks (`BlockOverlay`), read on first use, and everything
/// else into the blocks; either way the store reads exactly what the writer committed.
@Suite("Store file: commit log replay")
struct LogReplayTests {
    static let schemaJSON = #"""
        {"schema": {
          "Row": {"primaryKey": "id", "indexed": ["tag"], "properties": {
            "id": "int", "n": "int", "s": "string?", "tag": "string", "nums": "list<int>",
            "any": "mixed", "next": "Row?"
          }}
        }}
        """#

    static let rows = 10_000

    /// A store file of `rows` Rows checkpointed (three blocks, none with a row missing), with
    /// the commit log on and no threshold, and an in-memory store of the same commits.
    static func makeStores(_ path: String) throws -> (file: BlockStore, model: BlockStore) {
        let schema = try DatasetLoader.loadSchema(json: schemaJSON)
        let file = try BlockStore.create(path: path, schema: schema)
        let model = BlockStore(schema: schema)
        for store in [file, model] {
            let ids = (0..<Int64(rows)).map { $0 }
            _ = try store.write { t in
                try t.insert(
                    columns: [
                        "id": .int(ids), "n": .int(ids.map { $0 % 7 }),
                        "s": .string(ids.map { $0 % 3 == 0 ? nil : "s\($0)" }),
                        "tag": .string(ids.map { "t\($0 % 11)" }),
                    ],
                    into: "Row"
                )
            }
        }
        file.logsCommits = true
        file.checkpointThreshold = 1 << 30
        return (file, model)
    }

    /// Applies one random transaction to both stores: mostly values set on plain properties
    /// (several on one row, some rows again and again), some on the indexed, mixed and link
    /// properties, and inserts and deletions. `keys` are the Rows there; `ids` the next new id.
    static func transaction(
        _ stores: [BlockStore],
        _ random: inout SplitMix,
        keys: inout [Int64],
        ids: inout Int64
    ) throws {
        var operations: [(WriteTransaction) throws -> RowKey?] = []
        for _ in 0..<(1 + random.next(6)) {
            let key = keys[random.next(keys.count)]
            let row = ObjectLink(className: "Row", key: RowKey(key))
            func setting(_ property: String, _ value: Value) -> (WriteTransaction) throws -> RowKey? {
                { t in
                    try t.set(property, of: row, to: value)
                    return nil
                }
            }
            switch random.next(20) {
            case 0..<8:
                let n = Int64(random.next(1000))
                operations.append(setting("n", .int(n)))
            case 8..<11:
                let s: Value = random.next(4) == 0 ? .null : .string("v\(random.next(100))")
                operations.append(setting("s", s))
            case 11..<13:
                let nums = Value.list((0..<random.next(4)).map { .int(Int64($0)) })
                operations.append(setting("nums", nums))
            case 13:
                let tag = Value.string("u\(random.next(50))")
                operations.append(setting("tag", tag))
            case 14:
                let any: Value = random.next(2) == 0 ? .int(Int64(random.next(9))) : .string("m")
                operations.append(setting("any", any))
            case 15:
                let target = ObjectLink(className: "Row", key: RowKey(keys[random.next(keys.count)]))
                operations.append(setting("next", .link(target)))
            case 16, 17:
                ids += 1
                let id = ids
                operations.append { try $0.insert("Row", ["id": .int(id), "tag": .string("new")]) }
            default:
                guard keys.count > 100 else { continue }
                keys.removeAll { $0 == key }
                operations.append { t in
                    try t.delete(row)
                    return nil
                }
            }
        }
        var inserted: [[Int64]] = []
        for store in stores {
            let (added, _) = try store.write { t in try operations.compactMap { try $0(t)?.rawValue } }
            inserted.append(added)
        }
        #expect(inserted.allSatisfy { $0 == inserted[0] })
        keys.append(contentsOf: inserted[0])
    }

    @Test("random commits reopen from logs of many lengths, and refresh in a second store, as the model")
    func reopenAndRefresh() throws {
        let directory = try TemporaryDirectory("replay")
        for seed in [3, 4] as [UInt64] {
            let path = directory.path("r\(seed).rql")
            let (file, model) = try Self.makeStores(path)
            let reader = try BlockStore.open(path: path, readOnly: true)
            var random = SplitMix(seed: seed)
            var keys = Array(0..<Int64(Self.rows))
            var ids = Int64(Self.rows)
            var lastRefresh = reader.snapshot.version
            for commit in 1...240 {
                try Self.transaction([file, model], &random, keys: &keys, ids: &ids)
                if [1, 2, 7, 30, 100, 240].contains(commit) {
                    let reopened = try BlockStore.open(path: path, readOnly: true)
                    #expect(reopened.fallback == nil)
                    #expect(reopened.snapshot.version == model.snapshot.version)
                    #expect(
                        Fixtures.dump(reopened.snapshot) == Fixtures.dump(model.snapshot),
                        "seed \(seed), \(commit)"
                    )
                    #expect(try BlockStore.verify(path: path).logRecords == commit)
                }
                // A refresh every few commits: values set again on rows of blocks a refresh
                // left unread are merged into one overlay.
                if random.next(4) == 0 {
                    #expect(try reader.refresh())
                    let now = reader.snapshot.version
                    #expect(reader.refreshedChanges(after: lastRefresh, through: now)?.count == Int(now - lastRefresh))
                    lastRefresh = now
                    if random.next(3) == 0 {
                        #expect(Fixtures.dump(reader.snapshot) == Fixtures.dump(model.snapshot), "refresh \(commit)")
                    }
                }
            }
            _ = try reader.refresh()
            try CommitLogTests.expectSame(reader.snapshot, model.snapshot, "seed \(seed), last refresh")
            // A checkpoint writes the replayed blocks; the file then reads the same without a log.
            let writer = try BlockStore.open(path: path)
            #expect(try writer.checkpoint())
            #expect(try BlockStore.verify(path: path).logRecords == 0)
            try CommitLogTests.expectSame(
                try BlockStore.open(path: path, readOnly: true).snapshot,
                model.snapshot,
                "seed \(seed), checkpointed"
            )
        }
    }

    @Test("open applies updates of plain properties without reading or copying a block")
    func openReadsNoBlock() throws {
        let directory = try TemporaryDirectory("replay")
        let path = directory.path("o.rql")
        let (file, model) = try Self.makeStores(path)
        var random = SplitMix(seed: 9)
        for _ in 0..<300 {
            let key = ObjectLink(className: "Row", key: RowKey(Int64(random.next(Self.rows))))
            let n = Value.int(Int64(random.next(1000)))
            for store in [file, model] { _ = try store.write { try $0.set("n", of: key, to: n) } }
        }
        let opened = try BlockStore.open(path: path, readOnly: true)
        #expect(opened.snapshot.version == model.snapshot.version)
        let blocks = Array(opened.snapshot.tables[0].blocks)
        #expect(blocks.count == 3)
        #expect(blocks.allSatisfy { !$0.isRead }, "a block was read to replay the log")
        #expect(blocks.allSatisfy { $0.overlay != nil }, "300 random updates touch every block")
        #expect(Fixtures.dump(opened.snapshot) == Fixtures.dump(model.snapshot))
        #expect(opened.snapshot.fileDamage == nil)
    }

    @Test("values pending for overlays keep each row's last, whatever the order of blocks and columns they came in")
    func pendingValuesKeepTheLast() throws {
        let directory = try TemporaryDirectory("replay")
        let (_, model) = try Self.makeStores(directory.path("p.rql"))
        var table = model.snapshot.tables[0]
        let properties = table.objectSchema.properties
        let n = try #require(properties.firstIndex { $0.name == "n" })
        let s = try #require(properties.firstIndex { $0.name == "s" })
        // Keys 3 and 5 are in block 0, 9,000 in block 2 (4,096 rows a block).
        let sets: [(block: Int, key: Int64, column: Int, value: Value)] = [
            (2, 9000, n, .int(1)), (0, 5, n, .int(2)), (2, 9000, s, .string("x")), (2, 9000, n, .int(3)),
            (0, 3, n, .int(4)), (0, 5, s, .null), (0, 5, n, .int(5)),
        ]
        var pending = PendingValues()
        for set in sets { pending.set(set.value, block: set.block, key: set.key, column: set.column) }
        pending.flush(into: &table, damage: nil)
        #expect(pending.isEmpty)
        func value(_ key: Int64, _ column: Int) throws -> Value {
            let (b, row) = try #require(table.locate(key: key))
            return table.blocks[b].value(at: row, column: column)
        }
        #expect(table.blocks[0].overlay?.values.count == 3)
        #expect(table.blocks[1].overlay == nil)
        #expect(try value(9000, n) == .int(3))
        #expect(try value(9000, s) == .string("x"))
        #expect(try value(5, n) == .int(5))
        #expect(try value(5, s) == .null)
        #expect(try value(3, n) == .int(4))
        #expect(try value(4, n) == .int(4 % 7), "a row no value was set on")
        #expect(try value(9001, n) == .int(9001 % 7))
        // Values set later on a block that is still an overlay merge into one overlay over the
        // same origin, the newer value of a row winning.
        pending.set(.int(6), block: 2, key: 9000, column: n)
        pending.set(.int(7), block: 2, key: 8999, column: n)
        pending.flush(into: &table, damage: nil)
        #expect(table.blocks[2].overlay?.values.map(\.key).sorted() == [8999, 9000, 9000])
        #expect(try value(9000, n) == .int(6))
        #expect(try value(8999, n) == .int(7))
        #expect(try value(9000, s) == .string("x"))
    }

    @Test("blocks read through overlays stay right after a checkpoint frees and reuses their origin's pages")
    func overlaysOutliveTheirCheckpoint() throws {
        let directory = try TemporaryDirectory("replay")
        let path = directory.path("c.rql")
        var random = SplitMix(seed: 5)
        var keys = Array(0..<Int64(Self.rows))
        var ids = Int64(Self.rows)
        let model: BlockStore
        do {
            let (file, made) = try Self.makeStores(path)
            model = made
            for _ in 0..<60 { try Self.transaction([file, model], &random, keys: &keys, ids: &ids) }
            // Copied before the store closes (closing would checkpoint).
            let log = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.write(to: URL(fileURLWithPath: path + ".copy"))
            try log.write(to: URL(fileURLWithPath: path + ".copy.log"))
        }
        // A writer opens on the log (overlays over the checkpoint's mapped blocks, pinned by
        // nothing else) and checkpoints; then commits without the log rewrite blocks, reusing
        // the pages the overlays' origins were mapped from.
        let copy = path + ".copy"
        let writer = try BlockStore.open(path: copy)
        #expect(writer.snapshot.version == model.snapshot.version)
        #expect(try writer.checkpoint())
        writer.logsCommits = false
        for _ in 0..<40 { try Self.transaction([writer, model], &random, keys: &keys, ids: &ids) }
        #expect(Fixtures.dump(writer.snapshot) == Fixtures.dump(model.snapshot), "after page reuse")
        try CommitLogTests.expectSame(
            try BlockStore.open(path: copy, readOnly: true).snapshot,
            model.snapshot,
            "reopened"
        )
        #expect(try BlockStore.verify(path: copy).version == model.snapshot.version)
    }

    @Test(
        "a record whose checksum holds but that does not decode or fit stops the open before it, reported by offset"
    )
    func undecodableRecordStopsOpen() throws {
        let directory = try TemporaryDirectory("undecodable")
        let path = directory.path("u.rql")
        let (file, _) = try Self.makeStores(path)
        let base = file.snapshot.version
        let keys: [Int64] = [7, 5_000, 7, 9_999, 4_096, 12]
        for (i, key) in keys.enumerated() {
            _ = try file.write { t in
                try t.set("n", of: ObjectLink(className: "Row", key: RowKey(key)), to: .int(Int64(100 + i)))
            }
        }
        // Copied before the store closes (closing would checkpoint).
        let storeBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let log = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + ".log")))
        let offsets = CommitLogTests.recordOffsets(Data(log))
        #expect(offsets.count >= keys.count)
        // One table, one class, one modified row: its key at payload byte 32, the value's tag at 52.
        let payload = 24
        for (record, key) in zip(offsets, keys) {
            let stored = (0..<8).reduce(Int64(0)) { $0 | Int64(log[record + payload + 32 + $1]) << (8 * Int64($1)) }
            #expect(stored == key, "the record at \(record) sets row \(key)")
        }
        let damaged = 2
        for (change, reason) in [
            ({ (bytes: inout [UInt8], at: Int) in bytes[at + payload + 52] = 0xEE }, "a value does not decode"),
            ({ (bytes: inout [UInt8], at: Int) in bytes[at + payload + 36] = 0x7F }, "is not there"),
            ({ (bytes: inout [UInt8], at: Int) in bytes[at + payload + 44] = 9 }, "has a bad property"),
        ] {
            var bad = log
            change(&bad, offsets[damaged])
            BlockStore.resealCommitLog(&bad, store: storeBytes)
            let copy = directory.path("u-\(reason.count).rql")
            try Data(storeBytes).write(to: URL(fileURLWithPath: copy))
            try Data(bad).write(to: URL(fileURLWithPath: copy + ".log"))
            let store = try BlockStore.open(path: copy, readOnly: true)
            #expect(store.snapshot.version == base + UInt64(damaged), "\(reason)")
            let fallback = try #require(store.fallback)
            #expect(fallback.description.contains("commit log record at offset \(offsets[damaged])"), "\(fallback)")
            #expect(fallback.description.contains(reason), "\(fallback)")
            let table = try #require(store.snapshot.table(named: "Row"))
            func n(_ key: Int64) -> Value {
                table.value(at: table.position(ofPrimaryKey: .int(key)) ?? -1, property: 1)
            }
            #expect(n(7) == .int(100) && n(5_000) == .int(101), "the records before it are applied")
            #expect(n(9_999) == .int(9_999 % 7), "nothing after it is")
        }
    }

    @Test("a record that sets a row not there stops the replay before it, with none of it applied")
    func missingRowStopsReplay() throws {
        let schema = try DatasetLoader.loadSchema(json: Self.schemaJSON)
        let store = BlockStore(schema: schema)
        _ = try store.write { t in
            for id in 0..<10 as Range<Int64> { _ = try t.insert("Row", ["id": .int(id), "tag": .string("a")]) }
            try t.delete(ObjectLink(className: "Row", key: RowKey(5)))
        }
        let base = store.snapshot
        let nextKeys = base.tables.map(\.nextKey)
        func record(_ version: UInt64, _ sets: [(key: Int64, n: Int64)]) -> CommitRecord {
            var change = CommitRecord.ClassChanges(table: 0)
            change.modified = sets.map { ($0.key, [(1, Value.int($0.n))]) }
            return CommitRecord(version: version, nextKeys: nextKeys, classes: [change])
        }
        // Row 5 was deleted (its block's keys are read: the block lacks a row); row 10 was never made.
        for missing in [5, 10] as [Int64] {
            let (bytes, entries) = Self.log([
                (record(base.version + 1, [(3, 70)]), UInt64(100)),
                (record(base.version + 2, [(3, 80), (missing, 1)]), UInt64(200)),
            ])
            let replayed = CommitRecord.apply(entries, of: bytes, to: base, damage: nil)
            #expect(replayed.applied == 1)
            #expect(replayed.failure?.offset == 200)
            #expect(replayed.failure?.reason.contains("modified Row \(missing) is not there") == true)
            #expect(replayed.snapshot.version == base.version + 1)
            let table = try #require(replayed.snapshot.table(named: "Row"))
            #expect(table.value(at: try #require(table.position(ofPrimaryKey: .int(3))), property: 1) == .int(70))
        }
    }

    @Test("a replay finds each row's block as the table does, over chunks, gaps and blocks missing rows")
    func rowLocatorFindsRowsAsTheTable() throws {
        let schema = try DatasetLoader.loadSchema(json: #"{"schema": {"R": {"properties": {"n": "int"}}}}"#)
        let store = BlockStore(schema: schema)
        // 67 blocks: two chunks of the block list (`BlockList.chunkCapacity`).
        let rows = Int64(TableBlock.capacity) * 66 + 100
        _ = try store.write { t in try t.insert(columns: ["n": .int(Array(0..<rows))], into: "R") }
        let capacity = Int64(TableBlock.capacity)
        // A block's first and last rows, one in the middle, all of one block but its first, and
        // the table's last: those blocks no longer fill their key ranges, and their keys are read.
        var deleted: [Int64] = [0, capacity - 1, capacity, 5 * capacity + 17, rows - 1]
        deleted += Array((9 * capacity + 1)..<(10 * capacity))
        deleted += Array((64 * capacity - 3)..<(64 * capacity + 3))
        _ = try store.write { t in
            for key in deleted { try t.delete(ObjectLink(className: "R", key: RowKey(key))) }
            for _ in 0..<5 { _ = try t.insert("R", ["n": .int(-1)]) }
        }
        let data = store.snapshot.tables[0]
        #expect(data.blocks.chunks.count == 2)
        let locator = RowLocator(data)
        var keys = Set(deleted.flatMap { [$0 - 1, $0, $0 + 1] })
        for b in 0...Int64(data.blocks.count) {
            keys.formUnion([b * capacity - 1, b * capacity, b * capacity + 1, b * capacity + 2_000])
        }
        keys.formUnion([-1, .min, .max, data.nextKey - 1, data.nextKey, data.nextKey + 1])
        for key in keys.sorted() {
            #expect(locator.block(holding: key) == data.locate(key: key)?.block, "key \(key)")
        }
        #expect(locator.block(holding: 9 * capacity) != nil)
        #expect(locator.block(holding: 9 * capacity + 1) == nil)
    }

    @Test("a value of the wrong type amid many records stops the replay before its record, reported by offset")
    func wrongTypeStopsReplayMidBatch() throws {
        let directory = try TemporaryDirectory("midbatch")
        let (_, model) = try Self.makeStores(directory.path("m.rql"))
        let base = model.snapshot
        let nextKeys = base.tables.map(\.nextKey)
        let n = 1
        // Keys over all three blocks, each record a few rows; record 30 sets a string on `n`.
        var records: [(CommitRecord, UInt64)] = []
        for i in 0..<50 {
            var change = CommitRecord.ClassChanges(table: 0)
            change.modified = (0..<3).map { j in
                let key = Int64((i * 613 + j * 3_331) % Self.rows)
                let value: Value = i == 30 && j == 1 ? .string("x") : .int(Int64(1_000 + i))
                return (key, [(n, value)])
            }
            let record = CommitRecord(version: base.version + UInt64(i) + 1, nextKeys: nextKeys, classes: [change])
            records.append((record, UInt64(100 * (i + 1))))
        }
        let (bytes, entries) = Self.log(records)
        let replayed = CommitRecord.apply(entries, of: bytes, to: base, damage: nil)
        #expect(replayed.applied == 30)
        #expect(replayed.failure?.offset == 3_100)
        #expect(replayed.failure?.reason.contains("has a bad property \(n) or value") == true, "\(replayed.failure!)")
        #expect(replayed.snapshot.version == base.version + 30)
        let table = try #require(replayed.snapshot.table(named: "Row"))
        var expected: [Int64: Value] = [:]
        for i in 0..<50 {
            for j in 0..<3 {
                let key = Int64((i * 613 + j * 3_331) % Self.rows)
                expected[key] = i < 30 ? .int(Int64(1_000 + i)) : expected[key] ?? .int(key % 7)
            }
        }
        for (key, value) in expected {
            #expect(table.value(at: try #require(table.position(ofPrimaryKey: .int(key))), property: n) == value)
        }
    }

    /// The payloads of `records` one after the other, and each one's entry (at the offset given).
    static func log(_ records: [(CommitRecord, UInt64)]) -> ([UInt8], [CommitLog.Entry]) {
        var writer = ByteWriter()
        var entries: [CommitLog.Entry] = []
        for (record, offset) in records {
            let start = writer.bytes.count
            writer.u32(record.nextKeys.count)
            for key in record.nextKeys { writer.i64(key) }
            writer.u32(record.classes.count)
            for change in record.classes {
                writer.u32(change.table)
                writer.u32(change.deleted.count)
                for key in change.deleted { writer.i64(key) }
                writer.u32(change.inserted.count)
                for (key, values) in change.inserted {
                    writer.i64(key)
                    writer.u32(values.count)
                    for value in values { writer.lengthPrefixed(Self.encoded(value)) }
                }
                writer.u32(change.modified.count)
                for (key, properties) in change.modified {
                    writer.i64(key)
                    writer.u32(properties.count)
                    for (index, value) in properties {
                        writer.u32(index)
                        writer.lengthPrefixed(Self.encoded(value))
                    }
                }
            }
            entries.append(
                CommitLog.Entry(offset: offset, version: record.version, payload: start..<writer.bytes.count)
            )
        }
        return (writer.bytes, entries)
    }

    static func encoded(_ value: Value) -> [UInt8] {
        var bytes: [UInt8] = []
        MixedCoding.encode(value, into: &bytes)
        return bytes
    }
}
