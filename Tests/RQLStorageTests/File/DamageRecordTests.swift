import Foundation
import RQLCore
import RQLEngine
import RQLTestSupport
import Testing

@testable import RQLStorage

/// A block found damaged on first use reads as empty rows (nothing traps), and the snapshot
/// keeps the first such error so every reader that can throw throws it: a damaged file gives a
/// typed error naming the file and the block, never a silent wrong answer.
@Suite("Store file: damage met on first use")
struct DamageRecordTests {
    /// A file of `LazyOpenTests.rows` Items whose first block's row keys no longer ascend.
    static func damagedFile(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("damaged.rql")
        try LazyOpenTests.makeFile(path)
        let first = try #require(try BlockStore.open(path: path, readOnly: true).snapshot.tables[0].blocks[0].place)
        try FileBytes.overwrite(path, at: first.offset + 8, with: [UInt8](repeating: 0, count: 8))
        return path
    }

    /// Whether `error` is the damage of block 0 of 'Item' in the file at `path`.
    static func namesFirstBlock(_ error: (any Error)?, path: String) -> Bool {
        guard let error = error as? StoreFileError, error.path == path,
            case .blockOffsets(let className, let block, _) = error.problem
        else { return false }
        return className == "Item" && block == 0 && error.description.contains(path)
    }

    @Test("the snapshot and its tables keep the damage once a read meets it")
    func recordsOnFirstRead() throws {
        let directory = try TemporaryDirectory("damage")
        let path = try Self.damagedFile(directory)
        let store = try BlockStore.open(path: path, readOnly: true)
        let snapshot = store.snapshot
        let items = try #require(snapshot.table(named: "Item"))
        // Open and a read of a sound block meet no damage.
        #expect(snapshot.fileDamage == nil)
        #expect(items.value(at: 5_000, property: 1) == .string("item 5000"))
        #expect(snapshot.fileDamage == nil && items.fileDamage == nil)
        // The damaged block reads as an empty row, and the damage is kept.
        #expect(items.value(at: 1, property: 1) == .string(""))
        #expect(Self.namesFirstBlock(snapshot.fileDamage, path: path))
        #expect(Self.namesFirstBlock(items.fileDamage, path: path))
        #expect(Self.namesFirstBlock(snapshot.damage, path: path))
        // A later snapshot of the same open file keeps it too.
        #expect(Self.namesFirstBlock(store.snapshot.fileDamage, path: path))
    }

    @Test("the engine's checked run throws the damage; the unchecked run returns placeholder rows")
    func engineCheckedRun() throws {
        let directory = try TemporaryDirectory("damage")
        let path = try Self.damagedFile(directory)
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        let engine = QueryEngine()
        let query = try engine.compile("text == ''", className: "Item", store: snapshot)
        do {
            let keys = try engine.runChecked(query, on: snapshot)
            Issue.record("runChecked returned \(keys.count) keys over a damaged block")
        } catch {
            #expect(Self.namesFirstBlock(error, path: path), "\(error)")
        }
        #expect(throws: StoreFileError.self) { try engine.countChecked(query, on: snapshot) }
    }

    @Test("a write over a file with a damaged block is refused and the file keeps its version")
    func commitRefused() throws {
        let directory = try TemporaryDirectory("damage")
        let path = try Self.damagedFile(directory)
        let store = try BlockStore.open(path: path)
        let before = store.snapshot.version
        let items = try #require(store.snapshot.table(named: "Item"))
        _ = items.value(at: 1, property: 1)
        do {
            _ = try store.write { t in
                try t.set("text", of: ObjectLink(className: "Item", key: RowKey(Int64(1))), to: .string("x"))
            }
            Issue.record("a commit over a damaged block succeeded")
        } catch let error as WriteError {
            guard case .file(let fileError) = error else {
                Issue.record("commit threw \(error)")
                return
            }
            #expect(Self.namesFirstBlock(fileError, path: path))
        }
        #expect(try BlockStore.open(path: path, readOnly: true).snapshot.version == before)
    }

    @Test("an undamaged file reports no damage after a full scan, checked run and write")
    func soundFileHasNone() throws {
        let directory = try TemporaryDirectory("damage")
        let path = directory.path("sound.rql")
        try LazyOpenTests.makeFile(path)
        let store = try BlockStore.open(path: path)
        let snapshot = store.snapshot
        let items = try #require(snapshot.table(named: "Item"))
        var texts = 0
        for position in 0..<items.rowCount where items.value(at: position, property: 1) != .string("") { texts += 1 }
        #expect(texts == LazyOpenTests.rows)
        #expect(snapshot.tables[0].blocks.allSatisfy { $0.isRead })
        #expect(snapshot.fileDamage == nil && snapshot.damage == nil && items.fileDamage == nil)
        let engine = QueryEngine()
        let query = try engine.compile("text BEGINSWITH 'item'", className: "Item", store: snapshot)
        #expect(try engine.runChecked(query, on: snapshot).count == LazyOpenTests.rows - 1)
        _ = try store.write { t in _ = try t.insert("Counter", ["value": .int(1)]) }
        #expect(store.snapshot.fileDamage == nil)
    }
}
