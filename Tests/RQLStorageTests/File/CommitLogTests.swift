import Foundation
import RQLCore
import RQLDatasets
import RQLEngine
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// The commit log (`<path>.log`): a commit appends one record and syncs once; other stores of
/// the file apply the records on refresh and open; checkpoints write the blocks and empty the
/// log; a torn tail ends replay quietly, a damaged record in the middle is a reported fallback.
@Suite("Store file: commit log")
struct CommitLogTests {
    static let schemaJSON = StoreCrashTests.schemaJSON

    static func makeStore(_ path: String, threshold: Int = 1 << 20) throws -> BlockStore {
        let store = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: schemaJSON))
        store.checkpointThreshold = threshold
        return store
    }

    static func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// Commits like `store-crash-helper`: commit `v` inserts Item `v`, appends to Item 0's
    /// history and sets the counter (see `StoreCrashTests.checkCommitted`).
    static func commit(_ store: BlockStore) throws {
        let t = store.beginWrite()
        let version = Int64(t.reader.version)
        _ = try t.insert(
            "Item",
            [
                "id": .int(version), "text": .string(String(repeating: "x", count: Int(version % 50))),
                "history": .list([]),
            ]
        )
        if version == 1 {
            _ = try t.insert("Counter", ["value": .int(version)])
        } else {
            try t.set("value", of: ObjectLink(className: "Counter", key: RowKey(0)), to: .int(version))
            try t.append(.int(version), to: "history", of: ObjectLink(className: "Item", key: RowKey(0)))
        }
        _ = try t.commit()
    }

    @Test("a logged commit appends one record, leaves the store file alone, and reopens")
    func appendAndReopen() throws {
        let directory = try TemporaryDirectory("log")
        let path = directory.path("a.rql")
        let store = try Self.makeStore(path)
        try Self.commit(store)
        let storeSize = Self.size(path)
        let logSize = Self.size(path + ".log")
        try Self.commit(store)
        #expect(Self.size(path) == storeSize, "a logged commit wrote to the store file")
        #expect(Self.size(path + ".log") == logSize, "the log grew on a commit that fits what it has")
        let ends = Self.recordOffsets(try Data(contentsOf: URL(fileURLWithPath: path + ".log")))
        #expect(ends.count == 2)
        let record = ends[1] - ends[0]
        #expect(record > 0 && record < 512, "one small record, not the touched blocks (\(record) bytes)")
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.snapshot.version == 2)
        StoreCrashTests.checkCommitted(reopened.snapshot)
        _ = record
        let info = try BlockStore.verify(path: path)
        #expect(info.version == 2)
        #expect(info.logRecords == 2)
        // A checkpoint on demand starts a new log generation in the same bytes: the records
        // behind its header are of the one before; the store file holds version 2 alone.
        #expect(try store.checkpoint())
        #expect(Self.size(path + ".log") == logSize)
        #expect(try BlockStore.verify(path: path).logRecords == 0)
        #expect(try BlockStore.open(path: path, readOnly: true).snapshot.version == 2)
        try Self.commit(store)
        #expect(try BlockStore.verify(path: path).logRecords == 1)
        StoreCrashTests.checkCommitted(try BlockStore.open(path: path, readOnly: true).snapshot)
    }

    @Test(
        "a commit whose record would pass the largest frame is a checkpoint, whether many objects or one long value make it so"
    )
    func largeCommits() throws {
        let directory = try TemporaryDirectory("large")
        let path = directory.path("l.rql")
        let store = try Self.makeStore(path)
        try Self.commit(store)
        func logRecords() throws -> Int { try BlockStore.verify(path: path).logRecords }
        #expect(try logRecords() == 1)
        let storeSize = Self.size(path)
        // Objects whose record fits one frame: logged.
        _ = try store.write { t in
            for id in 1_000..<1_100 { _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("a")]) }
        }
        #expect(try logRecords() == 2)
        #expect(Self.size(path) == storeSize)
        // Many objects: the record passes the frame, and the commit writes a checkpoint.
        _ = try store.write { t in
            for id in 2_000..<6_000 { _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("b")]) }
        }
        #expect(try logRecords() == 0)
        // One object with a value longer than a frame: a checkpoint too.
        _ = try store.write { t in
            _ = try t.insert("Item", ["id": .int(9_000), "text": .string(String(repeating: "c", count: 70_000))])
        }
        #expect(try logRecords() == 0)
        try Self.commit(store)
        #expect(try logRecords() == 1)
        let reopened = try BlockStore.open(path: path, readOnly: true).snapshot
        #expect(reopened.version == store.snapshot.version)
        #expect(reopened.table(named: "Item")?.rowCount == store.snapshot.table(named: "Item")?.rowCount)
        #expect(reopened.table(named: "Item")?.rowCount == 1 + 100 + 4_000 + 1 + 1)
    }

    @Test("checkpoints on the size threshold and on close keep the log and the file bounded")
    func thresholdAndClose() throws {
        let directory = try TemporaryDirectory("log")
        let path = directory.path("t.rql")
        do {
            let store = try Self.makeStore(path, threshold: 8 << 10)
            for _ in 0..<300 { try Self.commit(store) }
            // Preallocated up to the threshold and one page past it (the record that passes it).
            #expect(Self.size(path + ".log") <= (8 << 10) + 4096)
            #expect(try BlockStore.verify(path: path).version == 300)
        }
        // The store closed: its records went into a checkpoint.
        let info = try BlockStore.verify(path: path)
        #expect(info.version == 300 && info.logRecords == 0)
        StoreCrashTests.checkCommitted(try BlockStore.open(path: path, readOnly: true).snapshot)
    }

    @Test("random transactions through the log agree with a second store that refreshes and reopens")
    func differential() throws {
        let directory = try TemporaryDirectory("log")
        let path = directory.path("d.rql")
        for seed in [21, 22, 23] as [UInt64] {
            let file = directory.path("d\(seed).rql")
            var run = try DifferentialTests.Run(seed: seed) { schema in
                let store = try BlockStore.create(path: file, schema: schema)
                store.checkpointThreshold = 6 << 10
                return store
            }
            let reader = try BlockStore.open(path: file, readOnly: true)
            var random = SplitMix(seed: seed)
            for round in 0..<40 {
                try run.transaction()
                let written = run.store.snapshot
                if random.next(7) == 0 { try run.store.checkpoint() }
                if random.next(3) > 0 {
                    _ = try reader.refresh()
                    try Self.expectSame(reader.snapshot, written, "seed \(seed) round \(round), refreshed")
                }
                if random.next(5) == 0 {
                    let reopened = try BlockStore.open(path: file, readOnly: true).snapshot
                    try Self.expectSame(reopened, written, "seed \(seed) round \(round), reopened")
                    #expect(try BlockStore.verify(path: file).version == written.version)
                }
            }
        }
        _ = path
    }

    /// The same version, objects (backlinks included) and index answers.
    static func expectSame(_ a: BlockSnapshot, _ b: BlockSnapshot, _ comment: Comment) throws {
        #expect(a.version == b.version, comment)
        #expect(a.schema == b.schema, comment)
        #expect(Fixtures.dump(a) == Fixtures.dump(b), comment)
        for objectSchema in a.schema.classes {
            guard let table = a.table(named: objectSchema.name), let other = b.table(named: objectSchema.name) else {
                continue
            }
            Fixtures.checkViews(table)
            for position in 0..<table.rowCount {
                for p in objectSchema.properties.indices where table.hasIndex(property: p) {
                    let value = table.value(at: position, property: p)
                    #expect(
                        table.indexLookup(property: p, equalTo: value)
                            == other.indexLookup(property: p, equalTo: value),
                        comment
                    )
                }
            }
        }
        let engine = try QueryEngine(options: EngineOptions(backend: .reference))
        for (className, text) in DifferentialTests.queries where a.schema[className] != nil {
            guard let query = try? engine.compile(text, className: className, store: a) else { continue }
            #expect(engine.run(query, on: a) == engine.run(query, on: b), "\(comment): \(text)")
        }
    }

    /// A store with `count` logged commits (no checkpoint), its bytes, and the log's up to the
    /// end of its last record (without the zeros preallocated after it).
    static func loggedFile(_ path: String, commits count: Int) throws -> (store: Data, log: Data) {
        do {
            let store = try makeStore(path)
            for _ in 0..<count { try commit(store) }
            // Copied before the store closes (closing would checkpoint).
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let log = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
            return (bytes, log.prefix(recordsEnd(log)))
        }
    }

    /// The offset after the log's last record (where its preallocated zeros begin).
    static func recordsEnd(_ log: Data) -> Int {
        let bytes = [UInt8](log)
        guard let last = recordOffsets(log).last else { return CommitLog.headerSize }
        return last + (Int(bytes[last]) | Int(bytes[last + 1]) << 8 | Int(bytes[last + 2]) << 16)
    }

    /// The offsets of the log's records, from its bytes.
    static func recordOffsets(_ log: Data) -> [Int] {
        var offsets: [Int] = []
        var at = CommitLog.headerSize
        let bytes = [UInt8](log)
        while at + 4 <= bytes.count {
            let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            guard length > 0, at + length <= bytes.count else { break }
            offsets.append(at)
            at += length
        }
        return offsets
    }

    @Test("a log cut at every byte of its last record opens at the commit before, quietly, and stays writable")
    func tornTail() throws {
        let directory = try TemporaryDirectory("torn")
        let (storeBytes, log) = try Self.loggedFile(directory.path("whole.rql"), commits: 5)
        let last = try #require(Self.recordOffsets(log).last)
        for cut in last...log.count {
            let path = directory.path("cut-\(cut).rql")
            try storeBytes.write(to: URL(fileURLWithPath: path))
            try log.prefix(cut).write(to: URL(fileURLWithPath: path + ".log"))
            let store = try BlockStore.open(path: path)
            let expected: UInt64 = cut == log.count ? 5 : 4
            #expect(store.snapshot.version == expected, "cut at \(cut)")
            #expect(store.fallback == nil, "cut at \(cut)")
            StoreCrashTests.checkCommitted(store.snapshot)
            #expect(try BlockStore.verify(path: path).version == expected)
            // The next commit replaces the torn bytes.
            try Self.commit(store)
            let reopened = try BlockStore.open(path: path, readOnly: true)
            #expect(reopened.snapshot.version == expected + 1, "cut at \(cut)")
            StoreCrashTests.checkCommitted(reopened.snapshot)
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".log")
        }
    }

    /// Opens `log` beside a copy of `storeBytes`, expects `version` with no fallback (and verify
    /// agreeing), commits once more and expects the reopened file at the version after.
    static func expectOpens(
        _ storeBytes: Data,
        log: Data,
        at version: UInt64,
        in directory: TemporaryDirectory,
        _ comment: Comment
    ) throws {
        let path = directory.path("case.rql")
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + ".log")
        try storeBytes.write(to: URL(fileURLWithPath: path))
        try log.write(to: URL(fileURLWithPath: path + ".log"))
        let store = try BlockStore.open(path: path)
        #expect(store.snapshot.version == version, comment)
        #expect(store.fallback == nil, comment)
        StoreCrashTests.checkCommitted(store.snapshot)
        #expect(try BlockStore.verify(path: path).version == version, comment)
        try Self.commit(store)
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.snapshot.version == version + 1, comment)
        #expect(reopened.fallback == nil, comment)
        StoreCrashTests.checkCommitted(reopened.snapshot)
    }

    @Test("zeros after the last record, as many as a preallocation cut short by a kill leaves, end the log quietly")
    func zeroTail() throws {
        let directory = try TemporaryDirectory("zeros")
        let (storeBytes, log) = try Self.loggedFile(directory.path("whole.rql"), commits: 5)
        for zeros in [0, 1, 7, 8, 15, 16, 31, 32, 33, 4000, 4096, 65_536, 65_600, 300_000] {
            try Self.expectOpens(storeBytes, log: log + Data(count: zeros), at: 5, in: directory, "\(zeros) zeros")
        }
    }

    @Test("a record torn into the preallocated zeros, at every byte, opens at the commit before, quietly")
    func tornIntoZeros() throws {
        let directory = try TemporaryDirectory("tornzeros")
        let (storeBytes, log) = try Self.loggedFile(directory.path("whole.rql"), commits: 5)
        let last = try #require(Self.recordOffsets(log).last)
        for cut in last..<log.count {
            let torn = log.prefix(cut) + Data(count: log.count - cut + 65_536)
            try Self.expectOpens(storeBytes, log: torn, at: 4, in: directory, "cut at \(cut)")
        }
        // Bytes of the torn record landed, the ones before them did not (a write that reached
        // the disk out of order): no record of the generation follows, so it is a torn tail.
        for hole in stride(from: last, to: log.count - 8, by: 24)
        where log[hole..<hole + 8].contains(where: { $0 != 0 }) {
            var torn = log + Data(count: 4096)
            torn.replaceSubrange(hole..<hole + 8, with: Data(count: 8))
            try Self.expectOpens(storeBytes, log: torn, at: 4, in: directory, "hole at \(hole)")
        }
    }

    @Test(
        "after a checkpoint the log's older generation stays behind its new records, never replayed; a record torn over it ends the log"
    )
    func olderGeneration() throws {
        let directory = try TemporaryDirectory("generation")
        let path = directory.path("g.rql")
        let store = try Self.makeStore(path)
        for _ in 0..<12 { try Self.commit(store) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
        #expect(try store.checkpoint())
        try Self.commit(store)
        try Self.commit(store)
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
        #expect(log.count == before.count, "the log file kept its size")
        #expect(try BlockStore.verify(path: path).logRecords == 2)
        #expect(try BlockStore.open(path: path, readOnly: true).snapshot.version == 14)
        #expect(Self.recordOffsets(before).count == 12)
        let offsets = Self.recordOffsets(log)
        #expect(offsets.count >= 2)
        let last = offsets[1]
        let end = last + (Int(log[last]) | Int(log[last + 1]) << 8)
        #expect(end < Self.recordsEnd(before))
        #expect(log[end..<end + 16] == before[end..<end + 16])
        for cut in last..<end {
            // What a write cut short over the older generation leaves: its bytes after the cut.
            var torn = log
            torn.replaceSubrange(cut..<end, with: before[cut..<end])
            try Self.expectOpens(storeBytes, log: torn, at: 13, in: directory, "cut at \(cut)")
        }
    }

    @Test("a flipped bit in a record before the last is reported by offset; commits wait for consent")
    func damagedRecord() throws {
        let directory = try TemporaryDirectory("flip")
        let (storeBytes, log) = try Self.loggedFile(directory.path("whole.rql"), commits: 6)
        let offsets = Self.recordOffsets(log)
        #expect(offsets.count == 6)
        var random = SplitMix(seed: 4)
        for (i, record) in offsets.enumerated().dropLast() {
            let end = offsets[i + 1]
            for trial in 0..<8 {
                let path = directory.path("flip-\(i)-\(trial).rql")
                var damaged = log
                damaged[record + random.next(end - record)] ^= UInt8(1 << random.next(8))
                try storeBytes.write(to: URL(fileURLWithPath: path))
                try damaged.write(to: URL(fileURLWithPath: path + ".log"))
                let store = try BlockStore.open(path: path)
                #expect(store.snapshot.version == UInt64(i), "record \(i)")
                StoreCrashTests.checkCommitted(store.snapshot)
                let fallback = try #require(store.fallback)
                #expect(fallback.description.contains("commit log record at offset \(record)"), "\(fallback)")
                #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
                #expect(throws: WriteError.self) { try Self.commit(store) }
                store.acceptOlderVersion()
                try Self.commit(store)
                let reopened = try BlockStore.open(path: path, readOnly: true)
                #expect(reopened.fallback == nil)
                #expect(reopened.snapshot.version == UInt64(i) + 1)
                StoreCrashTests.checkCommitted(reopened.snapshot)
                #expect(try BlockStore.verify(path: path).version == UInt64(i) + 1)
            }
        }
        // A damaged header with records after it: the records are lost, and that is reported.
        let path = directory.path("header.rql")
        var damaged = log
        damaged[20] ^= 1
        try storeBytes.write(to: URL(fileURLWithPath: path))
        try damaged.write(to: URL(fileURLWithPath: path + ".log"))
        let store = try BlockStore.open(path: path, readOnly: true)
        #expect(store.snapshot.version == 0)
        #expect(store.fallback?.description.contains("commit log record at offset 0") == true)
    }

    @Test("a log left by a deleted store is not replayed into a new store made at its path")
    func staleLog() throws {
        let directory = try TemporaryDirectory("stale")
        let path = directory.path("s.rql")
        let (_, log) = try Self.loggedFile(path, commits: 3)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.removeItem(atPath: path + ".log")
        // The same schema: version 0 of the new store is byte for byte the old one's but for its id.
        _ = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: Self.schemaJSON))
        try log.write(to: URL(fileURLWithPath: path + ".log"))
        // Version 0's slot names a log of its own, which this is not: an error, not a replay.
        for readOnly in [true, false] {
            #expect(throws: StoreFileError.self) { try BlockStore.open(path: path, readOnly: readOnly) }
            do {
                _ = try BlockStore.open(path: path, readOnly: readOnly)
            } catch {
                guard case .commitLogMissing(let logPath, _, foreign: true) = error.problem else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(logPath == path + ".log")
            }
        }
        // The log truncated (its records are not this store's): the store opens at its checkpoint.
        try Data().write(to: URL(fileURLWithPath: path + ".log"))
        let store = try BlockStore.open(path: path)
        #expect(store.snapshot.version == 0)
        #expect(store.fallback == nil)
        try Self.commit(store)
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.fallback == nil)
        #expect(reopened.snapshot.version == 1)
        StoreCrashTests.checkCommitted(reopened.snapshot)
    }

    @Test("random bytes flipped anywhere in the log open at a committed version or report it, never trap")
    func flippedAnywhere() throws {
        let directory = try TemporaryDirectory("flipany")
        let (storeBytes, log) = try Self.loggedFile(directory.path("whole.rql"), commits: 6)
        let last = try #require(Self.recordOffsets(log).last)
        var random = SplitMix(seed: 12)
        for i in 0..<200 {
            var damaged = log
            var flipped: [Int] = []
            for _ in 0..<(1 + random.next(3)) {
                flipped.append(random.next(damaged.count))
                damaged[flipped.last!] ^= UInt8(1 + random.next(255))
            }
            let path = directory.path("f-\(i).rql")
            try storeBytes.write(to: URL(fileURLWithPath: path))
            try damaged.write(to: URL(fileURLWithPath: path + ".log"))
            let store = try BlockStore.open(path: path, readOnly: true)
            StoreCrashTests.checkCommitted(store.snapshot)
            // Damage to the last record looks like a commit cut short, and the records before it
            // then end the log as its tail would: a quiet loss needs a flip in the last record.
            if store.fallback == nil {
                #expect(store.snapshot.version == 6 || flipped.contains { $0 >= last }, "flip \(i): \(flipped)")
            }
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".log")
        }
    }
}

/// A writer with the commit log on, killed with SIGKILL at random moments of its commits and
/// checkpoints (`store-crash-helper log`), over and over on one file: after each kill the file
/// verifies, opens without a fallback, and holds exactly a committed version at least as new as
/// the last one the writer printed.
@Suite("Store file: commit log crashes")
struct CommitLogCrashTests {
    @Test("two processes committing through one log at once: every commit lands, in order")
    func twoWriters() throws {
        let directory = try TemporaryDirectory("logtwo")
        let path = directory.path("two.rql")
        let store = try CommitLogTests.makeStore(path, threshold: 4096)
        let process = Process()
        process.executableURL = try StoreCrashTests.helper
        process.arguments = ["log", path, "300", "4096"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let reader = try BlockStore.open(path: path, readOnly: true)
        for round in 0..<150 {
            try CommitLogTests.commit(store)
            // Each commit's content depends on its version alone, whichever process made it.
            StoreCrashTests.checkCommitted(store.snapshot)
            if round % 10 == 0 {
                _ = try reader.refresh()
                #expect(reader.fallback == nil)
                StoreCrashTests.checkCommitted(reader.snapshot)
            }
        }
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        _ = try store.refresh()
        #expect(store.snapshot.version == 450)
        StoreCrashTests.checkCommitted(store.snapshot)
        #expect(try BlockStore.verify(path: path).version == 450)
    }

    @Test("kills while the log grows (zeros written ahead of its records) lose no acknowledged commit")
    func killedWhileGrowing() throws {
        let directory = try TemporaryDirectory("loggrow")
        // A store whose records almost fill its log file: the writer's next commits write the
        // zeros of the log's next step (each record is longer than the one before).
        let template = directory.path("template.rql")
        var allocated: UInt64 = 0
        do {
            let store = try CommitLogTests.makeStore(template, threshold: 1 << 30)
            while true {
                try CommitLogTests.commit(store)
                let log = try Data(contentsOf: URL(fileURLWithPath: template + ".log"))
                allocated = UInt64(log.count)
                if CommitLogTests.recordsEnd(log) + 1500 > log.count { break }
            }
            try FileManager.default.copyItem(atPath: template, toPath: template + ".store")
            try FileManager.default.copyItem(atPath: template + ".log", toPath: template + ".store.log")
        }
        var random = SplitMix(seed: 91)
        var grown = 0
        for kill in 0..<60 {
            let path = directory.path("grow-\(kill).rql")
            try FileManager.default.copyItem(atPath: template + ".store", toPath: path)
            try FileManager.default.copyItem(atPath: template + ".store.log", toPath: path + ".log")
            let first = try BlockStore.open(path: path, readOnly: true).snapshot.version
            let delay = kill % 3 == 0 ? random.next(30_000) : random.next(5_000)
            let printed = try Self.killWriter(
                arguments: ["log", path, "1000000", "\(1 << 30)"],
                afterFirstCommit: kill % 3 != 0,
                delay: delay
            )
            if CommitLogTests.size(path + ".log") > allocated { grown += 1 }
            _ = try Self.expectRecovered(path, acknowledged: printed.last ?? first, kill: kill)
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".log")
        }
        #expect(grown > 10, "too few kills came after the log grew (\(grown))")
    }

    @Test("200 kills during logged commits and checkpoints lose no acknowledged commit")
    func killedWriter() throws {
        let directory = try TemporaryDirectory("logcrash")
        let path = directory.path("crash.rql")
        _ = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON))
        var random = SplitMix(seed: 77)
        var acknowledged: UInt64 = 0
        var midway = 0
        for kill in 0..<200 {
            let threshold = 2048 + random.next(6000)
            // Wait for a first commit line, then kill a random moment later (odd kills), or
            // kill at a random moment from the start (opening, replay, the first commit).
            let delay = kill.isMultiple(of: 2) ? random.next(20_000) : random.next(8_000)
            let printed = try Self.killWriter(
                arguments: ["log", path, "1000000", "\(threshold)"],
                afterFirstCommit: !kill.isMultiple(of: 2),
                delay: delay
            )
            if let last = printed.last {
                acknowledged = last
                midway += 1
            }
            acknowledged = try Self.expectRecovered(path, acknowledged: acknowledged, kill: kill)
        }
        #expect(midway > 50, "too few kills landed while the writer was committing")
    }

    /// Runs the crash helper with `arguments` and kills it `delay` microseconds after it starts
    /// (or, `afterFirstCommit`, after it prints its first commit); the versions it printed.
    static func killWriter(arguments: [String], afterFirstCommit: Bool, delay: Int) throws -> [UInt64] {
        let process = Process()
        process.executableURL = try StoreCrashTests.helper
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var output = Data()
        if afterFirstCommit {
            while !output.contains(UInt8(ascii: "\n")) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
        }
        usleep(UInt32(delay))
        Glibc.kill(process.processIdentifier, SIGKILL)
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { UInt64($0) }
    }

    /// Checks that the killed writer's store verifies, opens without a fallback at the last
    /// acknowledged version or the one after it, and holds whole commits; its version.
    static func expectRecovered(_ path: String, acknowledged: UInt64, kill: Int) throws -> UInt64 {
        let info = try BlockStore.verify(path: path)
        let store = try BlockStore.open(path: path, readOnly: true)
        #expect(store.fallback == nil, "kill \(kill)")
        #expect(info.version == store.snapshot.version)
        #expect(store.snapshot.version >= acknowledged, "kill \(kill)")
        #expect(store.snapshot.version <= acknowledged + 1, "kill \(kill)")
        StoreCrashTests.checkCommitted(store.snapshot)
        return store.snapshot.version
    }
}
