import Foundation
import RQL

/// A fresh in-memory realm for one test: a unique identifier, so tests running in parallel
/// never share a store.
func makeRealm(_ objectTypes: [ObjectBase.Type]? = nil, name: String = #function) throws -> Realm {
    var configuration = Realm.Configuration(inMemoryIdentifier: "\(name)-\(UUID().uuidString)")
    configuration.objectTypes = objectTypes
    return try Realm(configuration: configuration)
}

/// The reading guide's realm with four dogs (Rex, Wolfie, Fido, Spot), two toys, a person with
/// two dogs and an address, and a club.
func makeSeedRealm(name: String = #function) throws -> Realm {
    let realm = try makeRealm(name: name)
    try realm.write {
        let tennis = DogToy(value: ["id": ObjectId("11223344556677889900aabb"), "name": "Tennis ball"])
        let rope = DogToy(value: ["name": "Rope"])
        let rex = Dog(value: ["name": "Rex", "age": 10, "color": "tan"])
        rex.favoriteToy = tennis
        rex.citiesVisited.insert(objectsIn: ["New York", "Toronto"])
        rex.favoriteParksByCity["Chicago"] = "Millennium Park"
        let wolfie = Dog(value: ["name": "Wolfie", "age": 1, "color": "tan"])
        wolfie.companion = .string("Fluffy the Cat")
        wolfie.favoriteToy = rope
        wolfie.citiesVisited.insert(objectsIn: ["New York", "Toronto", "Boston"])
        let fido = Dog(value: ["name": "Fido", "age": 3, "color": "black"])
        let spot = Dog(value: ["name": "Spot", "age": 6, "color": "brown"])
        fido.companion = .object(spot)
        let person = Person(value: ["id": 12345, "name": "Ann"])
        person.dogs.append(objectsIn: [rex, wolfie])
        let address = Address()
        address.city = "Los Angeles"
        address.street = "1 Main St"
        person.address = address
        let club = DogClub(name: "Pooch Pals", addresses: [])
        club.members.append(person)
        realm.add([rex, wolfie, fido, spot])
        realm.add(club)
    }
    return realm
}
