import Foundation
import Testing

@testable import RQL

/// Every example of the reading guide (../shared/seeds/000_*.txt), on its model, with the
/// results the guide documents. `makeSeedRealm` holds the guide's four dogs (Rex, Wolfie,
/// Fido, Spot), their toys, and person 12345 with Rex and Wolfie, an address and a club.
@Suite("Reading guide examples (seed 000)")
struct SeedReadTests {
    @Test("a specific object by primary key, and its relationships")
    func primaryKeyAndRelationships() throws {
        let realm = try makeSeedRealm()
        let specificPerson = realm.object(ofType: Person.self, forPrimaryKey: 12345)
        let specificPersonDogs = try #require(specificPerson).dogs
        let firstDog = specificPersonDogs[0]
        #expect("# dogs: \(specificPersonDogs.count)" == "# dogs: 2")
        #expect("First dog's name: \(firstDog.name)" == "First dog's name: Rex")
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 54321) == nil)
    }

    @Test("an inverse relationship through linking objects")
    func inverseRelationship() throws {
        let realm = try makeRealm()
        let person = Person()
        person.id = 12345
        let club = DogClub()
        club.name = "Pooch Pals"
        club.members.append(person)
        try realm.write {
            realm.add(club)
        }
        let specificPerson = realm.object(ofType: Person.self, forPrimaryKey: 12345)
        let clubs = try #require(specificPerson).clubs
        let firstClub = clubs[0]
        #expect("# memberships: \(clubs.count)" == "# memberships: 1")
        #expect("First club's name: \(firstClub.name)" == "First club's name: Pooch Pals")
    }

    @Test("all objects of a type")
    func allObjects() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect(Set(dogs.map(\.name)) == ["Rex", "Wolfie", "Fido", "Spot"])
    }

    @Test("filtering by properties with where and with filter, including through a to-one link")
    func filtering() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        let puppies = dogs.where { $0.age < 2 }
        let dogsWithoutFavoriteToy = dogs.where { $0.favoriteToy == nil }
        let dogsWhoLikeTennisBalls = dogs.where { $0.favoriteToy.name == "Tennis ball" }
        #expect(puppies.map(\.name) == ["Wolfie"])
        #expect(dogsWithoutFavoriteToy.map(\.name) == ["Fido", "Spot"])
        #expect(dogsWhoLikeTennisBalls.map(\.name) == ["Rex"])
        #expect(dogs.filter("age < 2").map(\.name) == ["Wolfie"])
        #expect(dogs.filter("favoriteToy == nil").map(\.name) == ["Fido", "Spot"])
        #expect(dogs.filter("favoriteToy.name == 'Tennis ball'").map(\.name) == ["Rex"])
        #expect(dogs.filter("favoriteToy.name == %@", "Tennis ball").map(\.name) == ["Rex"])
    }

    @Test("an ObjectId property compares with ObjectId values, never with strings")
    func objectIdFilter() throws {
        let realm = try makeSeedRealm()
        let dogToys = realm.objects(DogToy.self)
        let specificToy = dogToys.where { $0.id == ObjectId("11223344556677889900aabb") }
        #expect(specificToy.map(\.name) == ["Tennis ball"])
        let byFilter = dogToys.filter("id = %@", ObjectId("11223344556677889900aabb")).first
        #expect(byFilter?.name == "Tennis ball")
        // WRONG in the guide: Realm will not convert the string to an object id.
        #expect(throws: Realm.QueryError.self) { try dogToys.query("id = '11223344556677889900aabb'") }
        #expect(throws: Realm.QueryError.self) { try dogToys.query("id = %@", "11223344556677889900aabb") }
    }

    @Test("embedded object properties by dot notation, sorted by one of them")
    func embeddedObjects() throws {
        let realm = try makeSeedRealm()
        try realm.write {
            realm.add(
                Person(value: ["id": 2, "name": "Bo", "address": ["city": "Los Angeles", "street": "0 Elm St"]])
            )
            realm.add(Person(value: ["id": 3, "name": "Cy", "address": ["city": "Oslo", "street": "9 Ring Rd"]]))
        }
        let losAngelesPeople = realm.objects(Person.self)
            .where { $0.address.city == "Los Angeles" }
            .sorted(byKeyPath: "address.street")
        #expect(losAngelesPeople.map(\.name) == ["Bo", "Ann"])
        let byFilter = realm.objects(Person.self).filter("address.city = %@", "Los Angeles")
            .sorted(byKeyPath: "address.street")
        #expect(byFilter.map(\.name) == ["Bo", "Ann"])
        #expect(losAngelesPeople.description.hasPrefix("Results<Person> ("))
    }

    @Test("a map: its count in a query, its keys and its entries")
    func mapProperty() throws {
        let realm = try makeSeedRealm()
        let dogsWithFavoriteParks = realm.objects(Dog.self).where { $0.favoriteParksByCity.count >= 1 }
        var lines: [String] = []
        for dog in dogsWithFavoriteParks {
            if dog.favoriteParksByCity.keys.contains("Chicago") {
                lines.append("\(dog.name) has a favorite park in Chicago")
            }
            for element in dog.favoriteParksByCity {
                lines.append("\(dog.name)'s favorite park in \(element.key) is \(element.value)")
            }
        }
        #expect(
            lines == [
                "Rex has a favorite park in Chicago", "Rex's favorite park in Chicago is Millennium Park",
            ]
        )
    }

    @Test("a mutable set: contains in a query, intersects and isSubset")
    func mutableSetProperty() throws {
        let realm = try makeSeedRealm()
        let newYorkDogs = realm.objects(Dog.self).where { $0.citiesVisited.contains("New York") }
        #expect(newYorkDogs.map(\.name) == ["Rex", "Wolfie"])
        let dog = newYorkDogs[0]
        let dog2 = newYorkDogs[1]
        let isInBothCitiesVisited = dog.citiesVisited.intersects(dog2.citiesVisited)
        #expect("The two dogs have visited some of the same cities: \(isInBothCitiesVisited)".hasSuffix("true"))
        let isSubset = dog.citiesVisited.isSubset(of: dog2.citiesVisited)
        #expect(isSubset)
        #expect(!dog2.citiesVisited.isSubset(of: dog.citiesVisited))
    }

    @Test("an AnyRealmValue property read by checking its case")
    func anyRealmValue() throws {
        let realm = try makeSeedRealm()
        var lines: [String] = []
        for dog in realm.objects(Dog.self) {
            if case let .string(companion) = dog.companion {
                lines.append("\(dog.name)'s companion is: \(companion)")
            }
            switch dog.companion {
            case .string:
                break
            case .object(let companion):
                lines.append("\(dog.name)'s companion is: \((companion as? Dog)?.name ?? "?")")
            case .none:
                lines.append("\(dog.name) has no companion")
            default:
                lines.append("\(dog.name)'s companion is another type.")
            }
        }
        #expect(
            lines == [
                "Rex has no companion", "Wolfie's companion is: Fluffy the Cat", "Fido's companion is: Spot",
                "Spot has no companion",
            ]
        )
    }

    @Test("sorting by a typed key path, by a key path name, and through a link")
    func sorting() throws {
        let realm = try makeSeedRealm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.sorted(by: \.name).map(\.name) == ["Fido", "Rex", "Spot", "Wolfie"])
        #expect(dogs.sorted(byKeyPath: "name", ascending: false).map(\.name) == ["Wolfie", "Spot", "Rex", "Fido"])
        // Dogs without a favorite toy have no key to sort by: realm-core puts them last ascending.
        let dogsSortedByFavoriteToyName = dogs.sorted(byKeyPath: "favoriteToy.name")
        #expect(dogsSortedByFavoriteToyName.map(\.name) == ["Wolfie", "Rex", "Fido", "Spot"])
    }

    @Test("sectioned results by a computed first letter: the guide's keys and first section")
    func sectionedResults() throws {
        let realm = try makeSeedRealm()
        let dogsByFirstLetter: SectionedResults<String, Dog> = realm.objects(Dog.self)
            .sectioned(by: \.firstLetter, ascending: true)
        #expect(dogsByFirstLetter.count == 4)
        #expect(dogsByFirstLetter.allKeys == ["F", "R", "S", "W"])
        #expect("Key for index 0: \(dogsByFirstLetter[0].key)" == "Key for index 0: F")
        let dogsByF = dogsByFirstLetter[0]
        #expect(dogsByF.first?.name == "Fido")
        #expect(dogsByFirstLetter[IndexPath(item: 0, section: 3)].name == "Wolfie")

        let results = realm.objects(Dog.self)
        let sectionedResults = results.sectioned(
            by: { String($0.name.first!) },
            sortDescriptors: [SortDescriptor(keyPath: "name", ascending: true)]
        )
        #expect(sectionedResults.allKeys == ["F", "R", "S", "W"])
    }

    @Test("sectioned results are live: a new dog adds a section")
    func sectionedResultsAreLive() throws {
        let realm = try makeSeedRealm()
        let sections = realm.objects(Dog.self).sectioned(by: \.firstLetter, ascending: true)
        #expect(sections.allKeys == ["F", "R", "S", "W"])
        try realm.write { realm.add(Dog(value: ["name": "Ace"])) }
        #expect(sections.allKeys == ["A", "F", "R", "S", "W"])
        let frozen = sections.freeze()
        try realm.write { realm.add(Dog(value: ["name": "Bo"])) }
        #expect(frozen.allKeys == ["A", "F", "R", "S", "W"])
        #expect(sections.count == 6)
    }

    @Test("aggregate operators over a list, in where closures and in filter strings")
    func aggregates() throws {
        let realm = try makeSeedRealm()
        try realm.write {
            let dogs = realm.objects(Dog.self)
            func dog(_ name: String) -> Dog { dogs.filter("name == %@", name).first! }
            realm.create(Person.self, value: ["id": 2, "name": "Carl", "dogs": [dog("Spot"), dog("Rex")]])
            realm.create(Person.self, value: ["id": 3, "name": "Dan", "dogs": [dog("Wolfie")]])
            realm.create(
                Person.self,
                value: ["id": 4, "name": "Fay", "dogs": [dog("Fido"), dog("Spot"), dog("Spot")]]
            )
        }
        let people = realm.objects(Person.self)
        // People whose dogs' average age is 5
        #expect(people.where { $0.dogs.age.avg == 5 }.map(\.name) == ["Fay"])
        #expect(people.filter("dogs.@avg.age == 5").map(\.name) == ["Fay"])
        // People with older dogs
        #expect(people.where { $0.dogs.age.min > 5 }.map(\.name) == ["Carl"])
        #expect(people.filter("dogs.@min.age > 5").map(\.name) == ["Carl"])
        // People with younger dogs
        #expect(people.where { $0.dogs.age.max < 2 }.map(\.name) == ["Dan"])
        #expect(people.filter("dogs.@max.age < 2").map(\.name) == ["Dan"])
        // People with many dogs
        #expect(people.where { $0.dogs.count > 2 }.map(\.name) == ["Fay"])
        #expect(people.filter("dogs.@count > 2").map(\.name) == ["Fay"])
        // People whose dogs' ages combined > 10 years
        #expect(people.where { $0.dogs.age.sum > 10 }.map(\.name) == ["Ann", "Carl", "Fay"])
        #expect(people.filter("dogs.@sum.age > 10").map(\.name) == ["Ann", "Carl", "Fay"])
    }

    @Test("chained queries narrow one lazy plan")
    func chainedQueries() throws {
        let realm = try makeSeedRealm()
        try realm.write { realm.add(Dog(value: ["name": "Buster", "age": 4, "color": "tan"])) }
        let tanDogs = realm.objects(Dog.self).where { $0.color == "tan" }
        let tanDogsWithBNames = tanDogs.where { $0.name.starts(with: "B") }
        #expect(tanDogs.count == 3)
        #expect(tanDogsWithBNames.map(\.name) == ["Buster"])
        let byFilter = realm.objects(Dog.self).filter("color = 'tan'").filter("name BEGINSWITH 'B'")
        #expect(byFilter.map(\.name) == ["Buster"])
        #expect(byFilter.explain() == tanDogsWithBNames.explain())
    }

    @Test("class projections read from realm.objects")
    func classProjections() throws {
        let realm = try makeRealm()
        try realm.write {
            let ann = Friend(value: ["firstName": "Ann", "address": ["city": "Oslo", "country": "NO"]])
            ann.friends.append(Friend(value: ["firstName": "Bo"]))
            realm.add(ann)
        }
        let people = realm.objects(FriendProjection.self).filter("firstName == 'Ann'")
        #expect(people.first?.firstName == "Ann")
        #expect(people.first?.homeCity == "Oslo")
        #expect(people.first.map { Array($0.firstFriendsName) } == ["Bo"])
        #expect(realm.objects(FriendProjection.self).count == 2)
        #expect(realm.objects(FriendProjection.self).sorted(byKeyPath: "firstName").map(\.firstName) == ["Ann", "Bo"])
    }

    @Test("geospatial queries with circles, boxes and polygons, in both query forms")
    func geospatial() throws {
        let realm = try makeRealm()
        try realm.write {
            let company1 = Geospatial_Company()
            company1.location = CustomGeoPoint(47.68, -122.35)
            let company2 = Geospatial_Company(CustomGeoPoint(47.9, -121.85))
            realm.add([company1, company2])
        }
        let companies = realm.objects(Geospatial_Company.self)
        let smallCircle = GeoCircle(center: (47.3, -121.9), radiusInRadians: 0.004363323)
        let largeCircle = GeoCircle(
            center: GeoPoint(latitude: 47.8, longitude: -122.6)!,
            radius: Distance.kilometers(44.4)!
        )
        // Both companies lie more than 0.25° from the small circle's centre; within 44.4 km of
        // the large one's: (47.68, -122.35) is about 22 km away, (47.9, -121.85) about 57 km.
        #expect(companies.where { $0.location.geoWithin(smallCircle!) }.count == 0)
        #expect(companies.filter("location IN %@", largeCircle!).count == 1)
        let largeBox = GeoBox(bottomLeft: (47.3, -122.7), topRight: (48.1, -122.1))
        let smallBox = GeoBox(
            bottomLeft: GeoPoint(latitude: 47.5, longitude: -122.4)!,
            topRight: GeoPoint(latitude: 47.9, longitude: -121.8)!
        )
        // (47.68, -122.35) is well inside the small box ((47.9, -121.85) lies on its edge).
        #expect(companies.where { $0.location.geoWithin(smallBox) }.contains { $0.location?.latitude == 47.68 })
        #expect(companies.filter("location IN %@", largeBox!).count == 1)
        let basicPolygon = GeoPolygon(outerRing: [
            (48.0, -122.8), (48.2, -121.8), (47.6, -121.6), (47.0, -122.0), (47.2, -122.6), (48.0, -122.8),
        ])
        #expect(companies.where { $0.location.geoWithin(basicPolygon!) }.count == 2)
    }
}
