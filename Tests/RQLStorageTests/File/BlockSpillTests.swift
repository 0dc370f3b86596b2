import Foundation
import RQLCore
import RQLDatasets
import Testing

@_spi(Streaming) @testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// A write transaction of a store file writes each finished block to free space of the file
/// as it goes (`BlockSpill`) and keeps a stub of it, so its memory is bounded by a few blocks,
/// not by the commit; nothing references those pages until the commit's root does.
@Suite("Store file: blocks written before the commit")
struct BlockSpillTests {
    static let schemaJSON = #"""
        {"schema": {"Person": {"primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int"}}}}
        """#

    static func schema() throws -> Schema { try DatasetLoader.loadSchema(json: schemaJSON) }

    static func row(_ id: Int) -> [Value] {
        [.int(Int64(id)), .string("person \(id) " + String(repeating: "x", count: id % 17)), .int(Int64(id % 90))]
    }

    /// Appends `count` Persons from `first` through the streaming appender.
    static func append(_ t: WriteTransaction, from first: Int, count: Int) throws -> RowAppender {
        let appender = try t.beginAppending(schema: try schema())
        for id in first..<first + count { try appender.append(row(id), to: 0) }
        return appender
    }

    /// A store of 1,000 Persons at version 1 (the log off: every commit is a checkpoint).
    static func makeStore(_ path: String) throws -> BlockStore {
        let store = try BlockStore.create(path: path, schema: try schema())
        store.logsCommits = false
        try store.write { t in try append(t, from: 0, count: 1_000).finish() }
        return store
    }

    static func size(_ path: String) -> UInt64 { FreePagesTests.size(path) }

    /// Bytes of the file neither reachable nor free: what a commit leaked (each item is padded
    /// to the 64-byte granule, so a few kilobytes are padding).
    static func unaccounted(_ info: StoreFileInfo) -> UInt64 {
        info.fileSize - 4096 - info.reachableBytes - info.freeBytes
    }

    static func checkPersons(_ snapshot: BlockSnapshot, count: Int) {
        let table = snapshot.table(named: "Person")!
        #expect(table.rowCount == count)
        for id in [0, 1, count / 3, count / 2, count - 1] {
            guard let position = table.position(ofPrimaryKey: .int(Int64(id))) else {
                Issue.record("Person \(id) not found by primary key")
                continue
            }
            #expect((0..<3).map { table.value(at: position, property: $0) } == row(id))
        }
    }

    @Test("a large load writes its full blocks before the commit; readers see none of them until it")
    func spillsBeforeCommit() throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("load.rql")
        let store = try Self.makeStore(path)
        let before = Fixtures.dump(store.snapshot)
        let t = store.beginWrite()
        let appender = try Self.append(t, from: 1_000, count: 60_000)
        let spill = try #require(t.spill, "no block was written before the commit")
        #expect(spill.runs.count >= 10)
        // The transaction holds stubs of its full blocks: at most the last block is in memory.
        let inMemory = t.tables[0].blocks.filter { $0.place == nil }.count
        #expect(inMemory <= 1)
        // Neither this store's readers nor another open of the file see the spilled blocks.
        #expect(Fixtures.dump(store.snapshot) == before)
        let other = try BlockStore.open(path: path, readOnly: true)
        #expect(other.snapshot.version == 1)
        #expect(Fixtures.dump(other.snapshot) == before)
        let duringInfo = try BlockStore.verify(path: path)
        #expect(duringInfo.version == 1)
        try appender.finish()
        // Inside the transaction the rows read back from the file.
        Self.checkPersons(t.reader, count: 61_000)
        _ = try t.commit()
        Self.checkPersons(store.snapshot, count: 61_000)
        let info = try BlockStore.verify(path: path)
        #expect(info.version == 2)
        #expect(Self.unaccounted(info) < 64 * 1024, "\(info)")
        Self.checkPersons(try BlockStore.open(path: path).snapshot, count: 61_000)
        #expect(try other.refresh())
        Self.checkPersons(other.snapshot, count: 61_000)
    }

    @Test("rolled-back transactions that spilled do not grow the file again and again")
    func rollbackFreesSpace() throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("rollback.rql")
        let store = try Self.makeStore(path)
        let before = Fixtures.dump(store.snapshot)
        let initial = Self.size(path)
        var sizes: [UInt64] = []
        for round in 0..<4 {
            let t = store.beginWrite()
            let appender = try Self.append(t, from: 1_000, count: 40_000)
            #expect(t.spill?.runs.isEmpty == false)
            if round.isMultiple(of: 2) {
                appender.cancel()
                t.rollback()
            } else {
                // Released unfinished, as a thrown error leaves it.
                _ = appender
            }
            sizes.append(Self.size(path))
        }
        #expect(sizes[3] == sizes[0], "the file grew across failed transactions: \(sizes)")
        #expect(Fixtures.dump(store.snapshot) == before)
        #expect(try BlockStore.verify(path: path).version == 1)
        // The space the failures wrote is reused by the next load, which then commits.
        try store.write { t in try Self.append(t, from: 1_000, count: 40_000).finish() }
        // Written again after the failures' blocks, the load would add as much as they did;
        // over them, it adds its index and root.
        let spilled = sizes[0] - initial
        #expect(spilled > 1 << 20)
        #expect(Self.size(path) < sizes[0] + spilled / 2, "\(initial) \(sizes) \(Self.size(path))")
        let info = try BlockStore.verify(path: path)
        #expect(info.version == 2)
        Self.checkPersons(store.snapshot, count: 41_000)
    }

    /// A snapshot taken from a transaction that spilled and then ended without a commit (rolled
    /// back, or released unfinished) reads the rows it was taken with after the next
    /// transaction wrote other rows over the same space: the parts read before and those read
    /// first after, with no damage recorded and commits still accepted.
    @Test(
        "a snapshot taken from a rolled-back transaction still reads what it spilled after the space is reused",
        arguments: [true, false]
    )
    func rolledBackSnapshotKeepsSpill(rolledBack: Bool) throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("rolled-back.rql")
        let store = try Self.makeStore(path)
        let reader: BlockSnapshot
        let spilled: [(offset: UInt64, length: UInt64)]
        do {
            let t = store.beginWrite()
            try Self.append(t, from: 1_000, count: 40_000).finish()
            spilled = try #require(t.spill?.runs)
            reader = t.reader
            // A few parts of a few blocks read now; most are first read after the reuse.
            Self.checkPersons(reader, count: 41_000)
            if rolledBack { t.rollback() }
        }
        // Other rows, spilled over the same space, committed.
        var reused: [(offset: UInt64, length: UInt64)] = []
        try store.write { t in
            try Self.append(t, from: 1_000_000, count: 40_000).finish()
            reused = t.spill?.runs ?? []
        }
        let overwritten = spilled.filter { run in
            reused.contains { $0.offset < run.offset + run.length && run.offset < $0.offset + $0.length }
        }
        #expect(overwritten.count > spilled.count / 2, "the next transaction did not reuse the space")
        let table = try #require(reader.table(named: "Person"))
        #expect(table.rowCount == 41_000)
        var wrong = 0
        for id in stride(from: 0, to: 41_000, by: 13) {
            guard let position = table.position(ofPrimaryKey: .int(Int64(id))),
                (0..<3).map({ table.value(at: position, property: $0) }) == Self.row(id)
            else {
                wrong += 1
                continue
            }
        }
        #expect(wrong == 0, "\(wrong) rows of the snapshot read other data")
        #expect(store.file?.pins.damage.error == nil, "\(String(describing: store.file?.pins.damage.error))")
        try store.write { t in try Self.append(t, from: 2_000_000, count: 10).finish() }
        #expect(store.snapshot.table(named: "Person")?.rowCount == 41_010)
        #expect(try BlockStore.verify(path: path).version == 3)
    }

    @Test("blocks spilled and then dropped inside the transaction are freed by its commit")
    func droppedSpillsAreFreed() throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("dropped.rql")
        let store = try Self.makeStore(path)
        let t = store.beginWrite()
        // A cancelled load's spilled blocks, then a load that commits.
        try Self.append(t, from: 1_000, count: 40_000).cancel()
        let cancelled = try #require(t.spill?.runs.count)
        try Self.append(t, from: 1_000, count: 20_000).finish()
        #expect(try #require(t.spill?.runs.count) > cancelled)
        _ = try t.commit()
        let info = try BlockStore.verify(path: path)
        #expect(Self.unaccounted(info) < 64 * 1024, "spilled runs leaked: \(info)")
        // The cancelled load's pages are free (tagged with the commit's version).
        #expect(info.freeBytes > 1 << 20)
        Self.checkPersons(store.snapshot, count: 21_000)
    }

    @Test("single-object writes over a large table hold a bounded number of changed blocks")
    func idleBlocksSpill() throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("sets.rql")
        let store = try BlockStore.create(path: path, schema: try Self.schema())
        try store.write { t in try Self.append(t, from: 0, count: 100_000).finish() }
        let t = store.beginWrite()
        var mostHeld = 0
        for key in 0..<100_000 {
            try t.set("age", of: ObjectLink(className: "Person", key: RowKey(Int64(key))), to: .int(Int64(key % 7)))
            if key % 4096 == 0 { mostHeld = max(mostHeld, t.tables[0].blocks.filter { $0.place == nil }.count) }
        }
        // 25 blocks changed; at most the limit and one check's worth are in memory at once.
        #expect(mostHeld <= WriteTransaction.heldBlockLimit + 2, "held \(mostHeld) changed blocks")
        #expect(t.spill?.runs.isEmpty == false)
        _ = try t.commit()
        let info = try BlockStore.verify(path: path)
        #expect(Self.unaccounted(info) < 64 * 1024, "\(info)")
        let table = try BlockStore.open(path: path).snapshot.table(named: "Person")!
        for key in [0, 4095, 4096, 50_000, 99_999] {
            #expect(table.value(at: key, property: 2) == .int(Int64(key % 7)))
        }
    }

    @Test("a schema change over every block writes each block as it is done with")
    func schemaChangeSpills() throws {
        let directory = try TemporaryDirectory("spill")
        let path = directory.path("schema.rql")
        let store = try BlockStore.create(path: path, schema: try Self.schema())
        try store.write { t in try Self.append(t, from: 0, count: 50_000).finish() }
        let t = store.beginWrite()
        try t.addProperty(Property(name: "years", type: .int), to: "Person", defaultValue: .int(3))
        #expect(t.tables[0].blocks.allSatisfy { $0.place != nil }, "a changed block stayed in memory")
        try t.removeProperty("name", from: "Person")
        #expect(t.tables[0].blocks.allSatisfy { $0.place != nil })
        _ = try t.commit()
        let info = try BlockStore.verify(path: path)
        #expect(Self.unaccounted(info) < 64 * 1024, "\(info)")
        let table = try BlockStore.open(path: path).snapshot.table(named: "Person")!
        #expect(table.rowCount == 50_000)
        #expect(table.value(at: 49_999, property: 2) == .int(3))
        #expect(table.value(at: 49_999, property: 1) == .int(Int64(49_999 % 90)))
    }

    @Test("a writer killed after spilling blocks leaves the previous version intact")
    func killedWhileSpilled() throws {
        let directory = try TemporaryDirectory("spill")
        for repetition in 0..<3 {
            let path = directory.path("killed-\(repetition).rql")
            let before = Fixtures.dump(try Self.makeStore(path).snapshot)
            let sizeBefore = Self.size(path)
            let process = Process()
            process.executableURL = try StoreCrashTests.helper
            // Repetition 0 is killed while the transaction holds spilled blocks; the others
            // at a random moment of loads and their commits.
            process.arguments = ["spill", path, repetition == 0 ? "hold" : "commit"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            var output = Data()
            while !output.contains(UInt8(ascii: "\n")) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            if repetition > 0 { usleep(UInt32(repetition * 150_000)) }
            kill(process.processIdentifier, SIGKILL)
            output.append(pipe.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(lines.first == "spilled", "\(lines)")
            if repetition == 0 {
                // The killed load had written its blocks: the file holds them, unreferenced.
                #expect(Self.size(path) > sizeBefore + (1 << 20))
            }
            let info = try BlockStore.verify(path: path)
            let store = try BlockStore.open(path: path)
            let committed = lines.compactMap { UInt64($0) }.last ?? 1
            #expect(store.snapshot.version >= committed)
            #expect(info.version == store.snapshot.version)
            if store.snapshot.version == 1 {
                #expect(Fixtures.dump(store.snapshot) == before)
            } else {
                Self.checkPersons(store.snapshot, count: 1_000 + 60_000 * Int(store.snapshot.version - 1))
            }
            // The file takes the next load, over the space the killed one wrote.
            let rows = store.snapshot.table(named: "Person")!.rowCount
            try store.write { t in try Self.append(t, from: rows, count: 30_000).finish() }
            #expect(try BlockStore.verify(path: path).version == store.snapshot.version)
            Self.checkPersons(try BlockStore.open(path: path).snapshot, count: rows + 30_000)
        }
    }
}
