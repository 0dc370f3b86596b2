import Foundation
import Testing

@testable import RQL

/// Lists, sets, maps and linking objects of managed objects: writes through them, querying
/// them with the engine, aggregating them, and seeing other accessors' changes.
@Suite("Managed collections")
struct ManagedCollectionTests {
    final class Scores: Object {
        @Persisted var name = ""
        @Persisted var values: List<Int>
        @Persisted var optionals: List<Double?>
        @Persisted var tags: MutableSet<String>
        @Persisted var totals: Map<String, Int>
        @Persisted var places: List<Address>
        @Persisted var mixed: AnyRealmValue
    }

    @Test("list mutations write through and every accessor sees them")
    func listMutations() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        let dogs = realm.objects(Dog.self)
        func dog(_ name: String) -> Dog { dogs.filter("name == %@", name).first! }
        try realm.write {
            person.dogs.append(dog("Fido"))
            person.dogs.insert(dog("Spot"), at: 0)
        }
        #expect(person.dogs.map(\.name) == ["Spot", "Rex", "Wolfie", "Fido"])
        try realm.write {
            person.dogs.move(from: 0, to: 3)
            person.dogs.remove(at: 0)
            person.dogs.replace(index: 0, object: dog("Rex"))
            person.dogs.swapAt(0, 1)
        }
        let again = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        #expect(again.dogs.map(\.name) == ["Fido", "Rex", "Spot"])
        try realm.write { again.dogs.append(Dog(value: ["name": "New"])) }
        #expect(person.dogs.last?.name == "New")
        #expect(person.dogs.last?.realm != nil)
        #expect(realm.objects(Dog.self).count == 5)
        try realm.write { person.dogs.removeAll() }
        #expect(again.dogs.isEmpty)
        #expect(realm.objects(Dog.self).count == 5)
    }

    @Test("lists of values, sets and maps write through")
    func valueCollections() throws {
        let realm = try makeRealm()
        let scores = Scores(value: ["name": "a"])
        scores.values.append(objectsIn: [3, 1, 2])
        scores.tags.insert("x")
        scores.totals["q1"] = 10
        try realm.write { realm.add(scores) }
        #expect(Array(scores.values) == [3, 1, 2])
        try realm.write {
            scores.values.append(7)
            scores.values[0] = 4
            scores.tags.insert(objectsIn: ["y", "x", "z"])
            scores.tags.remove("z")
            scores.totals["q2"] = 20
            scores.totals["q1"] = nil
            scores.optionals.append(objectsIn: [1.5, nil])
        }
        let stored = try #require(realm.objects(Scores.self).first)
        #expect(Array(stored.values) == [4, 1, 2, 7])
        #expect(Set(stored.tags) == ["x", "y"])
        #expect(stored.totals.keys == ["q2"])
        #expect(stored.totals["q2"] == 20)
        #expect(Array(stored.optionals) == [1.5, nil])
        #expect(realm.objects(Scores.self).filter("ANY values > 5").count == 1)
        #expect(realm.objects(Scores.self).where { $0.totals["q2"] == 20 }.count == 1)
    }

    @Test("aggregates over a list of values")
    func valueAggregates() throws {
        let realm = try makeRealm()
        let scores = Scores()
        scores.values.append(objectsIn: [3, 1, 2])
        try realm.write { realm.add(scores) }
        #expect(scores.values.min() == 1)
        #expect(scores.values.max() == 3)
        #expect(scores.values.sum() == 6)
        let mean: Double? = scores.values.average()
        #expect(mean == 2)
        let unmanaged = List<Int>()
        unmanaged.append(objectsIn: [5, 7])
        #expect(unmanaged.sum() == 12)
        #expect(List<Int>().max() == nil)
    }

    @Test("embedded objects in a list are created with their owner and deleted with it")
    func embeddedList() throws {
        let realm = try makeRealm()
        let a = Address()
        a.city = "Oslo"
        let scores = Scores()
        scores.places.append(a)
        try realm.write { realm.add(scores) }
        #expect(a.realm != nil)
        #expect(scores.places.first?.city == "Oslo")
        try realm.write {
            let b = Address()
            b.city = "Rome"
            scores.places.append(b)
            a.city = "Bergen"
        }
        #expect(scores.places.map(\.city) == ["Bergen", "Rome"])
        try realm.write { realm.delete(scores) }
        #expect(a.isInvalidated)
    }

    @Test("filtering, sorting and aggregating a list of objects in the list's order")
    func queryingALists() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        try realm.write {
            person.dogs.append(objectsIn: realm.objects(Dog.self).filter("name IN {'Spot', 'Fido'}"))
        }
        #expect(person.dogs.map(\.name) == ["Rex", "Wolfie", "Fido", "Spot"])
        #expect(person.dogs.filter("age > %@", 2).map(\.name) == ["Rex", "Fido", "Spot"])
        #expect(person.dogs.where { $0.color == "tan" }.map(\.name) == ["Rex", "Wolfie"])
        #expect(person.dogs.sorted(byKeyPath: "age").map(\.name) == ["Wolfie", "Fido", "Spot", "Rex"])
        #expect(person.dogs.sorted(by: \.name, ascending: false).first?.name == "Wolfie")
        #expect(person.dogs.sum(of: \.age) == 20)
        let oldest: Int? = person.dogs.max(ofProperty: "age")
        #expect(oldest == 10)
        #expect(person.dogs.index(matching: "name == 'Fido'") == 2)
        // The filtered list is live.
        let older = person.dogs.filter("age > 2")
        try realm.write { person.dogs.remove(at: 0) }
        #expect(older.map(\.name) == ["Fido", "Spot"])
    }

    @Test("querying a set and linking objects")
    func queryingSetsAndBacklinks() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        #expect(person.clubs.filter("name BEGINSWITH 'Pooch'").count == 1)
        #expect(person.clubs.where { $0.name == "Nope" }.isEmpty)
        try realm.write {
            let club = DogClub(name: "Barkers", addresses: [])
            club.members.append(person)
            realm.add(club)
        }
        #expect(person.clubs.sorted(byKeyPath: "name").map(\.name) == ["Barkers", "Pooch Pals"])
        #expect(person.clubs.count == 2)
    }

    @Test("a map of objects is queried over its values in key order; a map of values aggregates")
    func queryingMaps() throws {
        let realm = try makeRealm()
        let box = ToyBox(value: ["label": "attic"])
        box.toysByRoom["kitchen"] = DogToy(value: ["name": "Rope"])
        box.toysByRoom["bedroom"] = DogToy(value: ["name": "Tennis ball"])
        box.toysByRoom["hall"] = nil
        let scores = Scores()
        scores.totals["a"] = 3
        scores.totals["b"] = 5
        try realm.write {
            realm.add(box)
            realm.add(scores)
            box.toysByRoom["garden"] = DogToy?.none
        }
        #expect(box.toysByRoom.count == 3)
        #expect(box.toysByRoom.sorted(byKeyPath: "name").map { $0?.name } == ["Rope", "Tennis ball"])
        #expect(box.toysByRoom.filter("name BEGINSWITH 'T'").map { $0?.name } == ["Tennis ball"])
        #expect(box.toysByRoom.where { $0.name == "Rope" }.count == 1)
        #expect(box.toysByRoom.filter("TRUEPREDICATE").map { $0?.name } == ["Tennis ball", "Rope"])
        #expect(scores.totals.sum() == 8)
        #expect(scores.totals.max() == 5)
        let mean: Double? = scores.totals.average()
        #expect(mean == 4)
        // Deleting a map's objects deletes the toys; the keys stay, holding nil.
        let toys = realm.objects(DogToy.self).count
        try realm.write { realm.delete(box.toysByRoom) }
        #expect(realm.objects(DogToy.self).count == toys - 2)
        #expect(box.toysByRoom.count == 3)
        #expect(box.toysByRoom.values.allSatisfy { $0 == nil })
    }

    @Test("a collection of a deleted object is invalidated; results over it are empty")
    func invalidatedCollections() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        let dogs = person.dogs
        let filtered = dogs.filter("age > 0")
        #expect(filtered.count == 2)
        try realm.write { realm.delete(person) }
        #expect(dogs.isInvalidated)
        #expect(filtered.isInvalidated)
        #expect(filtered.count == 0)
    }

    @Test("nested mixed collections are stored and read back")
    func mixedCollections() throws {
        let realm = try makeRealm()
        let scores = Scores()
        scores.mixed = AnyRealmValue.fromDictionary([
            "a": .int(1), "b": AnyRealmValue.fromArray([.string("x"), .bool(true)]),
        ])
        try realm.write { realm.add(scores) }
        guard case .dictionary(let map) = scores.mixed else {
            Issue.record("expected a dictionary, read \(scores.mixed)")
            return
        }
        #expect(map["a"] == .int(1))
        #expect(map["b"]?.listValue.map { Array($0) } == [.string("x"), .bool(true)])
        #expect(realm.objects(Scores.self).filter("mixed['b'][0] == 'x'").count == 1)
    }
}
