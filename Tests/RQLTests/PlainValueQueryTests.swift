import Foundation
import Testing

@testable import RQL

/// Querying collections of plain values (`List<Int>`, `MutableSet<String>`, `Map<String, Int>`,
/// optionals, dates, mixed values): `filter` and `query` with `self` in both dialects, `where`
/// closures over the element, `sorted(ascending:)`, `distinct()`, aggregates and sections, all
/// returning live `Results` of the values that chain, freeze and invalidate like results of objects.
@Suite("Plain-value collection queries")
struct PlainValueQueryTests {
    final class PlainValuesHolder: Object {
        @Persisted var ints: List<Int>
        @Persisted var optionalInts: List<Int?>
        @Persisted var strings: List<String>
        @Persisted var doubles: List<Double>
        @Persisted var dates: List<Date>
        @Persisted var mixed: List<AnyRealmValue>
        @Persisted var tags: MutableSet<String>
        @Persisted var intSet: MutableSet<Int>
        @Persisted var scores: Map<String, Int>
        @Persisted var optionalScores: Map<String, Int?>
    }

    static let day = 86_400.0
    static func date(_ days: Double) -> Date { Date(timeIntervalSince1970: days * day) }

    /// A realm holding one `PlainValuesHolder` with known contents.
    func makeHolder(name: String = #function) throws -> (Realm, PlainValuesHolder) {
        let realm = try makeRealm(name: name)
        let holder = PlainValuesHolder()
        holder.ints.append(objectsIn: [3, 8, 5, 10, 8, 1])
        holder.optionalInts.append(objectsIn: [nil, 3, nil, 7])
        holder.strings.append(objectsIn: ["banana", "apple", "Avocado", "cherry", "apple"])
        holder.doubles.append(objectsIn: [2.5, 0.5, 3.0, 1.5])
        holder.dates.append(objectsIn: [Self.date(3), Self.date(1), Self.date(2)])
        holder.mixed.append(objectsIn: [.int(1), .string("a"), .double(2.5), .none, .int(4)])
        holder.tags.insert(objectsIn: ["alpha", "beta", "apex", "gamma"])
        holder.intSet.insert(objectsIn: [4, 9, 16])
        holder.scores["a"] = 5
        holder.scores["b"] = 12
        holder.scores["c"] = 9
        holder.scores["d"] = 12
        holder.optionalScores.updateValue(nil, forKey: "x")  // a null value (assigning nil removes the key)
        holder.optionalScores["y"] = 4
        holder.optionalScores["z"] = 2
        try realm.write { realm.add(holder) }
        return (realm, holder)
    }

    // MARK: filter and query

    @Test(
        "filter reads self in both dialects, keeping the list's order and duplicates",
        arguments: [
            ("self > 5", [Int]()),
            ("SELF > 5", []),
            ("self > %@", [5]),
            ("self > $0", [5]),
            ("self IN {8, 10}", []),
            ("NOT self <= 5", []),
        ] as [(String, [Int])]
    )
    func filterInts(query: String, args: [Int]) throws {
        let (_, holder) = try makeHolder()
        let filtered = try holder.ints.query(query, arguments: args)
        #expect(Array(filtered) == [8, 10, 8])
        #expect(filtered.count == 3)
    }

    @Test("filter and where on a set of strings use the string operators")
    func filterStrings() throws {
        let (_, holder) = try makeHolder()
        #expect(Set(holder.tags.filter("self BEGINSWITH 'a'")) == ["alpha", "apex"])
        #expect(Set(holder.tags.filter("self CONTAINS[c] %@", "MM")) == ["gamma"])
        #expect(Set(holder.tags.where { $0.starts(with: "a") }) == ["alpha", "apex"])
        #expect(Set(holder.tags.where { $0.contains("et") }) == ["beta"])
        #expect(Array(holder.strings.filter("self ==[c] 'APPLE'")) == ["apple", "apple"])
        #expect(
            Array(holder.strings.where { $0.starts(with: "a", options: .caseInsensitive) }) == [
                "apple", "Avocado", "apple",
            ]
        )
    }

    @Test("where closures on plain values bind the element as the text does")
    func whereInts() throws {
        let (_, holder) = try makeHolder()
        #expect(Array(holder.ints.where { $0 > 5 }) == [8, 10, 8])
        #expect(Array(holder.ints.where { $0 == 8 || $0 < 2 }) == [8, 8, 1])
        #expect(Array(holder.ints.where { $0.in([3, 10]) }) == [3, 10])
        #expect(Array(holder.intSet.where { $0 != 9 }).sorted() == [4, 16])
        #expect(Array(holder.doubles.where { $0.contains(1.0...2.5) }) == [2.5, 1.5])
    }

    @Test("a where closure and the equivalent text bind to the same plan")
    func closureAndTextAgree() throws {
        let (_, holder) = try makeHolder()
        #expect(holder.ints.where { $0 > 5 }.plan == holder.ints.filter("self > 5").plan)
        #expect(holder.tags.where { $0.starts(with: "a") }.plan == holder.tags.filter("self BEGINSWITH 'a'").plan)
        #expect(holder.scores.where { $0 <= 9 }.plan == holder.scores.filter("self <= $0", 9).plan)
        #expect(holder.ints.where { $0 > 5 }.plan != holder.ints.filter("self >= 5").plan)
    }

    @Test("optional elements compare with nil and skip nulls in comparisons")
    func optionals() throws {
        let (_, holder) = try makeHolder()
        #expect(holder.optionalInts.filter("self == nil").count == 2)
        #expect(Array(holder.optionalInts.filter("self > 2")) == [3, 7])
        #expect(Array(holder.optionalInts.where { $0 != nil }) == [3, 7])
        #expect(Array(holder.optionalInts.sorted()) == [nil, nil, 3, 7])
        #expect(Array(holder.optionalInts.sorted(ascending: false)) == [7, 3, nil, nil])
        #expect(Array(holder.optionalScores.filter("self != nil")) == [4, 2])
        #expect(holder.optionalScores.filter("self == nil").count == 1)
        #expect(Array(holder.optionalScores.sorted()) == [nil, 2, 4])
    }

    @Test("doubles and dates filter, sort and aggregate")
    func doublesAndDates() throws {
        let (_, holder) = try makeHolder()
        #expect(Array(holder.doubles.filter("self BETWEEN {1.0, 2.5}")) == [2.5, 1.5])
        #expect(Array(holder.doubles.sorted()) == [0.5, 1.5, 2.5, 3.0])
        #expect(Array(holder.dates.filter("self > %@", Self.date(1.5))) == [Self.date(3), Self.date(2)])
        #expect(Array(holder.dates.where { $0 < Self.date(2.5) }) == [Self.date(1), Self.date(2)])
        #expect(Array(holder.dates.sorted(ascending: false)) == [Self.date(3), Self.date(2), Self.date(1)])
        #expect(holder.dates.filter("self > %@", Self.date(1.5)).min() == Self.date(2))
        #expect(holder.doubles.filter("self > 1").sum() == 7.0)
    }

    @Test("mixed values compare by realm-core's mixed rules")
    func mixedValues() throws {
        let (_, holder) = try makeHolder()
        #expect(Array(holder.mixed.filter("self > 1")) == [.double(2.5), .int(4)])
        #expect(Array(holder.mixed.filter("self == 'a'")) == [.string("a")])
        #expect(Array(holder.mixed.filter("self == nil")) == [AnyRealmValue.none])
        #expect(Array(holder.mixed.where { $0 == .int(4) }) == [.int(4)])
        #expect(holder.mixed.filter("self.@type == 'int'").count == 2)
        #expect(Array(holder.mixed.sorted()) == [.none, .int(1), .double(2.5), .int(4), .string("a")])
        #expect(Array(holder.mixed.distinct()).count == 5)
    }

    @Test("a map's values are queried in key order, with self the value")
    func maps() throws {
        let (_, holder) = try makeHolder()
        #expect(Array(holder.scores.filter("self > 6")) == [12, 9, 12])
        #expect(Array(try holder.scores.query("self > $0", 9)) == [12, 12])
        #expect(Array(holder.scores.where { $0 < 10 }) == [5, 9])
        #expect(Array(holder.scores.sorted(ascending: false)) == [12, 12, 9, 5])
        #expect(Array(holder.scores.sorted(ascending: false).distinct()) == [12, 9, 5])
        #expect(holder.scores.filter("self > 6").max() == 12)
        #expect(holder.scores.filter("self > 6").sum() == 33)
    }

    @Test("bad query text throws from query with the caret diagnostic")
    func badQueries() throws {
        let (_, holder) = try makeHolder()
        #expect(throws: Realm.QueryError.self) { try holder.ints.query("self >") }
        #expect(throws: Realm.QueryError.self) { try holder.ints.query("self BEGINSWITH 'a'") }
        #expect(throws: Realm.QueryError.self) { try holder.tags.query("self > $0") }
        #expect(throws: Realm.QueryError.self) { try holder.scores.query("self == 'x'") }
        do {
            _ = try holder.ints.query("count > 1")
            Issue.record("an element has no properties")
        } catch let error as Realm.QueryError {
            #expect(error.category == "unknown_property")
            #expect(error.description.contains("^"))
        }
    }

    // MARK: sorted, distinct, chaining

    @Test("sorted and distinct run on the engine and chain with filters")
    func sortedAndDistinct() throws {
        let (_, holder) = try makeHolder()
        #expect(Array(holder.ints.sorted()) == [1, 3, 5, 8, 8, 10])
        #expect(Array(holder.ints.sorted(ascending: false)) == [10, 8, 8, 5, 3, 1])
        #expect(Array(holder.ints.distinct()) == [3, 8, 5, 10, 1])
        #expect(Array(holder.ints.filter("self > 2").sorted(ascending: false)) == [10, 8, 8, 5, 3])
        #expect(Array(holder.ints.sorted().filter("self < 8")) == [1, 3, 5])
        #expect(Array(holder.ints.distinct().sorted(ascending: false).filter("self != 10")) == [8, 5, 3, 1])
        #expect(Array(holder.strings.distinct()) == ["banana", "apple", "Avocado", "cherry"])
        #expect(Array(holder.strings.sorted()) == ["Avocado", "apple", "apple", "banana", "cherry"])
        #expect(
            Array(holder.strings.sorted(by: [SortDescriptor(keyPath: "self", caseInsensitive: true)])) == [
                "apple", "apple", "Avocado", "banana", "cherry",
            ]
        )
        #expect(Array(holder.tags.sorted(ascending: false)) == ["gamma", "beta", "apex", "alpha"])
        #expect(Array(holder.ints.distinct(by: ["self"])) == [3, 8, 5, 10, 1])
    }

    @Test("results of values are countable, indexable and iterable")
    func collectionAccess() throws {
        let (_, holder) = try makeHolder()
        let results = holder.ints.filter("self > 2").sorted()
        #expect(results.count == 5)
        #expect(!results.isEmpty)
        #expect(results[0] == 3)
        #expect(results[4] == 10)
        #expect(results.first == 3)
        #expect(results.last == 10)
        #expect(results.index(of: 8) == 2)
        #expect(results.index(of: 4) == nil)
        #expect(results.objects(at: IndexSet([1, 3])) == [5, 8])
        var seen: [Int] = []
        for value in results { seen.append(value) }
        #expect(seen == [3, 5, 8, 8, 10])
        #expect(holder.ints.filter("self > 100").isEmpty)
        #expect(results.realm != nil)
        #expect(results.description.contains("10"))
        #expect(results.explain().contains("self"))
    }

    @Test("index(matching:) finds the first matching element by text or closure")
    func indexMatching() throws {
        let (_, holder) = try makeHolder()
        #expect(holder.ints.index(matching: "self > 5") == 1)
        #expect(holder.ints.index(matching: "self == %@", 10) == 3)
        #expect(holder.ints.index(matching: { $0 < 3 }) == 5)
        #expect(holder.ints.index(matching: { $0 > 100 }) == nil)
        #expect(holder.ints.sorted(ascending: false).index(matching: "self == 5") == 3)
        let unmanaged = List<Int>()
        unmanaged.append(objectsIn: [4, 12, 9])
        #expect(unmanaged.index(matching: "self > %@", 5) == 1)
        #expect(unmanaged.index(matching: { $0 == 9 }) == 2)
        #expect(unmanaged.index(matching: "self > 50") == nil)
        let names = MutableSet<String>()
        names.insert(objectsIn: ["rex", "fido"])
        #expect(names.index(matching: "self BEGINSWITH 'f'") == 1)
    }

    // MARK: aggregates and sections

    @Test("aggregates of filtered values and of the whole collection")
    func aggregates() throws {
        let (_, holder) = try makeHolder()
        let big = holder.ints.filter("self > 4")
        #expect(big.min() == 5)
        #expect(big.max() == 10)
        #expect(big.sum() == 31)
        let mean: Double? = big.average()
        #expect(mean == 7.75)
        let byProperty: Int? = big.min(ofProperty: "self")
        #expect(byProperty == 5)
        #expect(holder.ints.min() == 1)
        #expect(holder.optionalInts.max() == 7)
        #expect(holder.ints.filter("self > 100").max() == nil)
        #expect(holder.ints.filter("self > 100").sum() == 0)
        let unmanaged = List<Int>()
        unmanaged.append(objectsIn: [4, 2, 9])
        #expect(unmanaged.min() == 2)
        #expect(unmanaged.sum() == 15)
    }

    @Test("values are sectioned by a computed key, sorted by themselves")
    func sections() throws {
        let (_, holder) = try makeHolder()
        let byInitial = holder.strings.sectioned(by: { String($0.prefix(1)) }, ascending: true)
        #expect(byInitial.allKeys == ["A", "a", "b", "c"])
        #expect(Array(byInitial[1]) == ["apple", "apple"])
        let byTens = holder.ints.sectioned(by: { $0 / 5 }, ascending: false)
        #expect(byTens.allKeys == [2, 1, 0])
        #expect(Array(byTens[1]) == [8, 8, 5])
        let descriptors = holder.tags.sectioned(sortDescriptors: [SortDescriptor(keyPath: "self")]) { $0.count }
        #expect(descriptors.allKeys == [5, 4])
        #expect(Array(descriptors[0]) == ["alpha", "gamma"])
    }

    // MARK: liveness and freezing

    @Test("results of values follow writes, and chained ones too")
    func live() throws {
        let (realm, holder) = try makeHolder()
        let big = holder.ints.filter("self > 5")
        let sorted = big.sorted(ascending: false)
        let scores = holder.scores.filter("self > 6")
        #expect(big.count == 3)
        try realm.write {
            holder.ints.append(20)
            holder.ints.remove(at: 1)
            holder.scores["e"] = 7
        }
        #expect(Array(big) == [10, 8, 20])
        #expect(Array(sorted) == [20, 10, 8])
        #expect(Array(scores) == [12, 9, 12, 7])
        let other = try #require(realm.objects(PlainValuesHolder.self).first)
        try realm.write { other.tags.insert("arc") }
        #expect(Set(holder.tags.filter("self BEGINSWITH 'a'")) == ["alpha", "apex", "arc"])
    }

    @Test("frozen results of values never change")
    func frozen() throws {
        let (realm, holder) = try makeHolder()
        let frozenResults = holder.ints.filter("self > 5").freeze()
        let fromFrozenList = holder.ints.freeze().sorted()
        #expect(frozenResults.isFrozen)
        #expect(fromFrozenList.isFrozen)
        #expect(!holder.ints.filter("self > 5").isFrozen)
        try realm.write {
            holder.ints.append(30)
            holder.ints.append(0)
        }
        #expect(Array(frozenResults) == [8, 10, 8])
        #expect(Array(fromFrozenList) == [1, 3, 5, 8, 8, 10])
        #expect(Array(frozenResults.filter("self < 10")) == [8, 8])
        let thawed = try #require(frozenResults.thaw())
        #expect(Array(thawed) == [8, 10, 8, 30])
    }

    @Test("results of a deleted object's values are invalidated and empty")
    func invalidated() throws {
        let (realm, holder) = try makeHolder()
        let results = holder.ints.filter("self > 5")
        #expect(!results.isInvalidated)
        try realm.write { realm.delete(holder) }
        #expect(results.isInvalidated)
        #expect(results.isEmpty)
    }
}

extension RealmCollection {
    /// `query(_:_:)` with the arguments as an array, for argument tables.
    fileprivate func query(_ text: String, arguments: [Any]) throws -> Results<Element> {
        try _rqlQueryable.query(text, arguments: arguments)
    }
}
