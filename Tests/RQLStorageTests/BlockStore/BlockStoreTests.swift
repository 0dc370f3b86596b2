import Foundation
import RQLCore
import Testing

@testable import RQLStorage

@Suite("Block store: layout, snapshots and reads")
struct BlockStoreTests {
    /// A Person with every property shape filled, and the dogs it links to.
    static func populated() throws -> (BlockStore, person: ObjectLink, dogs: [ObjectLink]) {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        let rex = Fixtures.link(
            "Dog",
            try t.insert("Dog", ["name": .string("Rex"), "age": .int(3), "toy": .string("ball")])
        )
        let fido = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Fido"), "age": .int(5)]))
        let ann = try t.insert(
            "Person",
            [
                "id": .int(7), "name": .string("Ann"), "age": .int(31), "score": .double(2.5),
                "bio": .string("Likes café au lait"), "tags": .list([.string("a"), .string("b")]),
                "nums": .list([.int(3), .int(1), .int(3)]), "attrs": .map(MixedMap(["k": .string("v"), "n": .null])),
                "dogs": .list([.link(rex), .link(fido), .link(rex)]), "best": .link(fido),
                "anything": .list([.int(1), .map(MixedMap(["x": .link(rex)]))]),
                "address": .map(MixedMap(["street": .string("Main"), "city": .string("Oslo")])),
                "addresses": .list([.map(MixedMap(["street": .string("A")])), .map(MixedMap(["street": .string("B")]))]
                ),
                "places": .map(MixedMap(["home": .map(MixedMap(["street": .string("H")])), "none": .null])),
                "blob": .data([1, 2, 3]), "when": .date(Timestamp(seconds: 5, nanoseconds: 6)!),
                "mixes": .list([.null, .string("s"), .decimal(Decimal128(Int64(12))), .uuid(UUID())]),
            ]
        )
        _ = try t.commit()
        return (store, Fixtures.link("Person", ann), [rex, fido])
    }

    @Test("values read back as written; sets are sorted and unique; embedded objects live in their own table")
    func readBack() throws {
        let (store, person, dogs) = try Self.populated()
        let snapshot = store.snapshot
        #expect(snapshot.version == 1)
        let people = try #require(snapshot.table(named: "Person"))
        let schema = people.objectSchema
        func value(_ name: String) -> Value { people.value(at: 0, property: schema.propertyIndex(named: name)!) }
        #expect(value("name") == .string("Ann"))
        #expect(value("nums") == .list([.int(1), .int(3)]))
        #expect(value("dogs") == .list([.link(dogs[0]), .link(dogs[1]), .link(dogs[0])]))
        #expect(value("attrs") == .map(MixedMap(["k": .string("v"), "n": .null])))
        #expect(value("anything") == .list([.int(1), .map(MixedMap(["x": .link(dogs[0])]))]))
        #expect(value("blob") == .data([1, 2, 3]))
        guard case .link(let address) = value("address") else {
            Issue.record("address is not a link")
            return
        }
        let addresses = try #require(snapshot.table(named: "Address"))
        #expect(addresses.rowCount == 4)
        let city = addresses.value(at: addresses.position(of: address.key)!, property: 1)
        #expect(city == .string("Oslo"))
        #expect(people.position(ofPrimaryKey: .int(7)) == 0)
        #expect(people.position(ofPrimaryKey: .double(7.0)) == 0)
        #expect(people.position(ofPrimaryKey: .int(8)) == nil)
        #expect(people.rowKey(at: 0) == person.key)
    }

    @Test("block views agree with value(at:) for every property shape, backlinks included")
    func viewsMatchValues() throws {
        let (store, _, _) = try Self.populated()
        let snapshot = store.snapshot
        for objectSchema in snapshot.schema.classes {
            Fixtures.checkViews(try #require(snapshot.table(named: objectSchema.name)))
        }
        let dogs = try #require(snapshot.table(named: "Dog"))
        let owners = dogs.objectSchema.propertyIndex(named: "owners")!
        #expect(
            dogs.value(at: 0, property: owners)
                == .list([.link(Fixtures.link("Person", RowKey(0))), .link(Fixtures.link("Person", RowKey(0)))])
        )
        #expect(dogs.backlinks(at: 0, fromClass: "Person", property: "dogs") == [RowKey(0), RowKey(0)])
        // Rex: twice in dogs, once in the mixed anything.
        #expect(dogs.backlinkCount(at: 0) == 3)
        // Fido: dogs and best.
        #expect(dogs.backlinkCount(at: 1) == 2)
    }

    @Test("a snapshot never changes: later commits leave it as it was")
    func snapshotIsolation() throws {
        let (store, person, dogs) = try Self.populated()
        let before = store.snapshot
        let expected = Fixtures.dump(before)
        let t = store.beginWrite()
        try t.set("name", of: person, to: .string("Anna"))
        try t.append(.string("c"), to: "tags", of: person)
        try t.delete(dogs[0])
        for i in 0..<100 { try t.insert("Dog", ["name": .string("d\(i)"), "age": .int(Int64(i))]) }
        let result = try t.commit()
        #expect(Fixtures.dump(before) == expected)
        #expect(result.snapshot.version == 2)
        #expect(Fixtures.dump(store.snapshot) != expected)
        for objectSchema in before.schema.classes {
            Fixtures.checkViews(try #require(before.table(named: objectSchema.name)))
            Fixtures.checkViews(try #require(store.snapshot.table(named: objectSchema.name)))
        }
    }

    @Test("tables split into blocks of at most 4096 rows; deletions shrink, drop and merge blocks")
    func blocksSplitAndMerge() throws {
        let store = try Fixtures.store()
        // Inserted in several commits, one object at a time, through the append path.
        for chunk in 0..<5 {
            let t = store.beginWrite()
            for i in 0..<2_000 {
                let n = chunk * 2_000 + i
                try t.insert("Dog", ["name": .string("dog\(n)"), "age": .int(Int64(n % 17))])
            }
            _ = try t.commit()
        }
        var dogs = try #require(store.snapshot.table(named: "Dog"))
        #expect(dogs.rowCount == 10_000)
        #expect(dogs.blockCount == 3)
        Fixtures.checkViews(dogs)
        // Delete most of the middle block's rows and all of the first block's.
        let t = store.beginWrite()
        for key in 0..<4096 { try t.delete(Fixtures.link("Dog", RowKey(Int64(key)))) }
        for key in 4096..<8000 where key % 10 != 0 { try t.delete(Fixtures.link("Dog", RowKey(Int64(key)))) }
        _ = try t.commit()
        dogs = try #require(store.snapshot.table(named: "Dog"))
        // Kept: 4100, 4110, …, 7990 (390 rows) and 8000 ..< 10000.
        #expect(dogs.rowCount == 390 + 2_000)
        #expect(dogs.blockCount == 2)
        #expect(dogs.position(of: RowKey(4100)) == 0)
        #expect(dogs.position(of: RowKey(4101)) == nil)
        #expect(dogs.position(of: RowKey(8000)) == 390)
        Fixtures.checkViews(dogs)
        let name = dogs.objectSchema.propertyIndex(named: "name")!
        #expect(dogs.indexLookup(property: name, equalTo: .string("dog8000")) == [390])
        #expect(dogs.indexLookup(property: name, equalTo: .string("dog4097")) == [])
    }

    @Test("the transaction's reader sees its own writes; rollback discards them")
    func readerAndRollback() throws {
        let (store, person, _) = try Self.populated()
        let before = Fixtures.dump(store.snapshot)
        let t = store.beginWrite()
        try t.set("score", of: person, to: .double(9))
        let reader = t.reader
        let people = try #require(reader.table(named: "Person"))
        #expect(people.value(at: 0, property: people.objectSchema.propertyIndex(named: "score")!) == .double(9))
        #expect(t.writeCount == 1)
        try t.set("score", of: person, to: .double(10))
        // The reader taken before the second write still shows the first.
        #expect(people.value(at: 0, property: people.objectSchema.propertyIndex(named: "score")!) == .double(9))
        t.rollback()
        #expect(!t.isActive)
        #expect(Fixtures.dump(store.snapshot) == before)
        #expect(store.snapshot.version == 1)
        #expect(throws: WriteError.transactionEnded) { try t.insert("Dog", [:]) }
        // The write lock was released: a new transaction starts at once.
        let next = try #require(store.tryBeginWrite())
        next.rollback()
    }

    @Test("withColumn gives whole-table views on multi-block tables")
    func wholeColumns() throws {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        for i in 0..<5_000 { try t.insert("Dog", ["name": .string("d\(i)"), "age": .int(Int64(i))]) }
        _ = try t.commit()
        let dogs = try #require(store.snapshot.table(named: "Dog"))
        dogs.withColumn(1) { view in
            guard case .int(let ages) = view else {
                Issue.record("age is not an int view")
                return
            }
            #expect(ages.values.count == 5_000)
            #expect(ages.values[4_321] == 4_321)
        }
        #expect(dogs.statistics(property: 1).maximum == .int(4_999))
    }
}
