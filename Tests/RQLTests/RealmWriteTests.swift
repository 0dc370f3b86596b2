import Foundation
import Testing

@testable import RQL

@Suite("Writing to a realm")
struct RealmWriteTests {
    @Test("an added object becomes managed and is found by a query")
    func addAndQuery() throws {
        let realm = try makeRealm()
        let dog = Dog(value: ["name": "Rex", "age": 10])
        try realm.write { realm.add(dog) }
        #expect(dog.realm != nil)
        #expect(dog.name == "Rex")
        let dogs = realm.objects(Dog.self)
        #expect(dogs.count == 1)
        #expect(dogs.first?.name == "Rex")
        #expect(dogs.filter("age > 5").count == 1)
        #expect(dogs.where { $0.age < 5 }.count == 0)
    }

    @Test("the seed realm holds its graph")
    func seedGraph() throws {
        let realm = try makeSeedRealm()
        #expect(realm.objects(Dog.self).count == 4)
        #expect(realm.objects(DogToy.self).count == 2)
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        #expect(person.dogs.map(\.name) == ["Rex", "Wolfie"])
        #expect(person.address?.city == "Los Angeles")
        #expect(person.clubs.map(\.name) == ["Pooch Pals"])
        #expect(Set(person.dogs[1].citiesVisited) == ["New York", "Toronto", "Boston"])
    }
}
