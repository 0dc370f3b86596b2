import Foundation
import RQLCore
import RQLDatasets
import RQLTestSupport
import Testing

@testable import RQLStorage

/// The stubs open makes for a file's blocks: a list built at once, and parts read one by one
/// even past the first 64 (whose read bits live in the stub itself).
@Suite("Store file: block stubs")
struct StubBlockTests {
    @Test("a block list built at once equals one built block by block, and changes like it")
    func listBuiltAtOnce() {
        for blockCount in [0, 1, 63, 64, 65, 200] {
            let counts = (0..<blockCount).map { 1 + $0 % 5 }
            var blocks: [Block] = []
            var appended = BlockList()
            var nextKey: Int64 = 0
            for count in counts {
                let block = BlockListTests.block(nextKey, count)
                blocks.append(block)
                appended.append(block)
                nextKey += Int64(count) + 1
            }
            var list = BlockList(blocks)
            #expect(list.chunks.count == appended.chunks.count)
            #expect(list.chunkStarts == appended.chunkStarts && list.chunkFirstBlock == appended.chunkFirstBlock)
            #expect(list.map(\.count) == counts)
            for (b, block) in blocks.enumerated() {
                #expect(list[b] === block)
                #expect(list.start(of: b) == appended.start(of: b))
                #expect(list.blockIndex(forKey: block.firstKey) == b)
                #expect(list.blockIndex(forKey: block.lastKey) == b)
            }
            // Appending after the list was built at once fills its last chunk, then starts one.
            for _ in 0..<70 {
                list.append(BlockListTests.block(nextKey, 2))
                appended.append(BlockListTests.block(nextKey, 2))
                nextKey += 2
            }
            #expect(list.chunkStarts == appended.chunkStarts && list.chunkFirstBlock == appended.chunkFirstBlock)
            #expect(list.blockIndex(forKey: nextKey - 1) == list.count - 1)
        }
    }

    static let propertyCount = 70

    static let wideSchema: String = {
        let properties = (1..<propertyCount).map { "\"p\($0)\": \"int\"" }.joined(separator: ", ")
        return #"{"schema": {"Counter": {"properties": {"value": "int"}}, "#
            + #""Wide": {"primaryKey": "id", "properties": {"id": "int", "# + properties + "}}}}"
    }()

    /// A store of 100 Wide objects whose property `p<i>` of object `id` is `id * 100 + i`.
    static func makeWideFile(_ path: String) throws {
        let store = try BlockStore.create(path: path, schema: try DatasetLoader.loadSchema(json: wideSchema))
        try store.write { t in
            for id in 0..<100 {
                var values: [String: Value] = ["id": .int(Int64(id))]
                for i in 1..<propertyCount { values["p\(i)"] = .int(Int64(id * 100 + i)) }
                _ = try t.insert("Wide", values)
            }
        }
        // Written as a checkpoint, not left in the log: the block is a stub when opened. A later
        // checkpoint that does not rewrite it leaves it outside what the newest commit wrote,
        // which open may checksum whole (the damage below is to be found on first read).
        _ = try store.checkpoint()
        try store.write { t in _ = try t.insert("Counter", ["value": .int(1)]) }
        _ = try store.checkpoint()
    }

    @Test("a stub of more than 64 parts reads each part alone, and a damaged one past the 64th as empty rows")
    func partsPastTheFirstWord() throws {
        let directory = try TemporaryDirectory("stubs")
        let path = directory.path("wide.rql")
        try Self.makeWideFile(path)
        let store = try BlockStore.open(path: path, readOnly: true)
        let wide = try #require(store.snapshot.table(named: "Wide"))
        let names = wide.objectSchema.properties.map(\.name)
        let late = try #require(names.firstIndex(of: "p68"))
        let early = try #require(names.firstIndex(of: "p3"))
        #expect(late + 1 >= 64)
        let block = try #require(store.snapshot.tables.first { $0.objectSchema.name == "Wide" }?.blocks[0])
        #expect(block.partsRead == [Bool](repeating: false, count: Self.propertyCount + 1))
        let position = try #require(wide.position(ofPrimaryKey: .int(7)))
        #expect(wide.value(at: position, property: late) == .int(768))
        #expect(wide.value(at: position, property: early) == .int(703))
        let read = block.partsRead
        #expect(read.indices.filter { read[$0] && $0 != 0 } == [early + 1, late + 1].sorted())
        #expect(wide.value(at: 99, property: late) == .int(9968))
        #expect(store.snapshot.fileDamage == nil)

        // Part `late + 1`'s bytes changed: its checksum fails when it is first read.
        let place = try #require(block.place)
        let parts = Self.propertyCount + 1
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ offset: Int) -> Int {
            (0..<8).reduce(0) { $0 | Int(bytes[Int(place.offset) + offset + $1]) << (8 * $1) }
        }
        #expect(word(0) == parts)
        let partStart = word(8 + 16 * (late + 1 - 1))
        let dataStart = Int(place.offset) + BlockCoding.directorySize(parts: parts)
        try FileBytes.overwrite(path, at: UInt64(dataStart + partStart), with: [UInt8](repeating: 0xFF, count: 8))
        let damaged = try BlockStore.open(path: path, readOnly: true)
        let damagedWide = try #require(damaged.snapshot.table(named: "Wide"))
        try #require(damagedWide.rowCount == 100)
        #expect(damagedWide.value(at: position, property: early) == .int(703))
        #expect(damaged.snapshot.fileDamage == nil)
        #expect(damagedWide.value(at: position, property: late) == .int(0))
        let damage = try #require(damaged.snapshot.fileDamage)
        guard case .blockOffsets(let className, let number, let reason) = damage.problem else {
            Issue.record("damage reported as \(damage)")
            return
        }
        #expect(className == "Wide" && number == 0 && reason.contains("p68"))
    }
}
