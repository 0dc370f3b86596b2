import Foundation
import RQLCore
import Testing

@testable import RQLStorage

/// Filling one set or map with many elements in one write (issue 16): inserting keys in a
/// scattered order rather than ascending spliced each into the block's sorted elements, moving
/// every element after it, so n inserts moved about n²/4 elements (ten times an in-order insert
/// from about 60,000 keys). New elements are now staged and merged into the block once, when
/// another operation needs the collection whole.
@Suite("Filling sets and maps in one write")
struct CollectionFillTests {
    static func schema() throws -> Schema {
        try Schema([
            ObjectSchema(
                name: "Owner",
                properties: [
                    Property(name: "counts", type: .int, collection: .map),
                    Property(name: "numbers", type: .int, collection: .set),
                    Property(name: "names", type: .string, collection: .set),
                    Property(name: "pets", type: .object("Pet"), isOptional: true, collection: .map),
                    Property(name: "friends", type: .object("Pet"), collection: .set),
                ]
            ),
            ObjectSchema(name: "Pet", properties: [Property(name: "name", type: .string)]),
        ])
    }

    /// Key `i` of `count` in a scattered order: a permutation that jumps across the key range.
    static func scattered(_ i: Int, of count: Int) -> Int { (i &* 7_919) % count }

    static func key(_ i: Int) -> String {
        let digits = String(i)
        return "k" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// The elements moved to fill a new owner's `property` with `count` elements in a scattered
    /// order in one write, and the committed collection.
    static func fill(_ property: String, _ count: Int) throws -> (moved: Int, stored: Value) {
        let store = BlockStore(schema: try schema())
        let t = store.beginWrite()
        let owner = ObjectLink(className: "Owner", key: try t.insert("Owner"))
        for i in 0..<count {
            let n = scattered(i, of: count)
            if property == "counts" {
                try t.setValue(.int(Int64(n)), forKey: key(n), inMap: property, of: owner)
            } else {
                #expect(try t.insert(.int(Int64(n)), intoSet: property, of: owner))
            }
        }
        let result = try t.commit()
        let moved = t.elementsMoved
        let table = try #require(result.snapshot.table(named: "Owner"))
        return (moved, table.value(at: 0, property: property == "counts" ? 0 : 1))
    }

    @Test(
        "scattered inserts of 100,000 and 200,000 map keys and set elements move elements linearly",
        arguments: ["counts", "numbers"]
    )
    func linearFill(property: String) throws {
        let small = try Self.fill(property, 100_000)
        let large = try Self.fill(property, 200_000)
        // Spliced one by one, each insert moved the elements after it: about n²/4 in all, so
        // doubling n would quadruple the count.
        #expect(large.moved <= 2 * 200_000, "\(large.moved) elements moved for 200,000")
        #expect(Double(large.moved) / Double(max(small.moved, 1)) < 2.5, "\(small.moved) → \(large.moved)")
        switch large.stored {
        case .map(let map):
            #expect(map.count == 200_000)
            #expect(map.keys == (0..<200_000).map(Self.key))
            #expect(map.values == (0..<200_000).map { .int(Int64($0)) })
        case .list(let elements):
            #expect(elements == (0..<200_000).map { .int(Int64($0)) })
        default:
            Issue.record("stored \(large.stored.kind)")
        }
    }

    @Test("staged elements are seen by every later read and operation of the write")
    func stagedSemantics() throws {
        let store = BlockStore(schema: try Self.schema())
        let t = store.beginWrite()
        let owner = ObjectLink(className: "Owner", key: try t.insert("Owner"))
        let rex = ObjectLink(className: "Pet", key: try t.insert("Pet", ["name": .string("Rex")]))
        let fido = ObjectLink(className: "Pet", key: try t.insert("Pet", ["name": .string("Fido")]))

        // In the block before staging begins: "b" and 5.
        try t.setValue(.int(2), forKey: "b", inMap: "counts", of: owner)
        #expect(try t.insert(.int(5), intoSet: "numbers", of: owner))
        _ = t.reader
        try t.setValue(.int(3), forKey: "c", inMap: "counts", of: owner)
        try t.setValue(.int(1), forKey: "a", inMap: "counts", of: owner)
        try t.setValue(.int(30), forKey: "c", inMap: "counts", of: owner)  // a staged key again
        try t.setValue(.int(20), forKey: "b", inMap: "counts", of: owner)  // a key in the block
        // Reads of the staged map see the staged keys without merging them; other collections
        // have nothing staged (nil: read the reader).
        let ownerKey = owner.key.rawValue
        #expect(t.stagedElementCount(table: 0, key: ownerKey, property: 0) == 3)
        #expect(t.stagedMapValue(forKey: "a", table: 0, key: ownerKey, property: 0) == .some(.int(1)))
        #expect(t.stagedMapValue(forKey: "b", table: 0, key: ownerKey, property: 0) == .some(.int(20)))
        #expect(t.stagedMapValue(forKey: "c", table: 0, key: ownerKey, property: 0) == .some(.int(30)))
        #expect(t.stagedMapValue(forKey: "z", table: 0, key: ownerKey, property: 0) == .some(nil))
        #expect(t.stagedElementCount(table: 0, key: ownerKey, property: 1) == nil)
        #expect(t.elementCount(0, ownerKey, 0) == 1, "the staged keys were merged by a read")
        func counts() throws -> Value { try #require(t.reader.table(named: "Owner")).value(at: 0, property: 0) }
        #expect(try counts() == .map(MixedMap([("a", .int(1)), ("b", .int(20)), ("c", .int(30))])))
        try t.setValue(.int(4), forKey: "d", inMap: "counts", of: owner)
        #expect(try t.removeValue(forKey: "d", fromMap: "counts", of: owner))
        #expect(try !t.removeValue(forKey: "d", fromMap: "counts", of: owner))
        #expect(try counts() == .map(MixedMap([("a", .int(1)), ("b", .int(20)), ("c", .int(30))])))

        // Sets: an element staged or in the block is not added twice; staging another collection
        // merges the first.
        #expect(try t.insert(.int(9), intoSet: "numbers", of: owner))
        #expect(try !t.insert(.int(9), intoSet: "numbers", of: owner))
        #expect(try !t.insert(.int(5), intoSet: "numbers", of: owner))
        #expect(try t.insert(.string("b"), intoSet: "names", of: owner))
        #expect(try t.insert(.int(1), intoSet: "numbers", of: owner))
        #expect(try t.remove(.int(9), fromSet: "numbers", of: owner))
        #expect(try t.insert(.string("a"), intoSet: "names", of: owner))

        // Links staged in a map and a set have their backlinks: deleting a pet nulls its map
        // value and takes it out of the set.
        try t.setValue(.link(rex), forKey: "x", inMap: "pets", of: owner)
        try t.setValue(.link(fido), forKey: "y", inMap: "pets", of: owner)
        try t.setValue(.link(fido), forKey: "x", inMap: "pets", of: owner)  // rex replaced while staged
        #expect(try t.insert(.link(rex), intoSet: "friends", of: owner))
        #expect(try t.insert(.link(fido), intoSet: "friends", of: owner))
        try t.delete(fido)
        let result = try t.commit()
        let table = try #require(result.snapshot.table(named: "Owner"))
        #expect(table.value(at: 0, property: 0) == .map(MixedMap([("a", .int(1)), ("b", .int(20)), ("c", .int(30))])))
        #expect(table.value(at: 0, property: 1) == .list([.int(1), .int(5)]))
        #expect(table.value(at: 0, property: 2) == .list([.string("a"), .string("b")]))
        #expect(table.value(at: 0, property: 3) == .map(MixedMap([("x", .null), ("y", .null)])))
        #expect(table.value(at: 0, property: 4) == .list([.link(rex)]))
        let pets = try #require(result.snapshot.table(named: "Pet"))
        #expect(pets.rowCount == 1)
    }

    @Test("a rolled-back write drops what it staged")
    func rollbackDropsStaged() throws {
        let store = BlockStore(schema: try Self.schema())
        let owner = try store.write { t in ObjectLink(className: "Owner", key: try t.insert("Owner")) }.value
        let t = store.beginWrite()
        try t.setValue(.int(1), forKey: "a", inMap: "counts", of: owner)
        #expect(try t.insert(.int(1), intoSet: "numbers", of: owner))
        t.rollback()
        let table = try #require(store.snapshot.table(named: "Owner"))
        #expect(table.value(at: 0, property: 0) == .map(MixedMap()))
        #expect(table.value(at: 0, property: 1) == .list([]))
    }
}
