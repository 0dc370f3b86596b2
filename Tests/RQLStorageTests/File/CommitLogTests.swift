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
        store.logsCommits = true
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
        let record = Self.size(path + ".log") - logSize
        #expect(record > 0 && record < 512, "one small record, not the touched blocks (\(record) bytes)")
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.snapshot.version == 2)
        StoreCrashTests.checkCommitted(reopened.snapshot)
        let info = try BlockStore.verify(path: path)
        #expect(info.version == 2)
        #expect(info.logRecords == 2)
        // A checkpoint on demand empties the log; the store file holds version 2 alone.
        #expect(try store.checkpoint())
        #expect(Self.size(path + ".log") == UInt64(CommitLog.headerSize))
        #expect(try BlockStore.verify(path: path).logRecords == 0)
        StoreCrashTests.checkCommitted(try BlockStore.open(path: path, readOnly: true).snapshot)
    }

    @Test("checkpoints on the size threshold and on close keep the log and the file bounded")
    func thresholdAndClose() throws {
        let directory = try TemporaryDirectory("log")
        let path = directory.path("t.rql")
        do {
            let store = try Self.makeStore(path, threshold: 8 << 10)
            for _ in 0..<300 { try Self.commit(store) }
            #expect(Self.size(path + ".log") <= 8 << 10 + 512)
            #expect(try BlockStore.verify(path: path).version == 300)
        }
        // The store closed: its records went into a checkpoint.
        #expect(Self.size(path + ".log") == UInt64(CommitLog.headerSize))
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
                store.logsCommits = true
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

    /// A store with `count` logged commits (no checkpoint), its bytes, and the log's.
    static func loggedFile(_ path: String, commits count: Int) throws -> (store: Data, log: Data) {
        do {
            let store = try makeStore(path)
            for _ in 0..<count { try commit(store) }
            // Copied before the store closes (closing would checkpoint).
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let log = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
            return (bytes, log)
        }
    }

    /// The offsets of the log's records, from its bytes.
    static func recordOffsets(_ log: Data) -> [Int] {
        var offsets: [Int] = []
        var at = CommitLog.headerSize
        let bytes = [UInt8](log)
        while at + 4 <= bytes.count {
            let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            guard length > 0 else { break }
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
            store.logsCommits = true
            try Self.commit(store)
            let reopened = try BlockStore.open(path: path, readOnly: true)
            #expect(reopened.snapshot.version == expected + 1, "cut at \(cut)")
            StoreCrashTests.checkCommitted(reopened.snapshot)
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".log")
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
        let store = try BlockStore.open(path: path)
        #expect(store.snapshot.version == 0)
        #expect(store.fallback?.description.contains("belongs to another store file") == true)
        store.acceptOlderVersion()
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
        process.executableURL = StoreCrashTests.helper
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

    @Test("200 kills during logged commits and checkpoints lose no acknowledged commit")
    func killedWriter() throws {
        let directory = try TemporaryDirectory("logcrash")
        let path = directory.path("crash.rql")
        _ = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON))
        var random = SplitMix(seed: 77)
        var acknowledged: UInt64 = 0
        var midway = 0
        for kill in 0..<200 {
            let process = Process()
            process.executableURL = StoreCrashTests.helper
            process.arguments = ["log", path, "1000000", "\(2048 + random.next(6000))"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            var output = Data()
            // Wait for a first commit line, then kill a random moment later (odd kills), or
            // kill at a random moment from the start (opening, replay, the first commit).
            if kill.isMultiple(of: 2) {
                usleep(UInt32(random.next(20_000)))
            } else {
                while !output.contains(UInt8(ascii: "\n")) {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    output.append(chunk)
                }
                usleep(UInt32(random.next(8_000)))
            }
            Glibc.kill(process.processIdentifier, SIGKILL)
            output.append(pipe.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let printed = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { UInt64($0) }
            if let last = printed.last {
                acknowledged = last
                midway += 1
            }
            let info = try BlockStore.verify(path: path)
            let store = try BlockStore.open(path: path, readOnly: true)
            #expect(store.fallback == nil, "kill \(kill)")
            #expect(info.version == store.snapshot.version)
            #expect(store.snapshot.version >= acknowledged, "kill \(kill)")
            #expect(store.snapshot.version <= acknowledged + 1, "kill \(kill)")
            StoreCrashTests.checkCommitted(store.snapshot)
            acknowledged = store.snapshot.version
        }
        #expect(midway > 50, "too few kills landed while the writer was committing")
    }
}
