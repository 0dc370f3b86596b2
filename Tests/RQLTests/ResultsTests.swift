import Foundation
import Testing

@testable import RQL

/// `Results`: lazy and live, one plan per chain, both string dialects, the checked `query`,
/// sorting, distinct, limits, aggregates, positions, key-value coding, freezing, encoding.
@Suite("Results")
struct ResultsTests {
    @Test("results are lazy: nothing runs until they are read, and a chain compiles once")
    func lazyAndCompiledOnce() throws {
        let realm = try makeSeedRealm()
        let results = realm.objects(Dog.self).filter("age > 2").sorted(byKeyPath: "name").filter("color != 'brown'")
        #expect(results.state.compiled == nil)
        #expect(results.map(\.name) == ["Fido", "Rex"])
        let compiled = try #require(results.state.compiled)
        #expect(results.count == 2)
        #expect(results.state.compiled?.query == compiled.query)
        // One plan: every filter AND-ed, then the sort.
        #expect(results.plan.operators.count == 3)
        #expect(
            results.explain()
                .hasPrefix(
                    "== bound IR ==\n(query Dog (and (> Dog.age 2) (!= Dog.color 'brown')) (sort Dog.name ASC))\n"
                )
        )
    }

    @Test("results are live: they see later writes; frozen results never change")
    func liveAndFrozen() throws {
        let realm = try makeSeedRealm()
        let puppies = realm.objects(Dog.self).filter("age < 2")
        let frozen = puppies.freeze()
        #expect(puppies.count == 1)
        try realm.write { realm.add(Dog(value: ["name": "Ace", "age": 0])) }
        #expect(puppies.count == 2)
        #expect(frozen.count == 1)
        #expect(frozen.isFrozen)
        #expect(frozen.first?.isFrozen == true)
        let thawed = try #require(frozen.thaw())
        #expect(thawed.count == 2)
        #expect(!thawed.isFrozen)
    }

    @Test("filter takes NSPredicate format and RQL: %@, %K and $0")
    func bothDialects() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.filter("age > %@ AND color == %@", 2, "tan").map(\.name) == ["Rex"])
        #expect(dogs.filter("%K > %@", "age", 5).map(\.name) == ["Rex", "Spot"])
        #expect(dogs.filter("age > $0 AND color == $1", 2, "tan").map(\.name) == ["Rex"])
        #expect(dogs.filter("name IN %@", ["Rex", "Spot"]).map(\.name) == ["Rex", "Spot"])
        #expect(dogs.filter("age BETWEEN {%@, %@}", 2, 6).map(\.name) == ["Fido", "Spot"])
        #expect(dogs.filter("name ==[c] %@", "REX").count == 1)
        // RQL clauses in the text become part of the plan.
        #expect(dogs.filter("age > $0 SORT(age DESC) LIMIT(2)", 0).map(\.name) == ["Rex", "Spot"])
        #expect(dogs.filter("name == %@", Optional<String>.none).isEmpty)
    }

    @Test("query(_:_:) throws a located error with a caret instead of stopping")
    func checkedQuery() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect {
            try dogs.query("agee > %@", 2)
        } throws: { error in
            guard let error = error as? Realm.QueryError else { return false }
            return error.category == "unknown_property" && error.message.contains("agee")
                && error.description.contains("^") && error.query == "agee > %@"
        }
        #expect(throws: Realm.QueryError.self) { try dogs.query("age > ") }
        #expect(throws: Realm.QueryError.self) { try dogs.query("age > %@") }
        #expect(throws: Realm.QueryError.self) { try dogs.query("name > %@", Date()) }
        #expect(try dogs.query("age > %@", 5).count == 2)
    }

    @Test("sorting: several descriptors, typed key paths, and RQL's case-insensitive option")
    func sorting() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.add(
                ["banana", "Apple", "cherry", "apple", "Banana"].map { Dog(value: ["name": $0, "age": $0.count]) }
            )
        }
        let dogs = realm.objects(Dog.self)
        #expect(dogs.sorted(byKeyPath: "name").map(\.name) == ["Apple", "Banana", "apple", "banana", "cherry"])
        let folded = dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: true, caseInsensitive: true)])
        #expect(folded.map(\.name) == ["Apple", "apple", "Banana", "banana", "cherry"])
        #expect(folded.explain().contains("ASC[c]"))
        let byAgeThenName = dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
        #expect(byAgeThenName.map(\.name) == ["Banana", "banana", "cherry", "Apple", "apple"])
        #expect(dogs.sorted(by: \.age).first?.age == 5)
        #expect(SortDescriptor(keyPath: "age").reversed().ascending == false)
        #expect(SortDescriptor(keyPath: \Dog.favoriteToy?.name).keyPath == "favoriteToy.name")
    }

    @Test("distinct keeps the first object of each value")
    func distinct() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.distinct(by: ["color"]).map(\.name) == ["Rex", "Fido", "Spot"])
        #expect(dogs.sorted(byKeyPath: "age").distinct(by: [\Dog.color]).map(\.name) == ["Wolfie", "Fido", "Spot"])
    }

    @Test("prefix is a live LIMIT in the plan")
    func prefix() throws {
        let realm = try makeSeedRealm()
        let oldest = realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false).prefix(2)
        #expect(oldest.map(\.name) == ["Rex", "Spot"])
        #expect(oldest.explain().hasPrefix("== bound IR ==\n(query Dog TRUEPREDICATE (sort Dog.age DESC) (limit 2))\n"))
        #expect(oldest.explain().contains("`--USE TOP-N SORT FOR SORT(age DESC) LIMIT(2)\n"))
        try realm.write { realm.add(Dog(value: ["name": "Old", "age": 20])) }
        #expect(oldest.map(\.name) == ["Old", "Rex"])
        #expect(oldest.count == 2)
    }

    @Test("aggregates over a property, by name and by typed key path")
    func aggregates() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        let youngest: Int? = dogs.min(ofProperty: "age")
        let oldest: Int? = dogs.max(ofProperty: "age")
        let total: Int = dogs.sum(ofProperty: "age")
        let mean: Double? = dogs.average(ofProperty: "age")
        #expect(youngest == 1)
        #expect(oldest == 10)
        #expect(total == 20)
        #expect(mean == 5)
        #expect(dogs.sum(of: \.age) == 20)
        #expect(dogs.min(of: \.age) == 1)
        let none = dogs.filter("age > 100")
        #expect(none.max(of: \.age) == nil)
        #expect(none.sum(of: \.age) == 0)
        let emptyMean: Double? = none.average(ofProperty: "age")
        #expect(emptyMean == nil)
    }

    @Test("first, last, subscripts, positions and matching positions")
    func positions() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "age")
        #expect(dogs.first?.name == "Wolfie")
        #expect(dogs.last?.name == "Rex")
        #expect(dogs[1].name == "Fido")
        let rex = try #require(dogs.last)
        #expect(dogs.index(of: rex) == 3)
        #expect(dogs.index(matching: "name == %@", "Spot") == 2)
        #expect(dogs.index(matching: { $0.color == "black" }) == 1)
        #expect(dogs.index(matching: "name == 'Nobody'") == nil)
        #expect(dogs.objects(at: IndexSet([0, 2])).map(\.name) == ["Wolfie", "Spot"])
        #expect(dogs.isEmpty == false)
        #expect(dogs.realm == realm)
    }

    @Test("value(forKey:) and setValue(_:forKey:) act on every result")
    func keyValueCoding() throws {
        let realm = try makeSeedRealm()
        let tan = realm.objects(Dog.self).filter("color == 'tan'")
        #expect((tan.value(forKey: "name") as? [Any])?.compactMap { $0 as? String } == ["Rex", "Wolfie"])
        try realm.write { tan.setValue("gold", forKey: "color") }
        #expect(realm.objects(Dog.self).filter("color == 'gold'").count == 2)
        #expect(tan.isEmpty)
    }

    @Test("results of objects encode as an array of their properties")
    func encoding() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.add([Coded(value: ["name": "Rex", "age": 3]), Coded(value: ["name": "Bo", "age": 1])])
        }
        let data = try JSONEncoder().encode(realm.objects(Coded.self).sorted(byKeyPath: "age"))
        let decoded = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        #expect(decoded?.map { $0["name"] as? String } == ["Bo", "Rex"])
        #expect(decoded?.map { $0["age"] as? Int } == [1, 3])
    }

    @Test("where closures and query text bind to the same plan")
    func closureAndTextAgree() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        let closure = dogs.where { $0.age > 2 && $0.name.starts(with: "R", options: .caseInsensitive) }
        let text = dogs.filter("age > %@ AND name BEGINSWITH[c] %@", 2, "R")
        #expect(closure.explain() == text.explain())
        #expect(closure.map(\.name) == ["Rex"])
    }

    @Test("containsAll(in:) in a closure and as ALL … IN in text")
    func containsAll() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        let closure = dogs.where { $0.citiesVisited.containsAll(in: ["New York", "Boston"]) }
        #expect(closure.map(\.name) == ["Wolfie"])
        let text = dogs.filter("ALL %@ IN citiesVisited", ["New York", "Boston"])
        #expect(text.map(\.name) == ["Wolfie"])
        #expect(closure.explain() == text.explain())
        #expect(dogs.filter("ALL {'New York', 'Toronto'} IN citiesVisited").count == 2)
    }

    @Test("results inside a write see the write's own changes")
    func insideWrite() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        try realm.write {
            realm.add(Dog(value: ["name": "Ace"]))
            #expect(dogs.count == 5)
            dogs.filter("name == 'Ace'").first?.age = 7
            #expect(dogs.filter("age == 7").count == 1)
        }
    }

    @Test("description lists the results")
    func description() throws {
        let realm = try makeSeedRealm()
        let text = realm.objects(Dog.self).filter("name == 'Rex'").description
        #expect(text.hasPrefix("Results<Dog> (\n\t[0] Dog {"))
        #expect(text.contains("name = Rex;"))
    }
}

/// A model with Realm Swift's `Codable` conformance, synthesized.
final class Coded: Object, Codable {
    @Persisted var name = ""
    @Persisted var age = 0
}
