import Foundation
import RQLCore
import RQLDatasets
import Testing

@_spi(Streaming) @testable import RQLStorage

/// `importObjects` from another store file's snapshot copies it block by block and writes each
/// full block of the destination before the commit, as a streaming load does: the transaction
/// holds a block of the import, not the whole source.
@Suite("Store file: importing another store file")
struct StoreImportSpillTests {
    /// A store file at `path` with Persons `first..<first + count` (the log off).
    static func store(_ path: String, from first: Int, count: Int) throws -> BlockStore {
        let store = try BlockStore.create(path: path, schema: try BlockSpillTests.schema())
        store.logsCommits = false
        _ = try store.write { t in try BlockSpillTests.append(t, from: first, count: count).finish() }
        return store
    }

    @Test("an import into a new store writes its full blocks before the commit and keeps the keys")
    func spillsIntoNewStore() throws {
        let directory = try TemporaryDirectory("import-store")
        let source = try Self.store(directory.path("source.rql"), from: 0, count: 30_000)
        let target = try BlockStore.create(path: directory.path("target.rql"), schema: try BlockSpillTests.schema())
        let t = target.beginWrite()
        try t.importObjects(from: source.snapshot)
        let spill = try #require(t.spill, "no block was written before the commit")
        #expect(spill.runs.count == 30_000 / TableBlock.capacity)
        #expect(t.tables[0].blocks.filter { $0.place == nil }.count <= 1)
        _ = try t.commit()
        #expect(Fixtures.dump(target.snapshot) == Fixtures.dump(source.snapshot))
        BlockSpillTests.checkPersons(target.snapshot, count: 30_000)
        let reopened = try BlockStore.open(path: directory.path("target.rql"), readOnly: true)
        #expect(Fixtures.dump(reopened.snapshot) == Fixtures.dump(source.snapshot))
        #expect(try BlockStore.verify(path: directory.path("target.rql")).version == 1)
    }

    @Test("an import into a store with objects fills its last block, then writes each block it fills")
    func spillsIntoStoreWithObjects() throws {
        let directory = try TemporaryDirectory("import-store")
        let source = try Self.store(directory.path("source.rql"), from: 1_000, count: 20_000)
        let target = try Self.store(directory.path("target.rql"), from: 0, count: 1_000)
        let t = target.beginWrite()
        try t.importObjects(from: source.snapshot)
        #expect(t.tables[0].blocks.filter { $0.place == nil }.count <= 1)
        #expect((t.spill?.runs.count ?? 0) >= 20_000 / TableBlock.capacity)
        _ = try t.commit()
        BlockSpillTests.checkPersons(target.snapshot, count: 21_000)
        #expect(try BlockStore.verify(path: directory.path("target.rql")).version == 2)
    }

    @Test("an import refused for a repeated primary key changes nothing and writes nothing")
    func duplicateKeyWritesNothing() throws {
        let directory = try TemporaryDirectory("import-store")
        let source = try Self.store(directory.path("source.rql"), from: 500, count: 10_000)
        let target = try Self.store(directory.path("target.rql"), from: 0, count: 1_000)
        let before = Fixtures.dump(target.snapshot)
        let t = target.beginWrite()
        #expect(throws: WriteError.self) { try t.importObjects(from: source.snapshot) }
        #expect(t.spill == nil)
        t.rollback()
        #expect(Fixtures.dump(target.snapshot) == before)
    }
}
