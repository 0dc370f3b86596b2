import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// Pages a commit frees are reused once no snapshot can read them, in this process or another
/// (`store-crash-helper hold`), so a loop of commits keeps the file bounded; a held snapshot's
/// pages are never overwritten.
@Suite("Store file: free pages")
struct FreePagesTests {
    static let rows = 500

    /// A store of `rows` Items (one block) at version 1, whose commits are checkpoints (the
    /// log off): these tests are about the pages checkpoints write, free and reuse.
    static func makeStore(_ path: String) throws -> BlockStore {
        let store = try StoreCrashTests.createFile(path)
        store.logsCommits = false
        try StoreCrashTests.insertItems(0..<rows, into: store) { "item \($0 % 10)" }
        return store
    }

    /// `count` durable commits, each changing one Item's text (so each rewrites the block and
    /// frees the previous copy and root).
    static func update(_ store: BlockStore, commits count: Int, seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        for _ in 0..<count {
            let key = RowKey(Int64(random.next(rows)))
            try store.write { t in
                try t.set("text", of: ObjectLink(className: "Item", key: key), to: .string("text \(random.next(10))"))
            }
        }
    }

    static func size(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// Every value, and every Item found by primary key (through the index, read lazily).
    static func contents(_ snapshot: BlockSnapshot) -> [String: [RowKey: [Value]]] {
        var dump = Fixtures.dump(snapshot)
        let items = snapshot.table(named: "Item")!
        var lookups: [RowKey: [Value]] = [:]
        for id in 0..<rows {
            lookups[RowKey(Int64(id))] = [.int(Int64(items.position(ofPrimaryKey: .int(Int64(id))) ?? -1))]
        }
        dump["lookups"] = lookups
        return dump
    }

    @Test("a loop of durable commits keeps the file bounded, and verify accounts for every byte")
    func boundedGrowth() throws {
        let directory = try TemporaryDirectory("free")
        let path = directory.path("loop.rql")
        let store = try Self.makeStore(path)
        try Self.update(store, commits: 20, seed: 1)
        let early = Self.size(path)
        try Self.update(store, commits: 300, seed: 2)
        let late = Self.size(path)
        // Each commit writes a block of several kilobytes: without reuse 300 of them add
        // megabytes; with reuse the file holds a few versions' worth.
        #expect(late - early < 128 * 1024, "grew from \(early) to \(late) bytes")
        let info = try #require(try store.verify())
        #expect(info.version == 321)
        #expect(info.freeBytes > 0)
        #expect(info.reachableBytes + info.freeBytes + 4096 <= info.fileSize)
        let reopened = try BlockStore.open(path: path)
        #expect(Fixtures.dump(reopened.snapshot) == Fixtures.dump(store.snapshot))
    }

    /// One insert a commit changes the primary-key index every time: new nodes land in reused
    /// runs, below children that earlier commits wrote and this one keeps. Reading and `verify`
    /// must accept a child above its parent (they once required children below).
    @Test("index trees whose new nodes land in reused runs below kept children read and verify")
    func treesAcrossReusedRuns() throws {
        let directory = try TemporaryDirectory("free")
        let path = directory.path("inserts.rql")
        let schema = try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON)
        let store = try BlockStore.create(path: path, schema: schema)
        for id in 1...240 {
            try store.write { t in
                _ = try t.insert("Item", ["id": .int(Int64(id)), "text": .string("x"), "history": .list([])])
            }
            if id % 40 == 0 { #expect(try store.verify()?.version == UInt64(id)) }
        }
        let reopened = try BlockStore.open(path: path)
        let items = try #require(reopened.snapshot.table(named: "Item"))
        #expect((1...240).allSatisfy { items.position(ofPrimaryKey: .int(Int64($0))) == $0 - 1 })
    }

    @Test("a snapshot held in this process keeps its pages: its reads stay identical")
    func heldSnapshot() throws {
        let directory = try TemporaryDirectory("free")
        let path = directory.path("held.rql")
        _ = try Self.makeStore(path)
        // Opened from the file: blocks are mapped, index nodes read on first visit.
        let store = try BlockStore.open(path: path)
        store.logsCommits = false
        var held: BlockSnapshot? = store.snapshot
        let before = Self.contents(try #require(held))
        let start = Self.size(path)
        try Self.update(store, commits: 100, seed: 3)
        let whileHeld = Self.size(path) - start
        #expect(Self.contents(try #require(held)) == before)
        #expect(try store.verify() != nil)
        held = nil
        let released = Self.size(path)
        try Self.update(store, commits: 100, seed: 4)
        let afterRelease = Self.size(path) - released
        // Held, no page freed after its version can be reused; released, they are.
        #expect(whileHeld > 50 * 4096, "grew \(whileHeld) bytes while held")
        #expect(afterRelease < whileHeld / 4, "grew \(afterRelease) bytes after release, \(whileHeld) while held")
        let reopened = try BlockStore.open(path: path)
        #expect(Fixtures.dump(reopened.snapshot) == Fixtures.dump(store.snapshot))
    }

    /// Starts `store-crash-helper hold path` and returns it with its first line (version, digest).
    static func startHolder(_ path: String) throws -> (Process, Pipe, FileHandle, String) {
        let process = Process()
        process.executableURL = try StoreCrashTests.helper
        process.arguments = ["hold", path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        return (process, input, output.fileHandleForReading, readLine(output.fileHandleForReading))
    }

    static func readLine(_ handle: FileHandle) -> String {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    @Test("a reader in another process keeps its version's pages from reuse until it closes")
    func otherProcessReader() throws {
        let directory = try TemporaryDirectory("free")
        let path = directory.path("shared.rql")
        let store = try Self.makeStore(path)
        let (process, input, output, first) = try Self.startHolder(path)
        #expect(first.hasPrefix("1 "), "the holder read \(first)")
        let start = Self.size(path)
        try Self.update(store, commits: 100, seed: 5)
        let whileHeld = Self.size(path) - start
        // Throws, where `write(_:)` traps, when the helper has died: the test fails, the run goes on.
        try input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        let second = Self.readLine(output)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(second == first, "the other process read different contents")
        #expect(try store.verify() != nil)
        let released = Self.size(path)
        try Self.update(store, commits: 100, seed: 6)
        let afterRelease = Self.size(path) - released
        #expect(whileHeld > 50 * 4096, "grew \(whileHeld) bytes while the other process held version 1")
        #expect(afterRelease < whileHeld / 4, "grew \(afterRelease) bytes after it closed")
    }

    @Test("a killed reader's slot is stale: its pages are reused")
    func killedReader() throws {
        let directory = try TemporaryDirectory("free")
        let path = directory.path("killed.rql")
        let store = try Self.makeStore(path)
        let (process, _, _, first) = try Self.startHolder(path)
        #expect(first.hasPrefix("1 "))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try Self.update(store, commits: 20, seed: 7)
        let early = Self.size(path)
        try Self.update(store, commits: 100, seed: 8)
        #expect(Self.size(path) - early < 64 * 1024)
        #expect(try store.verify() != nil)
    }
}
