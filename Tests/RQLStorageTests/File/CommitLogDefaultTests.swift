import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// The commit log on by default: a new store's commits go to the log, the format version says
/// a file may have one (an older file is raised before its first record), and a compacted copy
/// is one file holding the log's commits.
@Suite("Store file: commit log by default")
struct CommitLogDefaultTests {
    static func create(_ path: String) throws -> BlockStore {
        try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON))
    }

    static func formatVersion(_ path: String) throws -> UInt32 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return bytes[8..<12].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    @Test("a new store logs its commits without asking: the store file stays as it was")
    func onByDefault() throws {
        let directory = try TemporaryDirectory("log-default")
        let path = directory.path("a.rql")
        let store = try Self.create(path)
        #expect(store.logsCommits)
        try CommitLogTests.commit(store)
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try CommitLogTests.commit(store)
        try CommitLogTests.commit(store)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == storeBytes)
        #expect(CommitLogTests.size(path + ".log") > UInt64(CommitLog.headerSize))
        let reader = try BlockStore.open(path: path, readOnly: true)
        #expect(reader.snapshot.version == 3)
        #expect(try BlockStore.info(path: path).logRecords > 0)
        #expect(try BlockStore.verify(path: path).formatVersion == FileHeader.formatVersion)
    }

    @Test("files of the previous format (whole-block checksums, no log) and of a newer one are refused by version")
    func otherFormats() throws {
        let directory = try TemporaryDirectory("log-format")
        let path = directory.path("old.rql")
        do {
            let store = try Self.create(path)
            try CommitLogTests.commit(store)
        }
        #expect(try Self.formatVersion(path) == FileHeader.formatVersion)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for version in [FileHeader.oldestReadableFormat - 1, FileHeader.formatVersion + 1] {
            var bytes = original
            bytes[8] = UInt8(version)
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: StoreFileError(path: path, problem: .unsupportedFormat(version: version))) {
                _ = try BlockStore.open(path: path, readOnly: true)
            }
            #expect(throws: StoreFileError(path: path, problem: .unsupportedFormat(version: version))) {
                _ = try BlockStore.open(path: path)
            }
        }
    }

    @Test("compact(to:) writes the log's commits into a copy that has no log")
    func compactLeavesNoLog() throws {
        let directory = try TemporaryDirectory("log-compact")
        let path = directory.path("a.rql")
        let copy = directory.path("copy.rql")
        let store = try Self.create(path)
        for _ in 0..<5 { try CommitLogTests.commit(store) }
        #expect(try BlockStore.info(path: path).logRecords > 0)
        try store.compact(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy + ".log"))
        let info = try BlockStore.verify(path: copy)
        #expect(info.logRecords == 0)
        #expect(info.classes.first { $0.name == "Item" }?.objects == 5)
        #expect(info.classes.first { $0.name == "Counter" }?.objects == 1)
    }

    @Test("a store made where a deleted store's log is left empties that log: its records are not read")
    func foreignLogAtCreate() throws {
        let directory = try TemporaryDirectory("log-foreign")
        let path = directory.path("a.rql")
        let log: Data
        do {
            let store = try Self.create(path)
            for _ in 0..<3 { try CommitLogTests.commit(store) }
            log = try Data(contentsOf: URL(fileURLWithPath: path + ".log"))
            try FileManager.default.removeItem(atPath: path)
        }
        // The deleted store's close checkpointed into its (unlinked) file: put its records back.
        try log.write(to: URL(fileURLWithPath: path + ".log"))
        #expect(CommitLogTests.size(path + ".log") > UInt64(CommitLog.headerSize))
        let store = try Self.create(path)
        #expect(CommitLogTests.size(path + ".log") == 0)
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.fallback == nil)
        #expect(reopened.snapshot.version == 0)
        try CommitLogTests.commit(store)
        #expect(try BlockStore.open(path: path, readOnly: true).snapshot.version == 1)
    }

    @Test("a store open for writing whose checkpoint names no log makes none at open, nor looks for one")
    func logMadeOnceForWriters() throws {
        let directory = try TemporaryDirectory("log-made")
        let path = directory.path("a.rql")
        // A compacted copy: one file, whose slot names no log.
        do { try Self.create(directory.path("source.rql")).compact(to: path) }
        #expect(!FileManager.default.fileExists(atPath: path + ".log"))
        let store = try BlockStore.open(path: path)
        store.logsCommits = false
        // Not made by the open's read: a log made beside this name would be read as the one a
        // later checkpoint names beside another name of the file (a hard link's). A checkpoint
        // of format 4 that names no log has no records after it, so none is looked for either.
        #expect(!FileManager.default.fileExists(atPath: path + ".log"))
        try CommitLogLinkTests.insert(store)
        // Each commit is a checkpoint; an empty log is left alone (no write, no sync).
        #expect(store.snapshot.version == 2)
        #expect(CommitLogTests.size(path + ".log") == 0)
        // A read-only open makes nothing.
        try? FileManager.default.removeItem(atPath: path + ".log")
        _ = try BlockStore.open(path: path, readOnly: true)
        #expect(!FileManager.default.fileExists(atPath: path + ".log"))
    }

    @Test("a store that refreshes reports the change sets of the records it applied, as their writer described them")
    func refreshedChanges() throws {
        let directory = try TemporaryDirectory("log-changes")
        let path = directory.path("a.rql")
        let writer = try Self.create(path)
        try CommitLogTests.commit(writer)
        let reader = try BlockStore.open(path: path)
        let from = reader.snapshot.version
        var described: [ChangeSet] = []
        for step in 0..<6 {
            let result = try writer.write { t in
                let version = Int64(t.reader.version)
                _ = try t.insert("Item", ["id": .int(version), "text": .string("t"), "history": .list([])])
                if step % 2 == 1 {
                    try t.set("value", of: ObjectLink(className: "Counter", key: RowKey(0)), to: .int(version))
                    try t.set("text", of: ObjectLink(className: "Item", key: RowKey(0)), to: .string("s\(step)"))
                }
                if step == 4 { try t.delete(ObjectLink(className: "Item", key: RowKey(2))) }
            }
            described.append(result.commit.changes)
        }
        #expect(described.contains { $0.classes["Item"]?.deleted == [RowKey(2)] })
        #expect(reader.refreshedChanges(after: from, through: from + 6) == nil)
        #expect(try reader.refresh())
        let read = try #require(reader.refreshedChanges(after: from, through: reader.snapshot.version))
        #expect(read == described)
        #expect(reader.refreshedChanges(after: from + 2, through: from + 4) == Array(described[2..<4]))
        // A version read as a checkpoint has no record: unknown, not empty.
        try writer.checkpoint()
        try CommitLogTests.commit(writer)
        try writer.checkpoint()
        #expect(try reader.refresh())
        #expect(reader.refreshedChanges(after: from + 6, through: reader.snapshot.version) == nil)
    }
}
