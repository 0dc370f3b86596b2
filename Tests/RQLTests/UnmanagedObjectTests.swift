import Foundation
import Testing

@testable import RQL

@Suite("Unmanaged objects")
struct UnmanagedObjectTests {
    @Test("properties start at their declared values or the type's default, and hold what is set")
    func defaults() {
        let object = AllTypesObject()
        #expect(object.intCol == 0)
        #expect(object.stringCol == "")
        #expect(object.optStringCol == nil)
        #expect(object.anyCol == .none)
        #expect(object.enumCol == .vanilla)
        #expect(object.intList.isEmpty)
        #expect(object.dateCol == Date(timeIntervalSince1970: 0))
        // An id without an initial value is generated once, when first read.
        let id = object.id
        #expect(object.id == id)
        #expect(AllTypesObject().id != id)
        object.intCol = 7
        object.optStringCol = "x"
        object.enumCol = .chocolate
        #expect(object.intCol == 7)
        #expect(object.optStringCol == "x")
        #expect(object.enumCol == .chocolate)
        #expect(!object.isInvalidated)
        #expect(!object.isFrozen)
    }

    @Test("init(value:) fills from a dictionary, an array in property order, or nested values")
    func initWithValue() {
        let pluto = Dog(value: ["name": "Pluto", "age": 3])
        #expect(pluto.name == "Pluto")
        #expect(pluto.age == 3)
        #expect(pluto.color == "")
        let fido = Dog(value: ["Fido", 5])
        #expect(fido.name == "Fido")
        #expect(fido.age == 5)
        let jane = Person(value: ["id": 1, "name": "Jane", "dogs": [["Buster", 5], ["Buddy", 6]]])
        #expect(jane.dogs.map(\.name) == ["Buster", "Buddy"])
        let withExisting = Person(value: [2, "Ann", [pluto, fido]])
        #expect(withExisting.dogs[0] === pluto)
        let withAddress = Person(value: ["name": "Lee", "address": ["street": "Main", "city": "LA"]])
        #expect(withAddress.address?.city == "LA")
        let copy = Dog(value: pluto)
        #expect(copy.name == "Pluto" && copy !== pluto)
    }

    @Test("init(value:) converts numbers across widths and JSON's NSNumbers")
    func conversions() throws {
        let json = try JSONSerialization.jsonObject(
            with: Data(#"{"intCol": 3, "doubleCol": 2, "floatCol": 1.5, "boolCol": true, "optIntCol": null}"#.utf8)
        )
        let object = AllTypesObject(value: json)
        #expect(object.intCol == 3)
        #expect(object.doubleCol == 2)
        #expect(object.floatCol == 1.5)
        #expect(object.boolCol)
        #expect(object.optIntCol == nil)
        let small = AllTypesObject(value: ["int8Col": 100, "decimalCol": "1.5", "enumCol": "chocolate"])
        #expect(small.int8Col == 100)
        #expect(small.decimalCol == "1.5")
        #expect(small.enumCol == .chocolate)
    }

    @Test("values that do not fit are reported with the property and type")
    func assignErrors() {
        let dog = Dog()
        #expect(throws: ObjectValueError.self) { try dog._rqlAssign(from: ["age": "old"]) }
        do {
            try dog._rqlAssign(from: ["age": "old"])
        } catch {
            #expect(error.message == "'old' of type String is not a valid value for property 'age' of type 'Int'")
        }
        #expect(throws: ObjectValueError.self) { try dog._rqlAssign(from: Array(repeating: 1, count: 20)) }
        #expect(throws: ObjectValueError.self) { try AllTypesObject()._rqlAssign(from: ["int8Col": 1000]) }
    }

    @Test("subscript(key:) reads and writes persisted properties by name")
    func dynamicAccess() {
        let dog = Dog(value: ["name": "Rex"])
        #expect(dog["name"] as? String == "Rex")
        dog["age"] = 4
        #expect(dog.age == 4)
        #expect(dog.value(forKey: "age") as? Int == 4)
        #expect(dog["favoriteToy"] == nil)
        dog.favoriteToy = DogToy(value: ["name": "Ball"])
        #expect(dog.value(forKeyPath: "favoriteToy.name") as? String == "Ball")
        #expect(dog["firstLetter"] == nil)
    }

    @Test("description lists the persisted properties, nested objects indented")
    func description() {
        let dog = Dog(value: ["name": "Rex", "age": 10, "favoriteToy": ["name": "Ball"]])
        let text = dog.description
        #expect(text.hasPrefix("Dog {\n\tname = Rex;\n\tage = 10;\n"))
        #expect(text.contains("\tfavoriteToy = DogToy {\n\t\tid = "))
        #expect(text.contains("\t\tname = Ball;\n\t};"))
        #expect(text.hasSuffix("}"))
    }

    @Test("unmanaged objects are equal only to themselves")
    func identity() {
        let a = Dog()
        let b = Dog()
        #expect(a == a)
        #expect(a != b)
        #expect(a.isSameObject(as: a))
        #expect(!a.isSameObject(as: b))
        #expect(Set([a, b, a]).count == 2)
    }

    @Test("the object's schema is its class's")
    func objectSchema() {
        #expect(Person().objectSchema.className == "Person")
        #expect(Person().objectSchema.primaryKeyProperty?.name == "id")
    }

    @Test("an unmanaged object's linking objects are empty")
    func backlinks() {
        #expect(Person().clubs.isEmpty)
        #expect(Person().clubs.propertyName == "members")
    }
}

/// A model class may override `description`, as with Realm Swift's `Object`.
final class Described: Object {
    @Persisted var n = 1
    override var description: String { "Described(\(n))" }
}

@Suite("Overriding Object members")
struct OverrideTests {
    @Test("description can be overridden")
    func description() {
        #expect(Described().description == "Described(1)")
        #expect("\(Described(value: ["n": 2]))" == "Described(2)")
    }
}
