import Foundation
import Testing

@testable import RQL

/// The README's object-model example runs as written: the code between the markers below is
/// the README's, line for line (the second test checks that they have not drifted apart).
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the example runs and prints what the README says")
    func example() throws {
        // README example begin
        class DogToy: Object {
            @Persisted var name = ""
        }

        class Dog: Object {
            @Persisted var name = ""
            @Persisted var age = 0
            @Persisted var favoriteToy: DogToy?
        }

        class Person: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted var name = ""
            @Persisted var dogs: List<Dog>
        }

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pets-\(UUID().uuidString).realm")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Person.self, Dog.self, DogToy.self])

        do {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                let ann = Person(value: ["id": 1, "name": "Ann"])
                ann.dogs.append(Dog(value: ["name": "Rex", "age": 10, "favoriteToy": ["name": "Tennis ball"]]))
                ann.dogs.append(Dog(value: ["name": "Fido", "age": 3]))
                realm.add(ann)
                realm.create(Dog.self, value: ["name": "Spot", "age": 1])
            }
        }  // the last reference to the realm is gone: it is closed

        let realm = try Realm(configuration: configuration)  // opens the file again
        let dogs = realm.objects(Dog.self)
        let puppies = dogs.filter("age < %@", 2)  // NSPredicate format, as Realm Swift takes it
        let oldies = try dogs.query("age >= $0 SORT(name ASC)", 3)  // RQL, checked: throws on a bad query
        let tennis = dogs.where { $0.favoriteToy.name == "Tennis ball" }  // type-safe, bound like the text
        let byAge = dogs.sorted(byKeyPath: "age", ascending: false)
        let totalAge: Int = dogs.sum(ofProperty: "age")
        let ann = realm.object(ofType: Person.self, forPrimaryKey: 1)
        print(puppies.map(\.name), oldies.map(\.name), tennis.first?.name ?? "-", byAge.map(\.name), totalAge)
        // ["Spot"] ["Fido", "Rex"] Rex ["Rex", "Fido", "Spot"] 14
        print(ann?.dogs.map(\.name) ?? [])
        // ["Rex", "Fido"]
        // README example end

        #expect(puppies.map(\.name) == ["Spot"])
        #expect(oldies.map(\.name) == ["Fido", "Rex"])
        #expect(tennis.first?.name == "Rex")
        #expect(byAge.map(\.name) == ["Rex", "Fido", "Spot"])
        #expect(totalAge == 14)
        #expect(ann?.dogs.map(\.name) == ["Rex", "Fido"])
    }

    @Test("the README shows the example exactly as this file runs it")
    func inSync() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let test = try String(contentsOf: here, encoding: .utf8)

        func lines(_ text: some StringProtocol) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let testLines = lines(test)
        let begin = try #require(testLines.firstIndex(of: "// README example begin"))
        let end = try #require(testLines.firstIndex(of: "// README example end"))
        let example = Array(testLines[(begin + 1)..<end])

        let readmeLines = lines(readme)
        let marker = "<!-- example: Tests/RQLTests/ReadmeExampleTests.swift -->"
        let start = try #require(readmeLines.firstIndex(of: marker))
        let open = try #require(readmeLines[start...].firstIndex(of: "```swift"))
        let close = try #require(readmeLines[(open + 1)...].firstIndex(of: "```"))
        var shown = Array(readmeLines[(open + 1)..<close])
        #expect(shown.first == "import RQL")
        shown.removeFirst(2)  // `import RQL` and the blank line after it
        #expect(shown == example)
    }
}
