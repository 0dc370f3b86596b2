import Foundation
import RQLCore
import RQLDatasets
import RQLTestSupport
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// A writer killed with SIGKILL at a random moment (`store-crash-helper`, a process of its
/// own) leaves a file that opens, verifies, and holds exactly a committed version at least as
/// new as the last one the writer printed after `commit()` returned.
@Suite("Store file: crashes")
struct StoreCrashTests {
    static let schemaJSON = #"""
        {"schema": {
          "Item": {"primaryKey": "id", "properties": {"id": "int", "text": "string", "history": "list<int>"}},
          "Counter": {"properties": {"value": "int"}}
        }}
        """#

    /// A new store file of this schema at `path`.
    static func createFile(_ path: String) throws -> BlockStore {
        try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: schemaJSON))
    }

    /// Inserts an Item for each of `ids` (its text `text(id)`, its history `[id]`) in one commit.
    static func insertItems(_ ids: Range<Int>, into store: BlockStore, text: (Int) -> String) throws {
        try store.write { t in
            for id in ids {
                _ = try t.insert(
                    "Item",
                    ["id": .int(Int64(id)), "text": .string(text(id)), "history": .list([.int(Int64(id))])]
                )
            }
        }
    }

    /// The helper executable (`Tests/StoreCrashHelper`, built optimized by the Benchmarks package).
    static var helper: URL {
        get throws { try HelperExecutable.storeCrash.url() }
    }

    /// Checks that `snapshot` is exactly the state after commit `version` of the helper.
    static func checkCommitted(_ snapshot: BlockSnapshot) {
        let version = Int64(snapshot.version)
        let items = snapshot.table(named: "Item")!
        let counters = snapshot.table(named: "Counter")!
        #expect(items.rowCount == Int(version))
        #expect(counters.rowCount == (version > 0 ? 1 : 0))
        if version > 0 {
            #expect(counters.value(at: 0, property: 0) == .int(version))
            #expect(items.position(ofPrimaryKey: .int(version)) == Int(version) - 1)
            let history: [Value] = version >= 2 ? (2...version).map { .int($0) } : []
            #expect(items.value(at: 0, property: 2) == .list(history))
            #expect(
                items.value(at: items.rowCount - 1, property: 1)
                    == .string(String(repeating: "x", count: Int(version % 50)))
            )
        }
    }

    @Test("a writer killed at random moments never loses a committed version", arguments: 0..<5)
    func killedWriter(batch: Int) throws {
        let directory = try TemporaryDirectory("crash")
        var random = SplitMix(seed: UInt64(batch) &* 7919 &+ 1)
        var sawMidway = false
        for repetition in 0..<10 {
            let path = directory.path("crash-\(repetition).rql")
            _ = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: Self.schemaJSON))
            // Even repetitions kill at a random moment from the start (opening, the first
            // commits); odd ones wait for the first commit's line, then kill a few milliseconds
            // later, so at least some kills land mid-run however loaded the machine is (a fixed
            // delay alone missed every commit when the writer started late).
            let waits = !repetition.isMultiple(of: 2)
            let printed = try CommitLogCrashTests.killWriter(
                arguments: [path, "1000"],
                afterFirstCommit: waits,
                delay: waits ? random.next(5_000) : 5_000 + random.next(60_000)
            )
            let lastPrinted = printed.last ?? 0
            if !printed.isEmpty && lastPrinted < 1000 { sawMidway = true }
            let info = try BlockStore.verify(path: path)
            let store = try BlockStore.open(path: path)
            #expect(info.version == store.snapshot.version)
            #expect(store.snapshot.version >= lastPrinted, "repetition \(repetition)")
            #expect(store.snapshot.version <= lastPrinted + 1, "repetition \(repetition)")
            Self.checkCommitted(store.snapshot)
            // The file stays writable after the crash: the next commit lands and verifies.
            _ = try store.write { t in
                _ = try t.insert("Item", ["id": .int(-1), "text": .string("after"), "history": .list([])])
            }
            #expect(try BlockStore.verify(path: path).version == store.snapshot.version)
            #expect(
                try BlockStore.open(path: path).snapshot.table(named: "Item")?.position(ofPrimaryKey: .int(-1)) != nil
            )
        }
        #expect(sawMidway, "no kill landed while the writer was committing")
    }
}

/// Damaged files: truncated at random offsets, or with random bytes flipped. Opening gives the
/// last good version or a typed error, and never traps; `verify()` catches what open does not
/// check (the pages of older commits are checksummed in their parents' references).
@Suite("Store file: damage")
struct StoreDamageTests {
    /// A file with several versions, and the dump of each version.
    static func makeFile(_ path: String) throws -> [UInt64: [String: [RowKey: [Value]]]] {
        var run = try DifferentialTests.Run(seed: 5) { try BlockStore.create(path: path, schema: $0) }
        var dumps: [UInt64: [String: [RowKey: [Value]]]] = [:]
        for _ in 0..<6 {
            try run.transaction()
            dumps[run.store.snapshot.version] = Fixtures.dump(run.store.snapshot)
        }
        return dumps
    }

    /// Opens `path`, reads everything, and checks the result is a known version or a typed error.
    static func openDamaged(_ path: String, dumps: [UInt64: [String: [RowKey: [Value]]]]) -> Bool {
        do {
            let store = try BlockStore.open(path: path, readOnly: true)
            let dump = Fixtures.dump(store.snapshot)
            for objectSchema in store.snapshot.schema.classes {
                _ = store.snapshot.table(named: objectSchema.name).map { table in
                    for b in 0..<table.blockCount { table.withBlock(b) { _ in } }
                }
            }
            do {
                _ = try BlockStore.verify(path: path)
                #expect(dumps[store.snapshot.version] == dump, "verify passed on a changed version")
            } catch {
                #expect(!error.description.isEmpty)
            }
            return true
        } catch {
            #expect(error.description.contains(path))
            return false
        }
    }

    @Test("truncated files open at the last good version or throw a typed error")
    func truncated() throws {
        let directory = try TemporaryDirectory("truncate")
        let path = directory.path("whole.rql")
        let dumps = try Self.makeFile(path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let newest = dumps.keys.max()!
        var random = SplitMix(seed: 3)
        var opened = 0
        for i in 0..<120 {
            let cut = i < 3 ? [0, 10, 4096][i] : random.next(whole.count)
            let damaged = directory.path("cut-\(i).rql")
            try whole.prefix(cut).write(to: URL(fileURLWithPath: damaged))
            if Self.openDamaged(damaged, dumps: dumps) {
                opened += 1
                let version = try BlockStore.open(path: damaged, readOnly: true).snapshot.version
                #expect(version == newest || version == newest - 1)
            }
            try? FileManager.default.removeItem(atPath: damaged)
        }
        #expect(opened < 120)
    }

    @Test("files with flipped bytes open at a good version or throw a typed error, never trap")
    func flippedBytes() throws {
        let directory = try TemporaryDirectory("flip")
        let path = directory.path("whole.rql")
        let dumps = try Self.makeFile(path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        var random = SplitMix(seed: 9)
        for i in 0..<300 {
            var damaged = whole
            for _ in 0..<(1 + random.next(3)) {
                let at = i % 3 == 0 ? random.next(4096 + 256) % whole.count : random.next(whole.count)
                damaged[at] ^= UInt8(1 + random.next(255))
            }
            let damagedPath = directory.path("flip-\(i).rql")
            try damaged.write(to: URL(fileURLWithPath: damagedPath))
            _ = Self.openDamaged(damagedPath, dumps: dumps)
            try? FileManager.default.removeItem(atPath: damagedPath)
        }
    }
}
