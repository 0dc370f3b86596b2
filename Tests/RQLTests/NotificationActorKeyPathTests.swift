import Foundation
import Testing

@testable import RQL

/// What actor observations with typed key paths deliver.
private actor KeyPathModel {
    /// Every index a collection update reported modified.
    var modified: Set<Int> = []
    /// The property names of each object change.
    var changedProperties: [[String]] = []

    func noteModified(_ indexes: [Int]) { modified.formUnion(indexes) }
    func noteChanged(_ names: [String]) { changedProperties.append(names) }
}

@Suite("Actor observations with typed key paths")
struct NotificationActorKeyPathTests {
    /// A realm with two pets, "a" and "b", and its configuration for other threads.
    private static func twoPets() throws -> Realm {
        let realm = try makeWatchedRealm()
        try realm.write {
            realm.add(WatchedPet(value: ["name": "a", "age": 1]))
            realm.add(WatchedPet(value: ["name": "b", "age": 2]))
        }
        return realm
    }

    /// Commits, on another thread, a name change to the pet named `renamed`, then an age change
    /// to the one named `aged`.
    private static func rename(_ renamed: String, thenAge aged: String, _ configuration: Realm.Configuration) throws {
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.objects(WatchedPet.self).filter("name == %@", renamed).first?.name = "z" }
            try other.write {
                other.objects(WatchedPet.self).filter("name == %@", aged == renamed ? "z" : aged).first?.age = 3
            }
        }
    }

    @Test("a collection observed on an actor with [PartialKeyPath] reports modifications along those paths only")
    func collection() async throws {
        let realm = try Self.twoPets()
        let model = KeyPathModel()
        let pets = realm.objects(WatchedPet.self).sorted(byKeyPath: "age")
        let token = await pets.observe(keyPaths: [\WatchedPet.age], on: model) { model, change in
            if case .update(_, _, _, let modifications) = change { model.noteModified(modifications) }
        }
        try Self.rename("a", thenAge: "b", realm.configuration)
        var waited = 0
        while await !model.modified.contains(1), waited < 2000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        // "b" (index 1) changed its age; "a" (index 0) only its name, which is not observed.
        #expect(await model.modified == [1])
        token.invalidate()
    }

    @Test("an object observed on an actor with [PartialKeyPath] reports only those properties")
    func object() async throws {
        let realm = try Self.twoPets()
        let model = KeyPathModel()
        let b = try #require(realm.objects(WatchedPet.self).filter("name == 'b'").first)
        let token = await b.observe(keyPaths: [\WatchedPet.age], on: model) { model, change in
            if case .change(_, let properties) = change { model.noteChanged(properties.map(\.name)) }
        }
        // Its name changes first, its age second: deliveries come in commit order, so the
        // rename, had it been observed, would show before (or with) the age.
        try Self.rename("b", thenAge: "b", realm.configuration)
        var waited = 0
        while await model.changedProperties.isEmpty, waited < 2000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(await model.changedProperties == [["age"]])
        token.invalidate()
    }
}
