import Foundation
import Testing

@testable import RQL

// The models of the older community guide (../shared/seeds/003_*.txt), in today's declaration
// style (`@Persisted` for `dynamic var`, `List<T>` properties for `let value = List<T>()`).

final class Book: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var price = 0.0
}

final class Animal: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Owner: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var pets: List<Animal>
    @Persisted var isFirst = false
    @Persisted var planet = ""
}

final class City: Object {
    @Persisted var city = ""
    @Persisted(primaryKey: true) var id = 0
    @Persisted var population: Int?
}

/// The writes of seed 003 with their documented results: creating objects from values, adding,
/// updating by primary key, key-value coding, deleting, auto-updating objects and results,
/// JSON import.
@Suite("Community guide writes (seed 003)")
struct SeedWriteTests {
    @Test("creating objects by setting properties, from a dictionary and from an array")
    func creatingObjects() throws {
        let realm = try makeRealm()
        let myDog = Animal()
        myDog.name = "Rex"
        myDog.age = 10
        let myOtherDog = Animal(value: ["name": "Pluto", "age": 3])
        let myThirdDog = Animal(value: ["Fido", 5])
        try realm.write { realm.add([myDog, myOtherDog, myThirdDog]) }
        let pets = realm.objects(Animal.self).sorted(byKeyPath: "age")
        #expect(pets.map(\.name) == ["Pluto", "Fido", "Rex"])
        #expect(pets.map(\.age) == [3, 5, 10])
    }

    @Test("nested objects: existing ones, or created inline from arrays")
    func nestedObjects() throws {
        let realm = try makeRealm()
        let aDog = Animal(value: ["Buster", 5])
        let anotherDog = Animal(value: ["Buddy", 6])
        let aPerson = Owner(value: ["Jane", 30, [aDog, anotherDog]])
        let anotherPerson = Owner(value: ["Jane", 30, [["Buster", 5], ["Buddy", 6]]])
        try realm.write { realm.add([aPerson, anotherPerson]) }
        #expect(realm.objects(Owner.self).count == 2)
        #expect(realm.objects(Animal.self).count == 4)
        #expect(aPerson.pets.map(\.name) == ["Buster", "Buddy"])
        #expect(anotherPerson.pets.map(\.age) == [5, 6])
        #expect(aDog.realm != nil)
    }

    @Test("adding an object, then updating it in a transaction")
    func addingAndUpdating() throws {
        let realm = try makeRealm()
        let author = Owner()
        author.name = "David Foster Wallace"
        try realm.write { realm.add(author) }
        try realm.write { author.name = "Thomas Pynchon" }
        #expect(realm.objects(Owner.self).first?.name == "Thomas Pynchon")
    }

    @Test("auto-updating objects: a change through one accessor is seen by every other")
    func autoUpdatingObjects() throws {
        let realm = try makeRealm()
        let myDog = Animal()
        myDog.name = "Fido"
        myDog.age = 1
        try realm.write { realm.add(myDog) }
        let myPuppy = realm.objects(Animal.self).filter("age == 1").first
        try realm.write { myPuppy!.age = 2 }
        #expect("age of my dog: \(myDog.age)" == "age of my dog: 2")
    }

    @Test("add with an update policy replaces the object with the same primary key")
    func addUpdatingByPrimaryKey() throws {
        let realm = try makeRealm()
        try realm.write { realm.add(Book(value: ["id": 1, "title": "Cheese", "price": 10.0])) }
        let cheeseBook = Book()
        cheeseBook.title = "Cheese recipes"
        cheeseBook.price = 9000
        cheeseBook.id = 1
        try realm.write { realm.add(cheeseBook, update: .modified) }
        let books = realm.objects(Book.self)
        #expect(books.count == 1)
        #expect(books.first?.title == "Cheese recipes")
        #expect(books.first?.price == 9000)
        #expect(cheeseBook.realm != nil)
        #expect(cheeseBook == books.first)
    }

    @Test("create with an update policy sets only the given properties: the title stays")
    func createUpdatingByPrimaryKey() throws {
        let realm = try makeRealm()
        try realm.write { realm.add(Book(value: ["id": 1, "title": "Cheese recipes", "price": 10.0])) }
        // Assuming a "Book" with a primary key of `1` already exists.
        try realm.write {
            realm.create(Book.self, value: ["id": 1, "price": 9000.0], update: .modified)
            // the book's `title` property will remain unchanged.
        }
        let book = try #require(realm.object(ofType: Book.self, forPrimaryKey: 1))
        #expect(book.title == "Cheese recipes")
        #expect(book.price == 9000)
        #expect(realm.objects(Book.self).count == 1)
    }

    @Test("key-value coding on one object and on every result")
    func keyValueCoding() throws {
        let realm = try makeRealm()
        try realm.write { realm.add([Owner(value: ["name": "A"]), Owner(value: ["name": "B"])]) }
        let persons = realm.objects(Owner.self)
        try realm.write {
            persons.first?.setValue(true, forKeyPath: "isFirst")
            // set each person's planet property to "Earth"
            persons.setValue("Earth", forKeyPath: "planet")
        }
        #expect(persons.map(\.isFirst) == [true, false])
        #expect(persons.map(\.planet) == ["Earth", "Earth"])
        #expect(persons.value(forKey: "name") as? [Any] != nil)
        #expect((persons.value(forKey: "name") as? [Any])?.compactMap { $0 as? String } == ["A", "B"])
    }

    @Test("deleting an object, a list's objects, results' objects, and everything")
    func deleting() throws {
        let realm = try makeRealm()
        let cheeseBook = Book(value: ["id": 1, "title": "Cheese"])
        let owner = Owner(value: ["name": "Ann", "pets": [["A", 1], ["B", 2]]])
        try realm.write {
            realm.add(cheeseBook)
            realm.add(owner)
            realm.add([Animal(value: ["C", 3]), Animal(value: ["D", 4])])
        }
        try realm.write {
            // Delete an object with a transaction
            realm.delete(cheeseBook)
        }
        #expect(cheeseBook.isInvalidated)
        #expect(realm.objects(Book.self).isEmpty)
        try realm.write { realm.delete(owner.pets) }
        #expect(owner.pets.isEmpty)
        #expect(realm.objects(Animal.self).map(\.name) == ["C", "D"])
        try realm.write { realm.delete(realm.objects(Animal.self).filter("age > 3")) }
        #expect(realm.objects(Animal.self).map(\.name) == ["C"])
        try realm.write {
            // Delete all objects from the realm
            realm.deleteAll()
        }
        #expect(realm.isEmpty)
        #expect(owner.isInvalidated)
    }

    @Test("auto-updating results: a query sees an object created after it")
    func autoUpdatingResults() throws {
        let realm = try makeRealm()
        let puppies = realm.objects(Animal.self).filter("age < 2")
        #expect(puppies.count == 0)
        try realm.write {
            realm.create(Animal.self, value: ["name": "Fido", "age": 1])
        }
        #expect(puppies.count == 1)
    }

    @Test("limiting results by reading only the first five")
    func limitingResults() throws {
        let realm = try makeRealm()
        try realm.write { realm.add((0..<8).map { Animal(value: ["name": "P\($0)", "age": $0]) }) }
        let dogs = realm.objects(Animal.self)
        var names: [String] = []
        for i in 0..<5 { names.append(dogs[i].name) }
        #expect(names == ["P0", "P1", "P2", "P3", "P4"])
    }

    @Test("sorting filtered results by name, in both directions")
    func sortingFilteredResults() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.add([Dog(value: ["name": "Bo", "color": "tan"]), Dog(value: ["name": "Ben", "color": "tan"])])
            realm.add(Dog(value: ["name": "Bill", "color": "black"]))
        }
        let sortedDogs = realm.objects(Dog.self).filter("color = 'tan' AND name BEGINSWITH 'B'").sorted(
            byKeyPath: "name"
        )
        #expect(sortedDogs.map(\.name) == ["Ben", "Bo"])
        let reversed = realm.objects(Dog.self).filter("color = 'tan' AND name BEGINSWITH 'B'")
            .sorted(byKeyPath: "name", ascending: false)
        #expect(reversed.map(\.name) == ["Bo", "Ben"])
    }

    @Test("many objects created from dictionaries, one transaction per batch with beginWrite and commitWrite")
    func batchedTransactions() throws {
        let realm = try makeRealm()
        for batch in 0..<3 {
            realm.beginWrite()
            for index in 0..<100 {
                realm.create(Animal.self, value: ["name": "\(batch)", "age": index])
            }
            try realm.commitWrite()
        }
        #expect(realm.objects(Animal.self).count == 300)
        #expect(realm.objects(Animal.self).filter("name == '2'").count == 100)
    }

    @Test("JSON import: JSONSerialization's objects become objects, extra keys ignored, update by primary key")
    func jsonImport() throws {
        let realm = try makeRealm()
        let data = Data(#"{"city": "Oslo", "id": 7, "population": 700000, "country": "NO"}"#.utf8)
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: data, options: [])
            realm.create(City.self, value: json, update: .modified)
        }
        let city = try #require(realm.object(ofType: City.self, forPrimaryKey: 7))
        #expect(city.city == "Oslo")
        #expect(city.population == 700000)
        let update = Data(#"{"id": 7, "population": 710000}"#.utf8)
        try realm.write {
            realm.create(
                City.self,
                value: try JSONSerialization.jsonObject(with: update, options: []),
                update: .modified
            )
        }
        #expect(city.population == 710000)
        #expect(city.city == "Oslo")
        let list = Data(#"[{"city": "Bergen", "id": 8}, {"city": "Bodø", "id": 9, "population": null}]"#.utf8)
        try realm.write {
            for item in try JSONSerialization.jsonObject(with: list, options: []) as! [Any] {
                realm.create(City.self, value: item, update: .all)
            }
        }
        #expect(realm.objects(City.self).sorted(byKeyPath: "id").map(\.city) == ["Oslo", "Bergen", "Bodø"])
        #expect(realm.object(ofType: City.self, forPrimaryKey: 9)?.population == nil)
    }

    @Test("JSON null for a required property is an error the commit throws")
    func jsonNullForRequiredProperty() throws {
        let realm = try makeRealm()
        let data = Data(#"{"city": null, "id": 1}"#.utf8)
        #expect(throws: Realm.Error.self) {
            try realm.write {
                realm.create(City.self, value: try JSONSerialization.jsonObject(with: data, options: []))
            }
        }
        #expect(realm.objects(City.self).isEmpty)
    }

    @Test("class subsets: a realm holds only its configured classes")
    func classSubsets() throws {
        let realm = try makeRealm([Animal.self, Book.self])
        #expect(realm.schema.objectSchema.map(\.className).sorted() == ["Animal", "Book"])
        try realm.write { realm.add(Animal(value: ["name": "Rex"])) }
        #expect(realm.objects(Animal.self).count == 1)
    }

    @Test("in-memory realms with one identifier share their data while open")
    func inMemoryRealms() throws {
        let identifier = "shared-\(UUID().uuidString)"
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
        try realm.write { realm.add(Animal(value: ["name": "Rex"])) }
        let other = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
        #expect(other.objects(Animal.self).count == 1)
        let elsewhere = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier + "-other"))
        #expect(elsewhere.objects(Animal.self).isEmpty)
    }

    @Test("copying an object into a realm with create")
    func copyingBetweenRealms() throws {
        let source = try makeRealm(name: "source")
        let target = try makeRealm(name: "target")
        let original = Animal(value: ["name": "Rex", "age": 3])
        try source.write { source.add(original) }
        let copy = try target.write { target.create(Animal.self, value: original) }
        #expect(copy.name == "Rex")
        #expect(copy.age == 3)
        #expect(copy.realm == target)
        #expect(target.objects(Animal.self).count == 1)
        #expect(source.objects(Animal.self).count == 1)
    }
}
