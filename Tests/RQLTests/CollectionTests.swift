import Foundation
import Testing

@testable import RQL

@Suite("Unmanaged collections")
struct CollectionTests {
    @Test("a list appends, inserts, removes, moves, swaps and replaces")
    func listMutation() {
        let list = List<String>()
        list.append("a")
        list.append(objectsIn: ["b", "c", "d"])
        list.insert("z", at: 0)
        #expect(Array(list) == ["z", "a", "b", "c", "d"])
        list.remove(at: 0)
        list.move(from: 0, to: 2)
        #expect(Array(list) == ["b", "c", "a", "d"])
        list.swapAt(0, 3)
        list.replace(index: 1, object: "x")
        list[2] = "y"
        #expect(Array(list) == ["d", "x", "y", "b"])
        list.removeFirst()
        list.removeLast(2)
        #expect(Array(list) == ["x"])
        list.insert(contentsOf: ["p", "q"], at: 1)
        list.removeSubrange(0..<1)
        #expect(Array(list) == ["p", "q"])
        #expect(list.index(of: "q") == 1)
        list.removeAll()
        #expect(list.isEmpty)
    }

    @Test("a list is a random-access, range-replaceable collection")
    func listCollection() {
        let list = List<Int>()
        list.append(objectsIn: [3, 1, 2])
        #expect(list.sorted() == [1, 2, 3])
        #expect(list.reduce(0, +) == 6)
        list.replaceSubrange(0..<2, with: [9])
        #expect(Array(list) == [9, 2])
        list.remove(atOffsets: IndexSet([0]))
        #expect(Array(list) == [2])
        list.append(objectsIn: [3, 4, 5])
        list.move(fromOffsets: IndexSet([0, 1]), toOffset: 4)
        #expect(Array(list) == [4, 5, 2, 3])
    }

    @Test("a list property of an unmanaged object is the object's own list")
    func listProperty() {
        let person = Person()
        person.dogs.append(Dog(value: ["name": "Rex"]))
        #expect(person.dogs.count == 1)
        let club = DogClub(name: "Pals", addresses: [Address(value: ["city": "Oslo"])])
        #expect(club.regionalOfficeAddresses.first?.city == "Oslo")
    }

    @Test("a set keeps one of each element and does set algebra")
    func setAlgebra() {
        let dog = Dog()
        dog.citiesVisited.insert(objectsIn: ["New York", "Toronto", "New York"])
        let dog2 = Dog()
        dog2.citiesVisited.insert(objectsIn: ["New York", "Toronto", "Boston"])
        #expect(dog.citiesVisited.count == 2)
        #expect(dog.citiesVisited.intersects(dog2.citiesVisited))
        #expect(dog.citiesVisited.isSubset(of: dog2.citiesVisited))
        #expect(!dog2.citiesVisited.isSubset(of: dog.citiesVisited))
        dog.citiesVisited.formUnion(dog2.citiesVisited)
        #expect(Set(dog.citiesVisited) == ["New York", "Toronto", "Boston"])
        dog.citiesVisited.subtract(dog2.citiesVisited)
        #expect(dog.citiesVisited.isEmpty)
        dog.citiesVisited.insert(objectsIn: ["A", "Boston"])
        dog.citiesVisited.formIntersection(dog2.citiesVisited)
        #expect(Array(dog.citiesVisited) == ["Boston"])
        dog.citiesVisited.remove("Boston")
        #expect(!dog.citiesVisited.contains("Boston"))
    }

    @Test("a map keeps its entries in key order; setting nil removes a key")
    func map() {
        let parks = Map<String, String>()
        parks["Chicago"] = "Millennium Park"
        parks["Boston"] = "Common"
        parks.updateValue("Grant Park", forKey: "Chicago")
        #expect(parks.keys == ["Boston", "Chicago"])
        #expect(parks.values == ["Common", "Grant Park"])
        #expect(parks["Chicago"] == "Grant Park")
        #expect(parks.map { "\($0.key)=\($0.value)" } == ["Boston=Common", "Chicago=Grant Park"])
        parks["Boston"] = nil
        #expect(parks.count == 1)
        parks.merge([(key: "Chicago", value: "X"), (key: "Oslo", value: "Y")]) { old, _ in old }
        #expect(parks["Chicago"] == "Grant Park")
        #expect(parks["Oslo"] == "Y")
        #expect(parks.contains { $1 == "Y" })
        parks.removeObject(for: "Oslo")
        parks.removeAll()
        #expect(parks.count == 0)
    }

    @Test("collections encode like arrays and dictionaries")
    func codable() throws {
        let list = List<Int>()
        list.append(objectsIn: [1, 2])
        #expect(String(decoding: try JSONEncoder().encode(list), as: UTF8.self) == "[1,2]")
        let decoded = try JSONDecoder().decode(List<Int>.self, from: Data("[3,4]".utf8))
        #expect(Array(decoded) == [3, 4])
        let map = try JSONDecoder().decode(Map<String, Int>.self, from: Data(#"{"b":2,"a":1}"#.utf8))
        #expect(map.keys == ["a", "b"])
    }
}
