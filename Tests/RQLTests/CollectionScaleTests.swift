import Foundation
import RQLTestSupport
import Testing

@testable import RQL

final class ScaleHolder: Object {
    @Persisted var name = ""
    @Persisted var numbers: List<Int>
    @Persisted var counts: Map<String, Int>
    @Persisted var tags: MutableSet<Int>
    @Persisted var items: List<ScaleItem>
}

final class ScaleItem: Object {
    @Persisted var n = 0
}

/// Mutating a managed collection many times inside one write (issue 16): each append or insert
/// used to decode the whole collection several times (to count it, to check it, to find what the
/// write replaced), so 100,000 appends took minutes. Each test checks the contents and that ten
/// times the work takes about ten times the processor time, not a hundred: the ratio, measured
/// in one run on this thread's clock, holds on a loaded machine where wall time would not.
@Suite("Managed collections grow linearly inside one write", .serialized)
struct CollectionScaleTests {
    /// The most a tenfold size may cost over the small one: linear work gives about 10, quadratic
    /// about 100.
    static let ratioLimit = 30.0

    func realm() throws -> Realm { try makeRealm([ScaleHolder.self, ScaleItem.self]) }

    /// The processor time of `body(n)` for `n` and `10 n`, and their ratio.
    func ratio(_ n: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let (_, small) = try ThreadCPUTime.measure { try body(n) }
        let (_, large) = try ThreadCPUTime.measure { try body(10 * n) }
        return large / small
    }

    @Test("100,000 appends to a managed List<Int> in one write are linear")
    func listAppends() throws {
        let realm = try realm()
        let growth = try ratio(10_000) { n in
            let holder = ScaleHolder()
            try realm.write {
                realm.add(holder)
                for i in 0..<n { holder.numbers.append(i) }
            }
            #expect(holder.numbers.count == n)
            #expect(holder.numbers[n - 1] == n - 1 && holder.numbers[n / 2] == n / 2)
        }
        #expect(growth < Self.ratioLimit, "10x the appends took \(growth)x the time")
    }

    @Test("reading the count between appends keeps them linear")
    func appendsWithReads() throws {
        let realm = try realm()
        let growth = try ratio(5_000) { n in
            let holder = ScaleHolder()
            try realm.write {
                realm.add(holder)
                for i in 0..<n {
                    holder.numbers.append(holder.numbers.count)
                    #expect(holder.numbers.count == i + 1)
                }
            }
            #expect(Array(holder.numbers.suffix(2)) == [n - 2, n - 1])
        }
        #expect(growth < Self.ratioLimit, "10x the appends took \(growth)x the time")
    }

    @Test("appends of new objects to a managed List<Object> are linear")
    func objectAppends() throws {
        let realm = try realm()
        let growth = try ratio(2_000) { n in
            let holder = ScaleHolder()
            try realm.write {
                realm.add(holder)
                for i in 0..<n { holder.items.append(ScaleItem(value: ["n": i])) }
            }
            #expect(holder.items.count == n && holder.items[n - 1].n == n - 1)
        }
        #expect(growth < Self.ratioLimit, "10x the appends took \(growth)x the time")
    }

    @Test("map inserts in key order and set inserts in order are linear; lookups read one entry")
    func mapAndSetInserts() throws {
        let realm = try realm()
        let growth = try ratio(5_000) { n in
            let holder = ScaleHolder()
            try realm.write {
                realm.add(holder)
                for i in 0..<n {
                    let key = "k" + String(i).leftPadded(to: 7)
                    holder.counts[key] = i
                    holder.tags.insert(i)
                    #expect(holder.counts[key] == i)
                }
            }
            #expect(holder.counts.count == n && holder.tags.count == n)
        }
        #expect(growth < Self.ratioLimit, "10x the inserts took \(growth)x the time")
    }

    @Test("10,000 map inserts in scattered order finish and keep key order")
    func scatteredMapInserts() throws {
        let realm = try realm()
        let n = 10_000
        let holder = ScaleHolder()
        try realm.write {
            realm.add(holder)
            for i in 0..<n { holder.counts["k\((i &* 7_919) % n)"] = i }
        }
        #expect(holder.counts.count == n)
        #expect(holder.counts["k7919"] == 1)
        let keys = holder.counts.keys
        #expect(zip(keys, keys.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
