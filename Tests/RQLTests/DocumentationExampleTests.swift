import Foundation
import RQLDatasets
import RQLEngine
import RQLStorage
import Testing

@testable import RQL

/// The documentation's Swift examples (`Sources/RQL/RQL.docc`, `Sources/RQLEngine/RQLEngine.docc`)
/// compile and do what the text around them says: every example below stands in the articles
/// (paragraph by paragraph, whitespace aside), and the last test checks that every example of
/// the articles stands here.
@Suite("Documentation examples", .serialized)
struct DocumentationExampleTests {
    @Test("the landing page: a model, a write and a checked query")
    func landing() throws {
        typealias Dog = LandingDocs.Dog

        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "pets"))
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 10]))
        }
        let oldies = try realm.objects(Dog.self).query("age >= $0 SORT(name ASC)", 3)
        print(oldies.map(\.name))  // ["Rex"]
        #expect(oldies.map(\.name) == ["Rex"])
    }

    @Test("getting started: open a file, write, read four ways")
    func gettingStarted() throws {
        typealias Person = StartDocs.Person
        typealias Dog = StartDocs.Dog
        typealias DogToy = StartDocs.DogToy
        try? FileManager.default.removeItem(
            at: FileManager.default.temporaryDirectory.appendingPathComponent("pets.realm")
        )

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pets.realm")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Person.self, Dog.self, DogToy.self])
        let realm = try Realm(configuration: configuration)

        try realm.write {
            let ann = Person(value: ["id": 1, "name": "Ann"])
            ann.dogs.append(Dog(value: ["name": "Rex", "age": 10, "favoriteToy": ["name": "Tennis ball"]]))
            ann.dogs.append(Dog(value: ["name": "Fido", "age": 3]))
            realm.add(ann)
        }

        let dogs = realm.objects(Dog.self)
        let puppies = dogs.filter("age < %@", 2)  // NSPredicate format
        let oldies = try dogs.query("age >= $0 SORT(name ASC)", 3)  // RQL, throws on a bad query
        let tennis = dogs.where { $0.favoriteToy.name == "Tennis ball" }  // type-safe closure
        let ann = realm.object(ofType: Person.self, forPrimaryKey: 1)

        #expect(puppies.isEmpty)
        #expect(oldies.map(\.name) == ["Fido", "Rex"])
        #expect(tennis.map(\.name) == ["Rex"])
        #expect(ann?.dogs.map(\.name) == ["Rex", "Fido"])
    }

    @Test("defining models: every property kind, inverse links, embedded objects")
    func definingModels() throws {
        typealias Book = ModelDocs.Book
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "docs-models",
            objectTypes: [
                Book.self, ModelDocs.Chapter.self, ModelDocs.Author.self, LinkDocs.Person.self, LinkDocs.Dog.self,
                EmbeddedDocs.Contact.self, EmbeddedDocs.Address.self,
            ]
        )
        let realm = try Realm(configuration: configuration)
        try realm.write {
            realm.create(
                Book.self,
                value: [
                    "isbn": "978-0", "title": "Realms", "pages": 120, "tags": ["db"], "ratings": ["ann": 5],
                    "author": ["name": "Ann"], "chapters": [["title": "One"]], "extra": "x",
                ]
            )
            let person = LinkDocs.Person(value: ["name": "Ann"])
            person.dogs.append(LinkDocs.Dog(value: ["name": "Rex"]))
            realm.add(person)
            realm.add(EmbeddedDocs.Contact(value: ["name": "Bob", "address": ["street": "Main", "city": "Oslo"]]))
            for number in 0..<1_000 {
                realm.create(Book.self, value: ["isbn": "isbn-\(number)", "title": "T\(number)"])
            }
        }
        let book = try #require(realm.object(ofType: Book.self, forPrimaryKey: "978-0"))
        #expect(book.tags.contains("db") && book.ratings["ann"] == 5 && book.author?.name == "Ann")
        #expect(book.chapters.map(\.title) == ["One"] && book.extra == .string("x"))
        #expect(realm.objects(LinkDocs.Dog.self).first?.owners.map(\.name) == ["Ann"])
        #expect(realm.objects(EmbeddedDocs.Contact.self).first?.address?.city == "Oslo")
        #expect(
            realm.objects(Book.self).filter("title == 'Realms'").explain().contains("SEARCH Book USING INDEX title")
        )
    }

    @Test("reading and querying: live results, both syntaxes, closures, sorting, aggregates, sections")
    func readingAndQuerying() throws {
        typealias Dog = QueryDocs.Dog
        typealias Person = QueryDocs.Person
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "docs-queries",
                objectTypes: [Dog.self, Person.self]
            )
        )
        try realm.write {
            let ann = Person(value: ["name": "Ann", "age": 40, "scores": [3, 7, 9]])
            ann.dogs.append(Dog(value: ["name": "Rex", "age": 10]))
            ann.dogs.append(Dog(value: ["name": "rocky", "age": 6]))
            realm.add(ann)
            realm.add(Dog(value: ["name": "Fido", "age": 3]))
        }
        let person = try #require(realm.objects(Person.self).first)

        let dogs = realm.objects(Dog.self)
        let old = dogs.filter("age > 5").sorted(byKeyPath: "name")
        print(old.count)  // compiles and runs the plan
        try realm.write { realm.add(Dog(value: ["name": "Max", "age": 9])) }
        print(old.count)  // one more: the realm's version moved
        #expect(old.map(\.name) == ["Max", "Rex", "rocky"])

        let a = dogs.filter("name BEGINSWITH[c] %@ AND age > %@", "r", 2)
        let b = dogs.filter("ANY owners.name == 'Ann' SORT(age DESC) LIMIT(3)")
        let c = realm.objects(Person.self).filter("dogs.@count > 1 AND SUBQUERY(dogs, $d, $d.age < 2).@count > 0")
        #expect(Set(a.map(\.name)) == ["Rex", "rocky"])
        #expect(b.map(\.name) == ["Rex", "rocky"])
        #expect(c.isEmpty)

        do {
            let found = try dogs.query("agee > $0", 2)
            print(found.count)
        } catch {
            print(error)
            // error: unknown property 'agee' on class 'Dog'; did you mean 'age'?
            //   agee > $0
            //   ^~~~
        }
        let printed = try #require(throws: Realm.QueryError.self) { try dogs.query("agee > $0", 2) }.description
        #expect(printed.contains("unknown property 'agee' on class 'Dog'; did you mean 'age'?"))
        #expect(printed.contains("  agee > $0\n  ^~~~"))

        let found = dogs.where { $0.age > 2 && $0.name.starts(with: "R", options: [.caseInsensitive]) }
        let owners = realm.objects(Person.self).where { $0.dogs.age > 5 && $0.dogs.count > 1 }
        let named = dogs.where { $0.name.matches("R.*") }
        #expect(Set(found.map(\.name)) == ["Rex", "rocky"])
        #expect(owners.map(\.name) == ["Ann"])
        #expect(named.map(\.name) == ["Rex"])

        let byAge = dogs.sorted(byKeyPath: "age", ascending: false)
        let byName = dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: true, caseInsensitive: true), "age"])
        let oneOfEachAge = dogs.distinct(by: ["age"])
        let firstThree = dogs.sorted(by: \.age).prefix(3)  // a live LIMIT
        #expect(byAge.map(\.age) == [10, 9, 6, 3])
        #expect(byName.map(\.name) == ["Fido", "Max", "Rex", "rocky"])
        #expect(oneOfEachAge.count == 4)
        #expect(firstThree.map(\.age) == [3, 6, 9])

        let total: Int = dogs.sum(ofProperty: "age")
        let oldest = dogs.max(of: \.age)
        let mean: Double? = dogs.average(ofProperty: "age")
        #expect(total == 28 && oldest == 10 && mean == 7)

        let byLetter = dogs.sectioned(by: \.firstLetter, ascending: true)
        for section in byLetter {
            print(section.key, section.map(\.name))
        }
        #expect(byLetter.map(\.key) == ["F", "M", "R", "r"])

        let high = person.scores.filter("self > 5")
        let alsoHigh = person.scores.where { $0 > 5 }
        #expect(Array(high) == [7, 9] && Array(alsoHigh) == [7, 9])

        let plan = realm.objects(Person.self).filter("age > 30 SORT(name ASC) LIMIT(2)").explain()
        print(realm.objects(Person.self).filter("age > 30 SORT(name ASC) LIMIT(2)").explain())
        // QUERY PLAN (estimated candidates=10 matches=5)
        // |--SCAN Person (~10 rows)
        // |--FILTER (> Person.age 30) (cost=1 selectivity=0.5)
        // `--USE TOP-N SORT FOR SORT(name ASC) LIMIT(2)
        // ...
        #expect(plan.contains("|--SCAN Person"))
        #expect(plan.contains("`--USE TOP-N SORT FOR SORT(name ASC) LIMIT(2)"))
    }

    @Test("writing: transactions, add and create, delete, errors that roll back")
    func writing() throws {
        typealias Dog = StartDocs.Dog
        typealias Person = StartDocs.Person
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "docs-writes",
                objectTypes: [Person.self, Dog.self, StartDocs.DogToy.self]
            )
        )

        try realm.write {
            let rex = Dog(value: ["name": "Rex", "age": 10])
            realm.add(rex)
            rex.age = 11  // a managed object is written through
        }

        realm.beginWrite()
        realm.create(Dog.self, value: ["name": "Spot", "age": 1])
        try realm.commitWrite()
        #expect(realm.objects(Dog.self).map(\.age) == [11, 1])

        try realm.write {
            let ann = Person(value: ["id": 1, "name": "Ann"])
            ann.dogs.append(Dog(value: ["name": "Fido", "age": 3]))
            realm.add(ann)  // adds Ann and Fido
            realm.create(Person.self, value: ["id": 1, "name": "Anne"], update: .modified)
        }
        #expect(realm.objects(Person.self).map(\.name) == ["Anne"])
        #expect(realm.objects(Dog.self).count == 3)

        try realm.write {
            realm.delete(realm.objects(Dog.self).filter("age > 12"))
        }
        #expect(realm.objects(Dog.self).count == 3)

        do {
            try realm.write {
                realm.add(Person(value: ["id": 7, "name": "Ann"]))
                realm.add(Person(value: ["id": 7, "name": "Bob"]))  // the same primary key
            }
        } catch let error as Realm.Error {
            print(error.code == .primaryKeyExists)  // true; neither person was added
        }
        #expect(throws: Realm.Error.self) {
            try realm.write {
                realm.add(Person(value: ["id": 7, "name": "Ann"]))
                realm.add(Person(value: ["id": 7, "name": "Bob"]))
            }
        }
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 7) == nil)
    }

    @Test("files: a realm in memory and one in a file")
    func files() throws {
        try? FileManager.default.removeItem(
            at: FileManager.default.temporaryDirectory.appendingPathComponent("notes.realm")
        )
        let scratch = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "scratch"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notes.realm")
        let onDisk = try Realm(configuration: Realm.Configuration(fileURL: file))
        #expect(scratch.configuration.fileURL == nil)
        #expect(FileManager.default.fileExists(atPath: file.path))
        _ = onDisk
    }

    // The realm of this function is read only before its first await (a nonisolated async
    // function may resume on another thread); the actor observation runs inside an actor whose
    // realm is confined to it.
    @Test("live data: observing with key paths, on an actor, refreshing by hand, sending frozen results")
    func liveDataAcrossIsolation() async throws {
        typealias Dog = LiveDocs.Dog
        let configuration = Realm.Configuration(inMemoryIdentifier: "live-\(UUID().uuidString)")
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 10])) }
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "name", ascending: false)
        var updates: [[Int]] = []

        let check = dogs.observe(keyPaths: ["age"]) { change in
            if case .update(_, let deletions, let insertions, let modifications) = change {
                updates.append(deletions + [-1] + insertions + [-1] + modifications)
            }
        }

        let token = dogs.observe(keyPaths: ["age"]) { change in
            if case .update(let dogs, let deletions, let insertions, let modifications) = change {
                print(dogs.count, deletions, insertions, modifications)
            }
        }
        try realm.write { realm.add(Dog(value: ["name": "Max", "age": 5])) }  // prints 2 [] [1] []
        token.invalidate()

        check.invalidate()
        #expect(updates == [[-1, 1, -1]])  // deletions [], insertions [1], modifications []

        realm.autorefresh = false
        let realmToken = realm.observe { notification, realm in
            if notification == .refreshRequired { realm.refresh() }  // then .didChange
        }
        realmToken.invalidate()

        let frozen = dogs.sorted(byKeyPath: "name").freeze()
        let names = await Task.detached { frozen.map(\.name) }.value  // ["Max", "Rex"]
        let reference = ThreadSafeReference(to: frozen[0].thaw()!)
        #expect(names == ["Max", "Rex"])
        #expect(try Realm(configuration: configuration).resolve(reference)?.name == "Max")

        #expect(try await LiveDocs.Watcher().deliveries(configuration, tally: LiveDocs.Tally()) == 1)  // .initial
    }

    @Test("the engine's landing page: compile once, run, count, explain")
    func engine() throws {
        let store = try DemoDataset.load()
        let engine = QueryEngine()
        let compiled = try engine.compile(
            "age > $0 SORT(name ASC)",
            className: "Dog",
            store: store,
            arguments: [.value(.int(2))]
        )
        let keys = engine.run(compiled, on: store)  // the matching objects' keys, in order
        let count = engine.count(compiled, on: store)  // no row list when it can be avoided
        print(engine.explain(compiled).text)  // every stage, as `rqlc explain` prints it
        #expect(count == keys.count && count > 0)
    }

    @Test("live data: collection and object notifications, queues, thread-safe references")
    func liveData() throws {
        typealias Dog = StartDocs.Dog
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "docs-live",
            objectTypes: [Dog.self, StartDocs.DogToy.self, StartDocs.Person.self]
        )
        let realm = try Realm(configuration: configuration)
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 10]))
            realm.add(Dog(value: ["name": "Fido", "age": 1]))
        }
        let rex = try #require(realm.objects(Dog.self).first)
        var recorded: [[Int]] = []
        let recorder = realm.objects(Dog.self).filter("age > 2").observe { change in
            switch change {
            case .initial(let dogs): recorded.append([dogs.count])
            case .update(let dogs, let deletions, let insertions, let modifications):
                recorded.append([dogs.count] + deletions + [-1] + insertions + [-1] + modifications)
            case .error: recorded.append([])
            }
        }

        let adults = realm.objects(Dog.self).filter("age > 2")
        let token = adults.observe(keyPaths: ["name", "age"]) { change in
            switch change {
            case .initial(let dogs):
                print("\(dogs.count) dogs")
            case .update(let dogs, let deletions, let insertions, let modifications):
                print(dogs.count, deletions, insertions, modifications)
            case .error(let error):
                print(error)
            }
        }
        try realm.write { realm.add(Dog(value: ["name": "Max", "age": 5])) }  // 2 [] [1] []
        token.invalidate()
        #expect(recorded == [[1], [2, -1, 1, -1]])

        let queue = DispatchQueue(label: "dog-watch")
        let watch = adults.observe(on: queue) { change in
            if case .update(let dogs, _, let insertions, _) = change {
                print("on the queue:", dogs.count, insertions)
            }
        }
        watch.invalidate()

        var changed: [String] = []
        let objectRecorder = rex.observe { change in
            if case .change(_, let properties) = change {
                changed += properties.map { "\($0.name) \($0.oldValue ?? "nil") \($0.newValue ?? "nil")" }
            }
        }
        let objectToken = rex.observe { change in
            switch change {
            case .change(let dog, let properties):
                for property in properties {
                    print(dog.name, property.name, property.oldValue ?? "nil", "->", property.newValue ?? "nil")
                }
            case .deleted:
                print("deleted")
            case .error(let error):
                print(error)
            }
        }
        try realm.write { rex.age = 11 }  // Rex age 10 -> 11
        objectToken.invalidate()
        objectRecorder.invalidate()
        recorder.invalidate()
        #expect(changed == ["age 10 11"])

        let reference = ThreadSafeReference(to: rex)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: configuration)
            if let rex = realm.resolve(reference) { try! realm.write { rex.age += 1 } }  // nil if deleted
            done.signal()
        }.start()
        done.wait()
        _ = realm.refresh()
        #expect(rex.age == 12)

        let opened = DispatchSemaphore(value: 0)
        let callbackQueue = DispatchQueue(label: "kennel")
        Realm.asyncOpen(configuration: configuration, callbackQueue: callbackQueue) { result in
            if case .success(let realm) = result { print(realm.objects(Dog.self).count) }  // 2
            opened.signal()
        }
        let waited = opened.wait(timeout: .now() + 10)  // .success
        #expect(waited == .success)
    }

    @Test("live data: a realm on an actor, written with asyncWrite")
    func liveDataActor() async throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "docs-kennel", objectTypes: [LiveDocs.Dog.self])
        let kennel = LiveDocs.Kennel()
        try await kennel.open(configuration)
        try await kennel.add("Bolt")
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(LiveDocs.Dog.self).filter("name == 'Bolt'").count == 1)
    }

    @Test("migrations: a renamed property and a computed one, in one block")
    func migrations() throws {
        typealias Dog = MigrationDocs.Dog
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "docs-migrate-\(UUID().uuidString).realm"
        )
        defer { try? Realm.deleteFiles(for: Realm.Configuration(fileURL: url)) }
        do {
            let old = try Realm(
                configuration: Realm.Configuration(
                    fileURL: url,
                    schemaVersion: 1,
                    objectTypes: [MigrationDocs.DogV1.self]
                )
            )
            try old.write { old.add(MigrationDocs.DogV1(value: ["name": "Rex", "age": 10, "nick": "R"])) }
        }

        let configuration = Realm.Configuration(
            fileURL: url,
            schemaVersion: 2,
            migrationBlock: { migration, oldSchemaVersion in
                if oldSchemaVersion < 2 {
                    migration.renameProperty(onType: "Dog", from: "nick", to: "nickname")
                    migration.enumerateObjects(ofType: "Dog") { old, new in
                        new?["weight"] = Double(old?["age"] as? Int ?? 0) * 2
                    }
                }
            },
            objectTypes: [Dog.self]
        )
        let realm = try Realm(configuration: configuration)

        let rex = try #require(realm.objects(Dog.self).first)
        #expect(rex.weight == 20 && rex.nickname == "R" && rex.age == 10)
        #expect(try schemaVersionAtURL(url) == 2)
    }

    @Test("every Swift example in the documentation stands in this file")
    func examplesAreTested() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let here = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let tested = Self.squashed(here)
        var checked = 0
        for catalog in ["Sources/RQL/RQL.docc", "Sources/RQLEngine/RQLEngine.docc"] {
            let folder = root.appendingPathComponent(catalog)
            let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".md")
            }
            #expect(!articles.isEmpty, "no articles in \(catalog)")
            for article in articles {
                let text = try String(contentsOf: folder.appendingPathComponent(article), encoding: .utf8)
                for example in Self.swiftExamples(in: text) where !example.first!.first!.hasPrefix("// Package.swift") {
                    checked += 1
                    for paragraph in example {
                        let standsHere = tested.contains(Self.squashed(paragraph.joined()))
                        #expect(
                            standsHere,
                            "\(catalog)/\(article): example not tested:\n\(paragraph.joined(separator: "\n"))"
                        )
                    }
                }
            }
        }
        #expect(checked >= 15)
    }

    /// Each ```swift block as its paragraphs (runs of lines between blank lines), lines trimmed,
    /// `import` lines dropped: a paragraph is what must stand here in one piece.
    static func swiftExamples(in text: String) -> [[[String]]] {
        var examples: [[[String]]] = []
        var inExample = false
        var paragraphs: [[String]] = []
        var paragraph: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inExample {
                inExample = trimmed == "```swift"
                continue
            }
            if trimmed == "```" || trimmed.isEmpty {
                if !paragraph.isEmpty { paragraphs.append(paragraph) }
                paragraph = []
            } else if !trimmed.hasPrefix("import ") {
                paragraph.append(trimmed)
            }
            if trimmed == "```" {
                if !paragraphs.isEmpty { examples.append(paragraphs) }
                paragraphs = []
                inExample = false
            }
        }
        return examples
    }

    /// `text` without its whitespace: an example stands here however the formatter indents,
    /// aligns comments or wraps long lines.
    static func squashed(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }
}

// The articles' model classes, each set under its own name so that the examples can reuse
// Realm Swift's usual class names.

enum LiveDocs {
    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }

    /// Counts the deliveries an actor observation makes.
    actor Tally {
        var deliveries = 0
        func count(_ change: RealmCollectionChange<Results<Dog>>) { deliveries += 1 }
    }

    /// Observes dogs of a realm confined to this actor, delivering on another actor.
    actor Watcher {
        func deliveries(_ configuration: Realm.Configuration, tally: Tally) async throws -> Int {
            let realm = try await Realm(configuration: configuration, actor: self)
            let dogs = realm.objects(Dog.self)
            let actorToken = await dogs.observe(keyPaths: [\Dog.age], on: tally) { tally, change in
                tally.count(change)
            }
            var waited = 0
            while await tally.deliveries == 0, waited < 2000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            actorToken.invalidate()
            return await tally.deliveries
        }
    }

    actor Kennel {
        var realm: Realm!
        func open(_ configuration: Realm.Configuration) async throws {
            realm = try await Realm(configuration: configuration, actor: self)
        }
        func add(_ name: String) async throws {
            try await realm.asyncWrite { realm.add(Dog(value: ["name": name])) }
        }
    }
}

enum LandingDocs {
    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
}

enum StartDocs {
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
}

enum ModelDocs {
    class Chapter: Object {
        @Persisted var title = ""
    }

    class Author: Object {
        @Persisted var name = ""
    }

    class Book: Object {
        @Persisted(primaryKey: true) var isbn = ""
        @Persisted(indexed: true) var title = ""
        @Persisted var pages = 0
        @Persisted var price: Decimal128?
        @Persisted var published: Date?
        @Persisted var tags: MutableSet<String>
        @Persisted var chapters: List<Chapter>
        @Persisted var ratings: Map<String, Int>
        @Persisted var author: Author?
        @Persisted var extra: AnyRealmValue
    }
}

enum LinkDocs {
    class Person: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
    }

    class Dog: Object {
        @Persisted var name = ""
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
    }
}

enum EmbeddedDocs {
    class Address: EmbeddedObject {
        @Persisted var street = ""
        @Persisted var city = ""
    }

    class Contact: Object {
        @Persisted var name = ""
        @Persisted var address: Address?
    }
}

enum QueryDocs {
    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
        var firstLetter: String { String(name.prefix(1)) }
    }

    class Person: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var dogs: List<Dog>
        @Persisted var scores: List<Int>
    }
}

enum MigrationDocs {
    /// The class as version 1 of the file stored it.
    class DogV1: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var nick = ""
        override class func className() -> String { "Dog" }
    }

    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var weight = 0.0
        @Persisted var nickname = ""
    }
}
