import Testing

@testable import RQL

@Suite("Key path recording")
struct KeyPathRecordingTests {
    @Test("a key path to a persisted property records its name")
    func simple() {
        #expect(KeyPathRecording.names(of: \Dog.age, on: Dog.self) == ["age"])
        #expect(KeyPathRecording.names(of: \Person.id, on: Person.self) == ["id"])
    }

    @Test("links and optional chaining record every step")
    func throughLinks() {
        #expect(KeyPathRecording.names(of: \Dog.favoriteToy?.name, on: Dog.self) == ["favoriteToy", "name"])
        #expect(KeyPathRecording.names(of: \Person.address?.city, on: Person.self) == ["address", "city"])
    }

    @Test("private @Persisted properties are recorded too; non-persisted ones record nothing")
    func persistedOnly() {
        #expect(KeyPathRecording.names(of: \Dog.firstLetter, on: Dog.self) == ["name"])
        #expect(Dog._rqlQueryPropertyName(for: \Dog.firstLetter) == "name")
        #expect(KeyPathRecording.names(of: \NoPersistedProperties.a, on: NoPersistedProperties.self) == nil)
    }

    @Test("recording leaves the prototypes quiet and ordinary objects unaffected")
    func noSideEffects() throws {
        _ = KeyPathRecording.names(of: \Person.address?.city, on: Person.self)
        let info = try ClassInfo.info(for: Person.self)
        #expect(info.prototype._rqlRecording == nil)
        let person = Person(value: ["name": "Ann"])
        #expect(person.name == "Ann")
    }
}
