import Foundation
import RQLCore
import RQLEngine
import RQLTestSupport
import Testing

@testable import RQLStorage

/// Every block and index node read from a file is checked against the checksum its reference
/// carries, on first use: one flipped bit anywhere a version reaches is a typed error, never a
/// changed answer. A block's checksum covers its part directory, which holds a checksum for its
/// row keys and for each column, each checked when that part is first read. A commit over `FileHeader.presyncThreshold` bytes checksums its root at open.
@Suite("Store file: blocks and nodes checked on first read")
struct BlockChecksumTests {
    static let rows = 30_000

    /// A store of `rows` Items written by one large commit (over the presync threshold), then a
    /// small one; `large` makes the large commit the last.
    static func makeFile(_ path: String, large last: Bool = false) throws {
        let store = try StoreCrashTests.createFile(path)
        try StoreCrashTests.insertItems(0..<rows, into: store) { "item \($0) of the large commit" }
        if !last { try store.write { t in _ = try t.insert("Counter", ["value": .int(1)]) } }
    }

    /// The offset of the text of the row at `position` (whose text is `text`) in its block.
    static func textOffset(_ path: String, position: Int, text: String) throws -> UInt64 {
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        let table = snapshot.tables[0]
        let (b, _) = try #require(table.locate(key: Int64(position)))
        let place = try #require(table.blocks[b].place)
        let bytes = Array(
            try Data(contentsOf: URL(fileURLWithPath: path))[place.offset..<(place.offset + place.length)]
        )
        let needle = Array(text.utf8)
        let at = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
        )
        return place.offset + UInt64(at) + 2
    }

    @Test("a flipped bit in a string is damage on first read: checked queries, verify and commits throw")
    func flippedString() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("string.rql")
        try Self.makeFile(path)
        try FileBytes.flip(path, at: try Self.textOffset(path, position: 12_345, text: "item 12345 of"))
        let store = try BlockStore.open(path: path)
        #expect(store.fallback == nil)
        let snapshot = store.snapshot
        let engine = QueryEngine()
        let query = try engine.compile("text BEGINSWITH 'item 12345 '", className: "Item", store: snapshot)
        #expect(throws: StoreFileError.self) { try engine.runChecked(query, on: snapshot) }
        guard case .blockOffsets("Item", _, "checksum mismatch in column 'text'")? = snapshot.fileDamage?.problem else {
            Issue.record("damage: \(String(describing: snapshot.fileDamage))")
            return
        }
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
        #expect(throws: WriteError.self) { try store.write { t in _ = try t.insert("Counter", ["value": .int(2)]) } }
    }

    @Test("a flipped bit in an index leaf is damage when a lookup first visits it")
    func flippedIndexNode() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("node.rql")
        try Self.makeFile(path)
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        guard case .int(let tree)? = snapshot.tables[0].indexes[0] else {
            Issue.record("Item.id has no integer index")
            return
        }
        #expect(!tree.root.isLeaf)
        let leaf = try #require(tree.root.children.dropFirst(tree.root.children.count / 2).first?.place)
        try FileBytes.flip(path, at: leaf.offset + leaf.length / 2)
        let store = try BlockStore.open(path: path, readOnly: true)
        let items = try #require(store.snapshot.table(named: "Item"))
        #expect(store.snapshot.fileDamage == nil)
        for id in 0..<Self.rows { _ = items.position(ofPrimaryKey: .int(Int64(id))) }
        let damage = try #require(store.snapshot.fileDamage)
        guard case .malformed(let what, "checksum mismatch") = damage.problem else {
            Issue.record("damage: \(damage)")
            return
        }
        #expect(what.contains("Item.id"))
    }

    @Test("a large last commit checksums its root at open: a flipped bit there is a reported fallback")
    func largeCommitRoot() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("large.rql")
        try Self.makeFile(path, large: true)
        let store = try BlockStore.open(path: path, readOnly: true)
        let slot = try #require(store.file?.newestSlot)
        #expect(slot.pagesSynced && slot.version == 1)
        try FileBytes.flip(path, at: slot.rootOffset + slot.rootLength / 3)
        let reopened = try BlockStore.open(path: path, readOnly: true)
        #expect(reopened.snapshot.version == 0)
        guard case .newestVersionUnreadable(1, 0, .dataChecksum(1))? = reopened.fallback?.problem else {
            Issue.record("fallback: \(String(describing: reopened.fallback))")
            return
        }
    }

    @Test("a large last commit's blocks are checked on first read")
    func largeCommitBlock() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("large-block.rql")
        try Self.makeFile(path, large: true)
        try FileBytes.flip(path, at: try Self.textOffset(path, position: 20_000, text: "item 20000 of"))
        let store = try BlockStore.open(path: path, readOnly: true)
        #expect(store.fallback == nil && store.snapshot.version == 1)
        let items = try #require(store.snapshot.table(named: "Item"))
        #expect(items.value(at: 20_000, property: 1) != .string("item 20000 of the large commit"))
        #expect(store.snapshot.fileDamage != nil)
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
    }

    @Test("a flipped bit in one column is damage when that column is read, not when another is")
    func flippedColumnOnly() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("column.rql")
        try Self.makeFile(path)
        try FileBytes.flip(path, at: try Self.textOffset(path, position: 12_345, text: "item 12345 of"))
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        let engine = QueryEngine()
        // The id column and the row keys of the damaged block are sound parts: read and checked.
        let ids = try engine.compile("id >= 0 && id < 20000", className: "Item", store: snapshot)
        #expect(try engine.runChecked(ids, on: snapshot).count == 20_000)
        let items = try #require(snapshot.table(named: "Item"))
        #expect(items.value(at: 12_345, property: 0) == .int(12_345))
        #expect(items.value(at: 12_345, property: 2) == .list([.int(12_345)]))
        #expect(snapshot.fileDamage == nil)
        // Reading the text column of that block meets the damage before any of its values is used.
        let texts = try engine.compile("text BEGINSWITH 'item 1'", className: "Item", store: snapshot)
        #expect(throws: StoreFileError.self) { try engine.runChecked(texts, on: snapshot) }
        let (b, _) = try #require(snapshot.tables[0].locate(key: 12_345))
        guard case .blockOffsets("Item", b, "checksum mismatch in column 'text'")? = snapshot.fileDamage?.problem
        else {
            Issue.record("damage: \(String(describing: snapshot.fileDamage))")
            return
        }
        #expect(items.value(at: 12_345, property: 1) == .string(""))
        #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
    }

    @Test("a flipped bit in a block's row keys or part directory is damage on first read of the block")
    func flippedKeysAndDirectory() throws {
        // 800 bytes into the row keys (the part after the directory), or inside the directory.
        let keysOffset = UInt64(BlockCoding.directorySize(parts: 4) + 800)
        for (label, offsetInBlock) in [("keys", keysOffset), ("directory", 20)] {
            let directory = try TemporaryDirectory("checksum")
            let path = directory.path("\(label).rql")
            try Self.makeFile(path)
            let place = try #require(try BlockStore.open(path: path, readOnly: true).snapshot.tables[0].blocks[2].place)
            try FileBytes.flip(path, at: place.offset + offsetInBlock)
            let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
            let items = try #require(snapshot.table(named: "Item"))
            #expect(snapshot.fileDamage == nil)
            _ = items.value(at: 0, property: 1)
            #expect(snapshot.fileDamage == nil, "block 0 is sound (\(label))")
            let firstOfBlock2 = snapshot.tables[0].blocks.start(of: 2)
            _ = items.value(at: firstOfBlock2, property: 0)
            _ = items.rowKey(at: firstOfBlock2 + 1)
            let expected =
                label == "keys" ? "checksum mismatch in the row keys" : "checksum mismatch in the part directory"
            guard case .blockOffsets("Item", 2, expected)? = snapshot.fileDamage?.problem else {
                Issue.record("\(label): damage \(String(describing: snapshot.fileDamage))")
                continue
            }
            #expect(throws: StoreFileError.self) { try BlockStore.verify(path: path) }
        }
    }

    @Test("a file of format version 2 (one checksum per block) is refused by version, not misread")
    func previousFormatVersion() throws {
        let directory = try TemporaryDirectory("checksum")
        let path = directory.path("v2.rql")
        try Self.makeFile(path)
        #expect(FileHeader.formatVersion == 5)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[8] = 2
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreFileError(path: path, problem: .unsupportedFormat(version: 2))) {
            try BlockStore.open(path: path, readOnly: true)
        }
        #expect(throws: StoreFileError(path: path, problem: .unsupportedFormat(version: 2))) {
            try BlockStore.verify(path: path)
        }
    }
}
