import Foundation
import RQLCore
import RQLTestSupport
import Synchronization
import Testing

@testable import RQLStorage

/// A temporary directory per test, removed afterwards (shared with the other test targets),
/// by the name this target's files use without importing it.
typealias TemporaryDirectory = RQLTestSupport.TemporaryDirectory

@Suite("Store file: round trips, versions, errors")
struct StoreFileTests {
    @Test("every property type survives commit and reopen, through views and indexes")
    func randomTransactionsReopen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("diff.rql")
        var run = try DifferentialTests.Run(seed: 11) { try BlockStore.create(path: path, schema: $0) }
        for round in 0..<12 {
            try run.transaction()
            let written = run.store.snapshot
            let reopened = try BlockStore.open(path: path, readOnly: true).snapshot
            #expect(reopened.version == written.version, "round \(round)")
            #expect(reopened.schema == written.schema, "round \(round)")
            #expect(Fixtures.dump(reopened) == Fixtures.dump(written), "round \(round)")
            for objectSchema in reopened.schema.classes {
                Fixtures.checkViews(reopened.table(named: objectSchema.name)!)
            }
            let info = try BlockStore.verify(path: path)
            #expect(info.version == written.version)
        }
    }

    @Test("indexes are read back, not rebuilt, and answer like the written store's")
    func indexesReadBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("index.rql")
        let store = try BlockStore.create(path: path, schema: try Fixtures.schema())
        let t = store.beginWrite()
        for i in 0..<5_000 {
            try t.insert(
                "Person",
                [
                    "id": .int(Int64(i)), "name": .string("n\(i % 37)"),
                    "age": i % 5 == 0 ? .null : .int(Int64(i % 90)),
                    "bio": .string(i % 2 == 0 ? "apple pie" : "cherry tart"),
                ]
            )
        }
        _ = try t.commit()
        let reopened = try BlockStore.open(path: path)
        let people = try #require(reopened.snapshot.table(named: "Person"))
        let written = try #require(store.snapshot.table(named: "Person"))
        #expect(people.blockCount == 2)
        let schema = people.objectSchema
        let name = schema.propertyIndex(named: "name")!
        let age = schema.propertyIndex(named: "age")!
        let bio = schema.propertyIndex(named: "bio")!
        #expect(people.position(ofPrimaryKey: .int(4_321)) == written.position(ofPrimaryKey: .int(4_321)))
        #expect(people.position(ofPrimaryKey: .int(4_321)) == 4_321)
        #expect(
            people.indexLookup(property: name, equalTo: .string("n3"))
                == written.indexLookup(property: name, equalTo: .string("n3"))
        )
        #expect(people.indexLookup(property: age, equalTo: .null)?.count == 1_000)
        #expect(
            people.indexRange(
                property: age,
                lower: .int(10),
                lowerInclusive: true,
                upper: .int(20),
                upperInclusive: false
            )
                == written.indexRange(
                    property: age,
                    lower: .int(10),
                    lowerInclusive: true,
                    upper: .int(20),
                    upperInclusive: false
                )
        )
        #expect(people.fullTextLookup(property: bio, token: "apple", prefix: false)?.count == 2_500)
        // A write on the reopened store: the mapped blocks are copied, never written.
        try reopened.write { t in
            try t.set("name", of: ObjectLink(className: "Person", key: RowKey(7)), to: .string("changed"))
            try t.delete(ObjectLink(className: "Person", key: RowKey(8)))
        }
        let again = try BlockStore.open(path: path).snapshot.table(named: "Person")!
        #expect(again.rowCount == 4_999)
        #expect(again.indexLookup(property: name, equalTo: .string("changed")) == [7])
        #expect(again.position(ofPrimaryKey: .int(8)) == nil)
        #expect(again.position(ofPrimaryKey: .int(9)) == 8)
        #expect(try BlockStore.verify(path: path).version == 2)
    }

    @Test("index nodes read on first visit load once, safely, under concurrent readers")
    func concurrentLazyReads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lazy.rql")
        let store = try BlockStore.create(path: path, schema: try Fixtures.schema())
        let t = store.beginWrite()
        for i in 0..<20_000 { _ = try t.insert("Person", ["id": .int(Int64(i)), "name": .string("n\(i % 101)")]) }
        _ = try t.commit()
        let snapshot = try BlockStore.open(path: path, readOnly: true).snapshot
        let people = try #require(snapshot.table(named: "Person"))
        let name = people.objectSchema.propertyIndex(named: "name")!
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var wrong = 0
            for i in stride(from: worker, to: 20_000, by: 7) where people.position(ofPrimaryKey: .int(Int64(i))) != i {
                wrong += 1
            }
            if people.indexLookup(property: name, equalTo: .string("n\(worker)"))?.count != 20_000 / 101
                + (worker < 20_000 % 101 ? 1 : 0)
            {
                wrong += 1
            }
            failures.withLock { $0 += wrong }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("old snapshots keep reading their version after later commits and a reopen")
    func oldSnapshots() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.rql")
        let store = try BlockStore.create(path: path, schema: try Fixtures.schema())
        try store.write { try $0.insert("Dog", ["name": .string("Rex"), "age": .int(3)]) }
        let opened = try BlockStore.open(path: path)
        let v1 = opened.snapshot
        let before = Fixtures.dump(v1)
        try opened.write { t in
            try t.set("age", of: ObjectLink(className: "Dog", key: RowKey(0)), to: .int(4))
            _ = try t.insert("Dog", ["name": .string("Fido"), "age": .int(1)])
        }
        #expect(Fixtures.dump(v1) == before)
        #expect(opened.snapshot.version == 2)
        #expect(opened.snapshot.table(named: "Dog")?.rowCount == 2)
        // The first store's process-local view is behind: refresh reads version 2.
        #expect(store.snapshot.version == 1)
        #expect(try store.refresh())
        #expect(store.snapshot.table(named: "Dog")?.value(at: 0, property: 1) == .int(4))
        // A write through the first store starts from version 2.
        try store.write { _ = try $0.insert("Dog", ["name": .string("Spot"), "age": .int(6)]) }
        #expect(try BlockStore.open(path: path).snapshot.table(named: "Dog")?.rowCount == 3)
    }

    @Test("a write based on a version another process has moved past is refused")
    func conflictingWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("conflict.rql")
        let a = try BlockStore.create(path: path, schema: try Fixtures.schema())
        let b = try BlockStore.open(path: path)
        let t = a.beginWrite()
        _ = try t.insert("Dog", ["name": .string("Rex"), "age": .int(3)])
        _ = try t.commit()
        // b began after a committed: it catches up first.
        let u = b.beginWrite()
        #expect(u.reader.version == 2)
        _ = try u.insert("Dog", ["name": .string("Fido"), "age": .int(1)])
        _ = try u.commit()
        #expect(try BlockStore.open(path: path).snapshot.table(named: "Dog")?.rowCount == 2)
    }

    @Test("errors name the file and the problem")
    func typedErrors() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bad.rql")
        #expect(throws: StoreFileError.self) { try BlockStore.open(path: path) }
        FileManager.default.createFile(atPath: path, contents: Data("{\"schema\": {}}".utf8))
        do {
            _ = try BlockStore.open(path: path)
            Issue.record("opened JSON as a store")
        } catch {
            #expect(error.problem == .badMagic)
            #expect(error.description == "store file '\(path)': bad magic (not an RQL store file)")
        }
        let store = directory.path("store.rql")
        _ = try BlockStore.create(path: store, schema: try Fixtures.schema())
        #expect(throws: StoreFileError(path: store, problem: .exists)) {
            try BlockStore.create(path: store, schema: try Fixtures.schema())
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        bytes[8] = 9
        try bytes.write(to: URL(fileURLWithPath: store))
        #expect(throws: StoreFileError(path: store, problem: .unsupportedFormat(version: 9))) {
            try BlockStore.open(path: store)
        }
        try bytes.prefix(100).write(to: URL(fileURLWithPath: store))
        #expect(throws: StoreFileError.self) { try BlockStore.open(path: store) }
        #expect(BlockStore.isStoreFile(prefix: Array("RQLSTOR\0".utf8)))
        #expect(!BlockStore.isStoreFile(prefix: Array("{\"schema".utf8)))
    }

    @Test("a read-only store refuses writes with a typed error")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ro.rql")
        _ = try BlockStore.create(path: path, schema: try Fixtures.schema())
        let store = try BlockStore.open(path: path, readOnly: true)
        let t = store.beginWrite()
        _ = try t.insert("Dog", ["name": .string("Rex"), "age": .int(3)])
        #expect(throws: WriteError.file(StoreFileError(path: path, problem: .readOnly))) { try t.commit() }
        #expect(try BlockStore.open(path: path).snapshot.version == 0)
    }

    @Test("compact writes only the newest version")
    func compact() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big.rql")
        let store = try BlockStore.create(path: path, schema: try Fixtures.schema())
        // Each commit a checkpoint (the log off), leaving older versions' pages to compact away.
        store.logsCommits = false
        for i in 0..<50 {
            try store.write { _ = try $0.insert("Dog", ["name": .string("d\(i)"), "age": .int(Int64(i))]) }
        }
        let compacted = directory.path("small.rql")
        try store.compact(to: compacted)
        let big = try BlockStore.verify(path: path)
        let small = try BlockStore.verify(path: compacted)
        #expect(small.fileSize < big.fileSize)
        #expect(big.freeBytes > 0)
        #expect(small.classes.map(\.objects) == big.classes.map(\.objects))
        #expect(Fixtures.dump(try BlockStore.open(path: compacted).snapshot) == Fixtures.dump(store.snapshot))
    }
}
