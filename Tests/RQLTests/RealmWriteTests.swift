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

    @Test(
        "update policies: .error refuses a primary key twice; .modified and .all upsert",
        arguments: [
            Realm.UpdatePolicy.error, .modified, .all,
        ]
    )
    func updatePolicies(policy: Realm.UpdatePolicy) throws {
        let realm = try makeRealm()
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "Ann", "dogs": [["name": "Rex", "age": 3]]]))
        }
        let again = Person(value: ["id": 1, "name": "Annie"])
        if policy == .error {
            #expect(throws: Realm.Error.self) {
                try realm.write { realm.add(again, update: policy) }
            }
            #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "Ann")
            #expect {
                try realm.write { realm.create(Person.self, value: ["id": 1], update: policy) }
            } throws: { error in
                (error as? Realm.Error)?.code == .primaryKeyExists
            }
        } else {
            // `add` writes every property of the object given: its empty list replaces Rex.
            try realm.write { realm.add(again, update: policy) }
            let ann = try #require(realm.object(ofType: Person.self, forPrimaryKey: 1))
            #expect(ann.name == "Annie")
            #expect(ann.dogs.isEmpty)
            // `create` writes only the keys given: the name stays.
            try realm.write {
                realm.create(Person.self, value: ["id": 1, "dogs": [["name": "Fido", "age": 1]]], update: policy)
            }
            #expect(ann.name == "Annie")
            #expect(ann.dogs.map(\.name) == ["Fido"])
            #expect(realm.objects(Person.self).count == 1)
        }
    }
}
