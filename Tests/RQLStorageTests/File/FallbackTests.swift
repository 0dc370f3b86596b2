import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// When the newest commit of a store file is damaged or was cut short, open reads the intact
/// version before it and says so (`BlockStore.fallback`), `verify` throws naming both versions,
/// and no commit builds on the older version until the caller accepts it: the newest data is
/// never lost without a word.
@Suite("Store file: an unreadable newest version is reported, never silent")
struct FallbackTests {
    /// A file of four commits (the last one small) and what each version holds.
    struct File {
        let path: String
        let dumps: [UInt64: [String: [RowKey: [Value]]]]
        /// The byte ranges the last commit wrote: its runs, its root and its header slot.
        let lastCommit: [(offset: UInt64, length: UInt64)]
        /// Where versions 3 and 4 end.
        let ends: (previous: UInt64, newest: UInt64)
    }

    static func makeFile(_ path: String) throws -> File {
        let store = try BlockStore.create(
            path: path,
            schema: try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON)
        )
        // Each commit a checkpoint (the log off): the damage under test is in the pages and slots.
        store.logsCommits = false
        var dumps: [UInt64: [String: [RowKey: [Value]]]] = [:]
        for commit in 1...4 {
            try store.write { t in
                for id in 0..<(commit == 1 ? 300 : 1) {
                    let key = Int64(commit * 1_000 + id)
                    _ = try t.insert(
                        "Item",
                        ["id": .int(key), "text": .string("item \(key)"), "history": .list([.int(key)])]
                    )
                }
                if commit == 1 { _ = try t.insert("Counter", ["value": .int(1)]) }
            }
            dumps[store.snapshot.version] = Fixtures.dump(store.snapshot)
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let slots = FileHeader.slotOffsets.map { offset in
            bytes.withUnsafeBytes {
                HeaderSlot.decode(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + 64]), .current)
            }
        }
        let newest = try #require(slots[0]?.version == 4 ? slots[0] : nil)
        let previous = try #require(slots[1]?.version == 3 ? slots[1] : nil)
        var ranges: [(offset: UInt64, length: UInt64)] = try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(
                UnsafeRawBufferPointer(
                    rebasing: raw[Int(newest.rootOffset)..<Int(newest.rootOffset + newest.rootLength)]
                ),
                base: newest.rootOffset,
                what: "root"
            )
            _ = try reader.u64()
            return try CommitWriter.decodeWrittenRuns(
                &reader,
                fileEnd: newest.fileEnd,
                writtenLength: newest.writtenLength
            )
        }
        ranges.append((newest.rootOffset, newest.rootLength))
        ranges.append((UInt64(FileHeader.slotOffsets[0]), UInt64(FileHeader.slotSize)))
        return File(path: path, dumps: dumps, lastCommit: ranges, ends: (previous.fileEnd, newest.fileEnd))
    }

    /// Whether `error` says that version `newest` (nil: unknown) could not be read and 3 is intact.
    static func isFallback(_ error: StoreFileError?, newest: UInt64?, path: String) -> Bool {
        guard let error, error.path == path,
            case .newestVersionUnreadable(let unreadable, let intact, _) = error.problem
        else { return false }
        return unreadable == newest && intact == 3 && error.description.contains("version 3 is intact")
    }

    /// Opens the damaged file read-only and checks that it reads version 3 exactly, says so,
    /// and that `verify` throws the same; `newest` is what the fallback must name.
    static func expectReported(_ file: File, newest: UInt64?, _ comment: Comment) throws {
        let store = try BlockStore.open(path: file.path, readOnly: true)
        #expect(store.snapshot.version == 3, comment)
        #expect(
            isFallback(store.fallback, newest: newest, path: file.path),
            "\(comment): \(String(describing: store.fallback))"
        )
        #expect(Fixtures.dump(store.snapshot) == file.dumps[3], comment)
        #expect(store.snapshot.fileDamage == nil, comment)
        do {
            let info = try BlockStore.verify(path: file.path)
            Issue.record("verify passed at version \(info.version): \(comment)")
        } catch {
            #expect(isFallback(error, newest: newest, path: file.path), "\(comment): \(error)")
        }
        let accepted = try BlockStore.verify(path: file.path, acceptingOlderVersion: true)
        #expect(accepted.version == 3 && isFallback(accepted.fallback, newest: newest, path: file.path), comment)
    }

    @Test("a file cut at each byte of its last commit reads version 3 and reports version 4 unreadable")
    func truncatedAtEachByte() throws {
        let directory = try TemporaryDirectory("fallback")
        let file = try Self.makeFile(directory.path("cut.rql"))
        #expect(file.ends.newest > file.ends.previous, "the last commit appended nothing")
        let descriptor = open(file.path, O_RDWR)
        defer { close(descriptor) }
        // Shortest last, in place: each cut is one byte shorter than the one before.
        for length in stride(from: file.ends.newest - 1, through: file.ends.previous, by: -1) {
            #expect(ftruncate(descriptor, off_t(length)) == 0)
            let store = try BlockStore.open(path: file.path, readOnly: true)
            #expect(store.snapshot.version == 3, "cut at \(length)")
            #expect(Self.isFallback(store.fallback, newest: 4, path: file.path), "cut at \(length)")
            if length % 512 == 0 || length == file.ends.previous {
                try Self.expectReported(file, newest: 4, "cut at \(length)")
            }
        }
        // Cut into version 3 as well: no version reads, a typed error.
        #expect(ftruncate(descriptor, off_t(file.ends.previous - 1)) == 0)
        #expect(throws: StoreFileError.self) { try BlockStore.open(path: file.path, readOnly: true) }
    }

    @Test("a bit flipped in any page the last commit wrote reads version 3 and is reported")
    func flippedInEachPage() throws {
        let directory = try TemporaryDirectory("fallback")
        let file = try Self.makeFile(directory.path("flip.rql"))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file.path))
        defer { try? handle.close() }
        var flips = 0
        for range in file.lastCommit {
            // The first, a middle and the last byte of each page the range touches.
            var page = range.offset / 4096 * 4096
            while page < range.offset + range.length {
                let start = Swift.max(page, range.offset)
                let end = Swift.min(page + 4096, range.offset + range.length)
                for offset in Set([start, (start + end) / 2, end - 1]) {
                    try handle.seek(toOffset: offset)
                    let original = try #require(try handle.read(upToCount: 1)?.first)
                    let flipped = original ^ UInt8(1 << (offset % 8))
                    try handle.seek(toOffset: offset)
                    handle.write(Data([flipped]))
                    let inSlot = offset < 4096
                    try Self.expectReported(file, newest: inSlot ? nil : 4, "bit flipped at \(offset)")
                    try handle.seek(toOffset: offset)
                    handle.write(Data([original]))
                    flips += 1
                }
                page += 4096
            }
        }
        #expect(flips >= 6)
        // Restored: the newest version reads again.
        #expect(try BlockStore.open(path: file.path, readOnly: true).fallback == nil)
        #expect(try BlockStore.verify(path: file.path).version == 4)
    }

    @Test("a commit on top of the older version throws until the caller accepts it, then replaces the newest")
    func commitNeedsConsent() throws {
        let directory = try TemporaryDirectory("fallback")
        let file = try Self.makeFile(directory.path("consent.rql"))
        #expect(truncate(file.path, off_t(file.ends.newest - 1)) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
        let store = try BlockStore.open(path: file.path)
        #expect(Self.isFallback(store.fallback, newest: 4, path: file.path))
        let row: [String: Value] = ["id": .int(-1), "text": .string("after"), "history": .list([])]
        do {
            _ = try store.write { t in try t.insert("Item", row) }
            Issue.record("a commit on top of the older version succeeded without consent")
        } catch let error as WriteError {
            guard case .file(let fileError) = error else {
                Issue.record("commit threw \(error)")
                return
            }
            #expect(Self.isFallback(fileError, newest: 4, path: file.path), "\(fileError)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before, "the refused commit wrote")
        store.acceptOlderVersion()
        let result = try store.write { t in try t.insert("Item", row) }
        #expect(result.commit.snapshot.version == 4)
        #expect(store.fallback == nil)
        let reopened = try BlockStore.open(path: file.path, readOnly: true)
        #expect(reopened.fallback == nil && reopened.snapshot.version == 4)
        #expect(reopened.snapshot.table(named: "Item")?.position(ofPrimaryKey: .int(-1)) != nil)
        #expect(reopened.snapshot.table(named: "Item")?.position(ofPrimaryKey: .int(4_000)) == nil)
        #expect(try BlockStore.verify(path: file.path).version == 4)
    }

    @Test("a zeroed header slot is reported as a fallback, since it may have named a newer version")
    func zeroedSlot() throws {
        let directory = try TemporaryDirectory("fallback")
        let file = try Self.makeFile(directory.path("zero.rql"))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file.path))
        try handle.seek(toOffset: UInt64(FileHeader.slotOffsets[0]))
        handle.write(Data(repeating: 0, count: FileHeader.slotSize))
        try handle.close()
        try Self.expectReported(file, newest: nil, "slot 0 zeroed")
    }

    @Test("a reader opening while another process commits never reports a fallback", .timeLimit(.minutes(3)))
    func concurrentCommitsAreNotDamage() throws {
        let directory = try TemporaryDirectory("fallback")
        let path = directory.path("busy.rql")
        _ = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: StoreCrashTests.schemaJSON))
        let process = Process()
        process.executableURL = try StoreCrashTests.helper
        process.arguments = [path, "400"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var opens = 0
        var last: UInt64 = 0
        while process.isRunning || opens == 0 {
            let store = try BlockStore.open(path: path, readOnly: true)
            #expect(store.fallback == nil, "open \(opens): \(String(describing: store.fallback))")
            #expect(store.snapshot.version >= last)
            last = store.snapshot.version
            opens += 1
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try BlockStore.verify(path: path).version == 400)
    }
}
