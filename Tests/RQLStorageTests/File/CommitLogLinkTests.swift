import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// The commit log is found through the store's resolved path, and a checkpoint's slot names the
/// log generation after it: a symbolic link reads and writes the store's own log; a hard link
/// under another name, a copy of the store file alone or a deleted log is `.commitLogMissing`,
/// never an older version read as the newest.
@Suite("Store file: finding the commit log")
struct CommitLogLinkTests {
    /// A store at `path` with `commits` logged commits after version 0 (its checkpoint).
    static func loggedStore(_ path: String, commits: Int) throws -> BlockStore {
        let store = try CommitLogTests.makeStore(path)
        for _ in 0..<commits { try CommitLogTests.commit(store) }
        #expect(try BlockStore.info(path: path).logRecords == commits, "the commits are in the log")
        return store
    }

    /// Inserts one Item (what a compacted copy, whose versions start past `CommitLogTests.commit`'s
    /// first, takes).
    static func insert(_ store: BlockStore) throws {
        let t = store.beginWrite()
        let id = Int64(t.reader.version)
        _ = try t.insert("Item", ["id": .int(id), "text": .string("i\(id)"), "history": .list([])])
        _ = try t.commit()
    }

    /// The error `body` throws is `.commitLogMissing` naming `log`.
    static func expectMissingLog(
        _ log: String,
        foreign: Bool = false,
        _ comment: Comment,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("no error: \(comment)")
        } catch let error as StoreFileError {
            guard case .commitLogMissing(let named, let generation, let isForeign) = error.problem else {
                Issue.record("\(comment): \(error)")
                return
            }
            #expect(named == log, comment)
            #expect(generation != 0, comment)
            #expect(isForeign == foreign, comment)
            #expect(error.description.contains("hard link"), comment)
        } catch {
            Issue.record("\(comment): \(error)")
        }
    }

    @Test("a store read and written through a symbolic link sees every logged commit and logs into the store's log")
    func symbolicLink() throws {
        let directory = try TemporaryDirectory("log-symlink")
        let path = directory.path("a.rql")
        let link = directory.path("c.rql")
        let writer = try Self.loggedStore(path, commits: 3)
        #expect(symlink(path, link) == 0)
        let reader = try BlockStore.open(path: link, readOnly: true)
        #expect(reader.snapshot.version == 3)
        StoreCrashTests.checkCommitted(reader.snapshot)
        // A writer through the link appends to a.rql.log; the store's own path sees it.
        let linked = try BlockStore.open(path: link)
        #expect(linked.snapshot.version == 3)
        try CommitLogTests.commit(linked)
        #expect(!FileManager.default.fileExists(atPath: link + ".log"))
        let direct = try BlockStore.open(path: path, readOnly: true)
        #expect(direct.snapshot.version == 4)
        StoreCrashTests.checkCommitted(direct.snapshot)
        #expect(try BlockStore.info(path: path).logRecords == 4)
        // And the writer at the store's path catches up with it before committing.
        #expect(try writer.refresh())
        try CommitLogTests.commit(writer)
        #expect(try BlockStore.open(path: link, readOnly: true).snapshot.version == 5)
        withExtendedLifetime((writer, linked)) {}
    }

    @Test("removing a store through a symbolic link removes the link only; through its path, the store, log and lock")
    func removeThroughLink() throws {
        let directory = try TemporaryDirectory("log-remove-link")
        let path = directory.path("a.rql")
        let link = directory.path("c.rql")
        let writer = try Self.loggedStore(path, commits: 3)
        #expect(symlink(path, link) == 0)
        _ = try BlockStore.open(path: link, readOnly: true)
        withExtendedLifetime(writer) {}
        #expect(try BlockStore.removeFiles(path: link))
        #expect(!FileManager.default.fileExists(atPath: link))
        // The store keeps its log: every logged commit still reads.
        let reader = try BlockStore.open(path: path, readOnly: true)
        #expect(reader.snapshot.version == 3)
        StoreCrashTests.checkCommitted(reader.snapshot)
        #expect(try BlockStore.removeFiles(path: path))
        for file in [path, path + ".log", path + ".lock"] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) is left")
        }
        #expect(try !BlockStore.removeFiles(path: path))
    }

    @Test("a hard link under another name is .commitLogMissing, read-only and read-write, and makes no log")
    func hardLink() throws {
        let directory = try TemporaryDirectory("log-hardlink")
        let path = directory.path("a.rql")
        let link = directory.path("b.rql")
        let writer = try Self.loggedStore(path, commits: 3)
        #expect(Glibc.link(path, link) == 0)
        Self.expectMissingLog(link + ".log", "read-only") { _ = try BlockStore.open(path: link, readOnly: true) }
        Self.expectMissingLog(link + ".log", "read-write") { _ = try BlockStore.open(path: link) }
        Self.expectMissingLog(link + ".log", "verify") { _ = try BlockStore.verify(path: link) }
        #expect(!FileManager.default.fileExists(atPath: link + ".log"), "an empty log would hide the error")
        // Nothing was written on top of the checkpoint: the store reads whole at its path.
        let reader = try BlockStore.open(path: path, readOnly: true)
        #expect(reader.snapshot.version == 3)
        StoreCrashTests.checkCommitted(reader.snapshot)
        withExtendedLifetime(writer) {}
    }

    /// Two names of one store that names no log (a compacted copy, or a file of format 3), both
    /// open for writing: the first commit through one name names the log beside it, and the other
    /// name then finds no log, as a hard link opened later does. It never makes one of its own,
    /// which would read as the named log without its commits.
    @Test(
        "a hard link opened before any checkpoint named a log is .commitLogMissing once the other name logs",
        arguments: [5, 4, 3] as [UInt32]
    )
    func hardLinkBeforeTheLogIsNamed(format: UInt32) throws {
        let directory = try TemporaryDirectory("log-hardlink-early")
        let source = directory.path("source.rql")
        let path = directory.path("a.rql")
        let link = directory.path("b.rql")
        try CommitLogTests.makeStore(source).compact(to: path, format: format)
        #expect(Glibc.link(path, link) == 0)
        let first = try BlockStore.open(path: path)
        let second = try BlockStore.open(path: link)
        #expect(!FileManager.default.fileExists(atPath: link + ".log"), "opening made a log")
        // The first commit is the checkpoint naming a.rql.log; the next two are logged there.
        for _ in 0..<3 { try Self.insert(first) }
        #expect(try BlockStore.info(path: path).logRecords == 2)
        Self.expectMissingLog(link + ".log", "refresh") { _ = try second.refresh() }
        Self.expectMissingLog(link + ".log", "commit") {
            do {
                try Self.insert(second)
            } catch WriteError.file(let error) {
                throw error
            }
        }
        #expect(!FileManager.default.fileExists(atPath: link + ".log"), "a commit made a log")
        // Nothing was written past the first name's commits.
        let reader = try BlockStore.open(path: path, readOnly: true)
        #expect(reader.snapshot.version == first.snapshot.version)
        #expect(try BlockStore.info(path: path).logRecords == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test("replaceLostLog opens a store whose log is lost at its checkpoint; never a hard link's or over another's log")
    func replaceLostLog() throws {
        let directory = try TemporaryDirectory("log-lost")
        let path = directory.path("a.rql")
        // Kept open: closing the last store of a file writes its log into a checkpoint.
        let writer = try Self.loggedStore(path, commits: 2)
        #expect(try writer.checkpoint())
        try CommitLogTests.commit(writer)
        try FileManager.default.removeItem(atPath: path + ".log")
        Self.expectMissingLog(path + ".log", "lost") { _ = try BlockStore.open(path: path) }
        #expect(try BlockStore.replaceLostLog(path: path) == 2, "version 3 was in the lost log alone")
        let reopened = try BlockStore.open(path: path)
        #expect(reopened.snapshot.version == 2)
        try CommitLogTests.commit(reopened)
        let read = try BlockStore.open(path: path, readOnly: true)
        #expect(read.snapshot.version == 3)
        StoreCrashTests.checkCommitted(read.snapshot)
        #expect(try BlockStore.replaceLostLog(path: path) == nil, "the log is there")
        // A hard link: the log is beside the other name.
        let link = directory.path("b.rql")
        #expect(Glibc.link(path, link) == 0)
        #expect(throws: StoreFileError.self) { try BlockStore.replaceLostLog(path: link) }
        #expect(!FileManager.default.fileExists(atPath: link + ".log"))
        // Another store's log in the place stays, and the store stays refused.
        let copy = directory.path("copy.rql")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let other = directory.path("other.rql")
        do { _ = try Self.loggedStore(other, commits: 1) }
        try FileManager.default.copyItem(atPath: other + ".log", toPath: copy + ".log")
        Self.expectMissingLog(copy + ".log", foreign: true, "another store's log") {
            _ = try BlockStore.replaceLostLog(path: copy)
        }
        withExtendedLifetime((writer, reopened)) {}
    }

    @Test("a copy of the store file alone, or a deleted log, is .commitLogMissing; beside another store's log too")
    func copyWithoutLog() throws {
        let directory = try TemporaryDirectory("log-copy")
        let path = directory.path("a.rql")
        let copy = directory.path("copy.rql")
        do {
            let writer = try Self.loggedStore(path, commits: 3)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            withExtendedLifetime(writer) {}
        }
        Self.expectMissingLog(copy + ".log", "copy") { _ = try BlockStore.open(path: copy, readOnly: true) }
        Self.expectMissingLog(copy + ".log", "info") { _ = try BlockStore.info(path: copy) }
        // Right after a checkpoint the log holds no records, yet the slot names it: a copy
        // cannot tell, so it is refused alike.
        let other = directory.path("other.rql")
        do {
            let writer = try Self.loggedStore(other, commits: 2)
            #expect(try writer.checkpoint())
        }
        try FileManager.default.removeItem(atPath: other + ".log")
        Self.expectMissingLog(other + ".log", "deleted log") { _ = try BlockStore.open(path: other) }
        // A copy beside the log of another store (left by a store deleted since, say).
        let beside = directory.path("x.rql")
        try FileManager.default.copyItem(atPath: copy, toPath: beside)
        let another = directory.path("y.rql")
        do { _ = try Self.loggedStore(another, commits: 1) }
        try FileManager.default.copyItem(atPath: another + ".log", toPath: beside + ".log")
        Self.expectMissingLog(beside + ".log", foreign: true, "another store's log") {
            _ = try BlockStore.open(path: beside, readOnly: true)
        }
    }

    @Test("the slot names the generation its log's records carry; a store that does not log names none")
    func slotNamesGeneration() throws {
        let directory = try TemporaryDirectory("log-generation")
        let path = directory.path("a.rql")
        let store = try Self.loggedStore(path, commits: 2)
        func named() throws -> [UInt64] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            return bytes.withUnsafeBytes { raw in
                FileHeader.slotOffsets.compactMap {
                    HeaderSlot.decode(UnsafeRawBufferPointer(rebasing: raw[$0..<$0 + FileHeader.slotSize]), .current)
                }.filter { $0.rootLength > 0 }.sorted { $0.version > $1.version }.map(\.logGeneration)
            }
        }
        func logGeneration() throws -> UInt64? {
            CommitLog.Header.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path + ".log")).prefix(64)))?
                .generation
        }
        #expect(try named().first == (try logGeneration()))
        #expect(try store.checkpoint())
        #expect(try named().first == (try logGeneration()))
        #expect(try named().first != 0)
        // A compacted copy stays one file: its slot names no log, and it opens alone.
        let copy = directory.path("copy.rql")
        try store.compact(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy + ".log"))
        #expect(try BlockStore.open(path: copy, readOnly: true).snapshot.tables.count > 0)
    }

    @Test("a crash after the log was made (empty) or before its reset (an older generation) opens at the checkpoint")
    func crashBeforeTheLogFollows() throws {
        let directory = try TemporaryDirectory("log-crash")
        let path = directory.path("a.rql")
        // Version 0 names a log that holds nothing yet: what a crash right after creating it leaves.
        do { _ = try CommitLogTests.makeStore(path) }
        #expect(CommitLogTests.size(path + ".log") == 0)
        #expect(try BlockStore.open(path: path, readOnly: true).fallback == nil)
        // The log as it was before a checkpoint's reset: records the checkpoint covers, of the
        // generation before the one its slot names.
        let store = try CommitLogTests.makeStore(directory.path("b.rql"))
        for _ in 0..<3 { try CommitLogTests.commit(store) }
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.path("b.rql.log")))
        #expect(try store.checkpoint())
        try before.write(to: URL(fileURLWithPath: directory.path("b.rql.log")))
        let reopened = try BlockStore.open(path: directory.path("b.rql"))
        #expect(reopened.fallback == nil)
        #expect(reopened.snapshot.version == 3)
        try CommitLogTests.commit(reopened)
        let read = try BlockStore.open(path: directory.path("b.rql"), readOnly: true)
        #expect(read.snapshot.version == 4)
        StoreCrashTests.checkCommitted(read.snapshot)
        #expect(try BlockStore.info(path: directory.path("b.rql")).logRecords == 1)
        withExtendedLifetime(store) {}
    }

    @Test("a file of format 3 opens, and becomes format 4 when a checkpoint first names its log")
    func formatThreeUpgraded() throws {
        let directory = try TemporaryDirectory("log-format3")
        let source = directory.path("source.rql")
        let path = directory.path("a.rql")
        // A compacted copy names no log: of format 3, it is what an earlier build wrote.
        try CommitLogTests.makeStore(source).compact(to: path, format: 3)
        let store = try BlockStore.open(path: path)
        #expect(try BlockStore.info(path: path).formatVersion == 3)
        for _ in 0..<3 { try Self.insert(store) }
        #expect(try CommitLogDefaultTests.formatVersion(path) == 4)
        // The first commit was the checkpoint naming the log, the others are in it.
        #expect(try BlockStore.info(path: path).logRecords == 2)
        try FileManager.default.copyItem(atPath: path, toPath: directory.path("copy.rql"))
        Self.expectMissingLog(directory.path("copy.rql.log"), "copy") {
            _ = try BlockStore.open(path: directory.path("copy.rql"), readOnly: true)
        }
    }
}
