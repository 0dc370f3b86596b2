import Foundation
import Testing

@testable import RQL

/// `Realm` itself: one realm per thread and store, refreshing, freezing, configurations.
@Suite("Realm")
struct RealmTests {
    @Test("Realm() twice on a thread is the same realm; another thread gets its own")
    func perThread() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "per-thread-\(UUID().uuidString)")
        let first = try Realm(configuration: configuration)
        let second = try Realm(configuration: configuration)
        #expect(first == second)
        first.beginWrite()
        #expect(second.isInWriteTransaction)
        first.cancelWrite()
        let elsewhere = try Thread.run { try Realm(configuration: configuration) }
        #expect(elsewhere != first)
    }

    @Test("a realm sees another thread's commits after refresh, and when it writes")
    func refresh() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "refresh-\(UUID().uuidString)")
        let realm = try Realm(configuration: configuration)
        let dogs = realm.objects(Dog.self)
        #expect(dogs.count == 0)
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(dogs.count == 0)
        #expect(realm.refresh())
        #expect(dogs.count == 1)
        #expect(!realm.refresh())
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(Dog(value: ["name": "Fido"])) }
        }
        try realm.write { #expect(dogs.count == 2) }
    }

    @Test("a frozen realm and its objects read one version forever")
    func freezing() throws {
        let realm = try makeSeedRealm()
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let frozenRealm = realm.freeze()
        let frozenRex = rex.freeze()
        #expect(frozenRealm.isFrozen)
        #expect(frozenRex.isFrozen)
        try realm.write { rex.age = 11 }
        #expect(rex.age == 11)
        #expect(frozenRex.age == 10)
        #expect(frozenRealm.objects(Dog.self).filter("age == 10").count == 1)
        #expect(frozenRex.thaw()?.age == 11)
        #expect(frozenRealm.thaw() == realm)
        try realm.write { realm.delete(rex) }
        #expect(frozenRex.thaw() == nil)
        #expect(frozenRex.name == "Rex")
    }

    @Test("frozen collections keep the version they were frozen at")
    func frozenCollections() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        let rex = try #require(person.dogs.first)
        let dogs = person.dogs.freeze()
        let cities = rex.citiesVisited.freeze()
        let parks = rex.favoriteParksByCity.freeze()
        #expect(dogs.isFrozen)
        try realm.write {
            person.dogs.removeAll()
            rex.citiesVisited.insert("Paris")
            rex.favoriteParksByCity["Paris"] = "Luxembourg"
        }
        #expect(dogs.map(\.name) == ["Rex", "Wolfie"])
        #expect(cities.count == 2)
        #expect(parks.keys == ["Chicago"])
        #expect(dogs.thaw()?.isEmpty == true)
        #expect(cities.thaw()?.count == 3)
        #expect(parks.thaw()?.count == 2)
    }

    @Test("Realm.freeze(_:) and thaw(_:) take any collection, linking objects too")
    func freezeAnyCollection() throws {
        let realm = try makeSeedRealm()
        let person = try #require(realm.object(ofType: Person.self, forPrimaryKey: 12345))
        let clubs = realm.freeze(person.clubs)
        let allDogs = realm.freeze(realm.objects(Dog.self))
        let dogs = realm.freeze(person.dogs)
        #expect(clubs.isFrozen && allDogs.isFrozen && dogs.isFrozen)
        #expect(!person.clubs.isFrozen)
        let dogCount = allDogs.count
        try realm.write {
            let club = DogClub()
            club.name = "Barkers"
            club.members.append(person)
            realm.add(club)
            realm.add(Dog(value: ["name": "Zed"]))
            person.dogs.removeAll()
        }
        #expect(clubs.map(\.name) == ["Pooch Pals"])
        #expect(allDogs.count == dogCount)
        #expect(dogs.count == 2)
        #expect(realm.thaw(clubs)?.count == 2)
        #expect(realm.thaw(allDogs)?.count == dogCount + 1)
        #expect(realm.thaw(dogs)?.isEmpty == true)
    }

    @Test("objects know their realm; managed objects compare by row")
    func identity() throws {
        let realm = try makeSeedRealm()
        let a = try #require(realm.objects(Dog.self).first)
        let b = try #require(realm.objects(Dog.self).first)
        #expect(a !== b)
        #expect(a == b)
        #expect(a.isSameObject(as: b))
        #expect(Set([a, b]).count == 1)
        #expect(a.realm == realm)
        #expect(Dog().realm == nil)
        #expect(!realm.isEmpty)
        #expect(realm.schema["Dog"]?.properties.map(\.name).contains("age") == true)
    }

    @Test("the default configuration opens Realm() and can be replaced")
    @MainActor
    func defaultConfiguration() throws {
        let saved = Realm.Configuration.defaultConfiguration
        defer { Realm.Configuration.defaultConfiguration = saved }
        #expect(saved.fileURL?.lastPathComponent == "default.realm")
        #expect(saved.inMemoryIdentifier == nil)
        var configuration = Realm.Configuration()
        configuration.inMemoryIdentifier = "default-\(UUID().uuidString)"
        #expect(configuration.fileURL == nil)
        Realm.Configuration.defaultConfiguration = configuration
        let realm = try Realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        #expect(try Realm().objects(Dog.self).count == 1)
        #expect(realm.configuration == configuration)
    }

    @Test("without objectTypes the schema grows with every class used; with them it is fixed")
    func schemaGrowth() throws {
        let realm = try makeRealm()
        #expect(realm.schema.objectSchema.isEmpty)
        _ = realm.objects(Dog.self)
        #expect(Set(realm.schema.objectSchema.map(\.className)) == ["Dog", "DogToy"])
        try realm.write { realm.add(Person(value: ["id": 1])) }
        #expect(Set(realm.schema.objectSchema.map(\.className)) == ["Dog", "DogToy", "Person", "DogClub", "Address"])
        let fixed = try makeRealm([Dog.self, DogToy.self])
        #expect(Set(fixed.schema.objectSchema.map(\.className)) == ["Dog", "DogToy"])
    }
}
