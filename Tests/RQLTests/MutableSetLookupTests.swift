import Foundation
import RQLTestSupport
import Testing

@testable import RQL

/// `MutableSet` membership: an unmanaged set keeps its elements in insertion order and finds one
/// by hash; a managed set looks an element up in the stored set instead of reading it whole.
@Suite("Set membership", .serialized)
struct MutableSetLookupTests {
    final class Tagged: Object {
        @Persisted var numbers: MutableSet<Int>
        @Persisted var names: MutableSet<String>
        @Persisted var optionals: MutableSet<Int?>
        @Persisted var mixed: MutableSet<AnyRealmValue>
        @Persisted var items: MutableSet<ScaleItem>
    }

    func realm() throws -> Realm { try makeRealm([Tagged.self, ScaleItem.self]) }

    @Test("an unmanaged set keeps insertion order, refuses duplicates and forgets removed elements")
    func unmanagedOrder() {
        let set = MutableSet<Int>()
        set.insert(objectsIn: [3, 1, 3, 2, 1])
        #expect(Array(set) == [3, 1, 2])
        #expect(set.contains(2) && !set.contains(4))
        set.remove(1)
        #expect(Array(set) == [3, 2])
        #expect(!set.contains(1))
        set.insert(1)
        #expect(Array(set) == [3, 2, 1])
        set.removeAll()
        #expect(set.isEmpty && !set.contains(3))
        set.insert(3)
        #expect(Array(set) == [3])
    }

    @Test("an object added to a realm after it went into an unmanaged set is still found there")
    func objectManagedLater() throws {
        let realm = try realm()
        let set = MutableSet<ScaleItem>()
        let item = ScaleItem(value: ["n": 1])
        let other = ScaleItem(value: ["n": 2])
        set.insert(objectsIn: [item, other])
        try realm.write { realm.add(item) }
        // `item` hashes by its stored object now, not by the identity it was inserted with.
        set.insert(item)
        #expect(set.count == 2)
        let again = try #require(realm.objects(ScaleItem.self).filter("n == 1").first)
        #expect(again !== item)
        #expect(set.contains(again))
        set.insert(again)
        #expect(set.count == 2)
        set.remove(again)
        #expect(set.count == 1 && !set.contains(item) && set.contains(other))
        set.insert(item)
        #expect(set.map(\.n) == [2, 1])
        let mixed = MutableSet<AnyRealmValue>()
        let third = ScaleItem(value: ["n": 3])
        mixed.insert(.object(third))
        try realm.write { realm.add(third) }
        let thirdAgain = try #require(realm.objects(ScaleItem.self).filter("n == 3").first)
        #expect(mixed.contains(.object(thirdAgain)))
        mixed.insert(.object(thirdAgain))
        #expect(mixed.count == 1)
    }

    @Test("a managed set finds its elements, in a write and after it")
    func managedContains() throws {
        let realm = try realm()
        let tagged = Tagged()
        tagged.numbers.insert(objectsIn: [5, -2, 9])
        tagged.names.insert(objectsIn: ["b", "a", "é"])
        tagged.optionals.insert(objectsIn: [nil, 4])
        tagged.mixed.insert(objectsIn: [.int(2), .string("x"), .none])
        let item = ScaleItem(value: ["n": 7])
        tagged.items.insert(item)
        try realm.write { realm.add(tagged) }
        #expect(tagged.numbers.contains(-2) && tagged.numbers.contains(9) && !tagged.numbers.contains(0))
        #expect(tagged.names.contains("é") && !tagged.names.contains("c"))
        #expect(tagged.optionals.contains(nil) && tagged.optionals.contains(4) && !tagged.optionals.contains(5))
        #expect(tagged.mixed.contains(.string("x")) && tagged.mixed.contains(.none) && !tagged.mixed.contains(.int(3)))
        #expect(tagged.items.contains(item))
        #expect(!tagged.items.contains(ScaleItem(value: ["n": 7])))
        let stray = ScaleItem(value: ["n": 8])
        try realm.write {
            realm.add(stray)
            tagged.numbers.insert(0)
            // Read inside the write, before the staged element is merged.
            #expect(tagged.numbers.contains(0) && tagged.numbers.contains(5))
            tagged.numbers.remove(5)
            #expect(!tagged.numbers.contains(5))
        }
        #expect(!tagged.items.contains(stray))
        #expect(tagged.numbers.contains(0) && !tagged.numbers.contains(5))
        #expect(Array(tagged.numbers) == [-2, 0, 9])
        let copy = tagged.numbers.freeze()
        #expect(copy.contains(9) && !copy.contains(5))
    }

    @Test("100,000 inserts into an unmanaged set are linear")
    func unmanagedInsertsAreLinear() throws {
        let growth = try CollectionScaleTests().ratio(10_000) { n in
            let set = MutableSet<Int>()
            for i in 0..<n { set.insert(i % (n / 2)) }
            #expect(set.count == n / 2)
            #expect(set[n / 4] == n / 4)
        }
        #expect(growth < CollectionScaleTests.ratioLimit, "10x the inserts took \(growth)x the time")
    }

    @Test("a lookup in a managed set does not read the whole set")
    func managedLookupsDoNotGrowWithTheSet() throws {
        let realm = try realm()
        func filled(_ n: Int) throws -> Tagged {
            let tagged = Tagged()
            try realm.write {
                realm.add(tagged)
                for i in 0..<n { tagged.numbers.insert(2 * i) }
            }
            return tagged
        }
        let small = try filled(2_000)
        let large = try filled(20_000)
        func lookups(_ tagged: Tagged, _ n: Int) -> Int {
            (0..<1_000).reduce(0) { found, i in found + (tagged.numbers.contains(i * n / 500 + i % 2) ? 1 : 0) }
        }
        let (smallFound, smallTime) = ThreadCPUTime.measure { lookups(small, 2_000) }
        let (largeFound, largeTime) = ThreadCPUTime.measure { lookups(large, 20_000) }
        #expect(smallFound == 500 && largeFound == 500)
        // Reading the set whole for each lookup makes the tenfold set cost about ten times more.
        #expect(largeTime / smallTime < 4, "lookups in a 10x set took \(largeTime / smallTime)x the time")
    }
}
