import Foundation
import RQLCore
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// A reader the reader table cannot show (its `<path>.lock` cannot be opened read-write, or it
/// publishes in a lock file made again after one was deleted) still keeps its pages from reuse:
/// its `ReaderMark` on the store file tells every writer to reuse nothing freed meanwhile. The
/// reader is a real process (`store-crash-helper hold`), reading everything twice from one
/// snapshot while this process commits.
@Suite("Store file: readers outside the reader table")
struct ReaderMarkTests {
    /// Starts the holder after `prepare` has done its damage to the lock file, commits 100
    /// times while it holds version 1, and checks that it read the same twice and that the file
    /// grew (nothing reused); then that reuse resumes once it is gone.
    static func holdWhileCommitting(_ name: String, prepare: (String) throws -> Void) throws {
        let directory = try TemporaryDirectory("mark")
        let path = directory.path(name)
        let store = try FreePagesTests.makeStore(path)
        try prepare(path)
        let (process, input, output, first) = try FreePagesTests.startHolder(path)
        #expect(first.hasPrefix("1 "), "the holder read \(first)")
        let start = FreePagesTests.size(path)
        try FreePagesTests.update(store, commits: 100, seed: 9)
        let whileHeld = FreePagesTests.size(path) - start
        // Throws, where `write(_:)` traps, when the helper has died: the test fails, the run goes on.
        try input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        let second = FreePagesTests.readLine(output)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(second == first, "the reader read different contents the second time")
        #expect(whileHeld > 50 * 4096, "grew \(whileHeld) bytes while the reader held version 1")
        #expect(try store.verify() != nil)
    }

    @Test("a reader that cannot open the lock file read-write keeps its pages from reuse")
    func readerWithoutLockFile() throws {
        try Self.holdWhileCommitting("unlockable.rql") { path in
            // The writer keeps its table (the file it opened, moved aside); the reader finds a
            // directory where the lock file should be, as it would find another user's file.
            #expect(rename(path + ".lock", path + ".lock-aside") == 0)
            #expect(mkdir(path + ".lock", 0o755) == 0)
        }
    }

    @Test("a reader publishing in a lock file made again after a deletion keeps its pages from reuse")
    func readerInAnotherLockFile() throws {
        try Self.holdWhileCommitting("deleted-lock.rql") { path in
            #expect(unlink(path + ".lock") == 0)
        }
    }

    @Test("marks: a writer sees another lock file's reader and a reader with none, not its own table's")
    func marks() throws {
        let directory = try TemporaryDirectory("mark")
        let path = directory.path("marks.rql")
        _ = try BlockStore.create(path: path, schema: StoreOpeningTests.schema)
        let writer = try #require(ReaderTable(storePath: path, publishing: 0))
        let writerFile = open(path, O_RDWR | O_CLOEXEC)
        defer { close(writerFile) }
        #expect(ReaderMark.take(writerFile, table: writer))
        // Another reader of the same table: not outside it.
        let sameTable = open(path, O_RDONLY | O_CLOEXEC)
        #expect(ReaderMark.take(sameTable, table: writer))
        #expect(!ReaderMark.othersOutside(writerFile, table: writer))
        close(sameTable)
        // A reader with no table.
        let bare = open(path, O_RDONLY | O_CLOEXEC)
        #expect(ReaderMark.take(bare, table: nil))
        #expect(ReaderMark.othersOutside(writerFile, table: writer))
        close(bare)
        #expect(!ReaderMark.othersOutside(writerFile, table: writer))
        // A reader publishing in another lock file (the first deleted, a new one made).
        #expect(unlink(path + ".lock") == 0)
        let other = try #require(ReaderTable(storePath: path, publishing: 0))
        #expect(other.identity != writer.identity)
        let elsewhere = open(path, O_RDONLY | O_CLOEXEC)
        #expect(ReaderMark.take(elsewhere, table: other))
        #expect(ReaderMark.othersOutside(writerFile, table: writer))
        close(elsewhere)
        #expect(!ReaderMark.othersOutside(writerFile, table: writer))
    }

    /// `isOpenElsewhere` (what `Realm.deleteFiles` and compaction ask) while a reader in another
    /// process holds the file through a hard link (another lock file, so only its mark shows),
    /// or without a lock file; false again once it is gone.
    @Test(
        "isOpenElsewhere sees another process's reader through a hard link or without a lock file",
        arguments: ["hard link", "no lock file"]
    )
    func openElsewhereSeesMarks(kind: String) throws {
        let directory = try TemporaryDirectory("mark")
        let path = directory.path("elsewhere.rql")
        let store = try FreePagesTests.makeStore(path)
        #expect(!store.isOpenElsewhere)
        var holderPath = path
        if kind == "hard link" {
            holderPath = directory.path("link.rql")
            #expect(link(path, holderPath) == 0)
        } else {
            #expect(rename(path + ".lock", path + ".lock-aside") == 0)
            #expect(mkdir(path + ".lock", 0o755) == 0)
        }
        let (process, input, _, first) = try FreePagesTests.startHolder(holderPath)
        #expect(first.hasPrefix("1 "), "the holder read \(first)")
        #expect(store.isOpenElsewhere, "a reader of \(kind) is not seen")
        // Throws, where `write(_:)` traps, when the helper has died: the test fails, the run goes on.
        try input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!store.isOpenElsewhere, "a reader that is gone is still seen")
    }

    @Test("a store with no reader table sees every other reader's mark, never its own")
    func othersWithoutTable() throws {
        let directory = try TemporaryDirectory("mark")
        let path = directory.path("bare.rql")
        _ = try BlockStore.create(path: path, schema: StoreOpeningTests.schema)
        let own = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(own) }
        #expect(ReaderMark.take(own, table: nil))
        #expect(!ReaderMark.others(own))
        // Another reader with no table, then one publishing in a table.
        let bare = open(path, O_RDONLY | O_CLOEXEC)
        #expect(ReaderMark.take(bare, table: nil))
        #expect(ReaderMark.others(own))
        close(bare)
        #expect(!ReaderMark.others(own))
        let table = try #require(ReaderTable(storePath: path, publishing: 0))
        let published = open(path, O_RDONLY | O_CLOEXEC)
        #expect(ReaderMark.take(published, table: table))
        #expect(ReaderMark.others(own))
        close(published)
        #expect(!ReaderMark.others(own))
    }
}
