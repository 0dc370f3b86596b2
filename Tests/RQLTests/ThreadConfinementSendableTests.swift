import Dispatch
import Foundation
import Testing

@testable import RQL

/// Counts what it is sent: an actor method that takes frozen values from outside.
private actor Tally {
    private var seen: [String] = []
    func record(_ dogs: Results<Dog>) -> Int {
        seen.append(dogs.map(\.name).joined(separator: ","))
        return dogs.count
    }
    func record(clubs: LinkingObjects<DogClub>) -> [String] { clubs.map(\.name).sorted() }
    var names: [String] { seen }
}

/// Frozen collections cross isolation domains without `nonisolated(unsafe)`; live ones sent
/// across stop at their first use (in a child process: `ThreadConfinementTests.helper`).
@Suite("Sendable frozen values")
struct ThreadConfinementSendableTests {
    private static func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }

    @Test("results, linking objects, references, configurations and tokens are Sendable")
    func conformances() {
        #expect(Self.requireSendable(Results<Dog>.self))
        #expect(Self.requireSendable(Results<Int>.self))
        #expect(Self.requireSendable(LinkingObjects<DogClub>.self))
        #expect(Self.requireSendable(ThreadSafeReference<Dog>.self))
        #expect(Self.requireSendable(Realm.Configuration.self))
        #expect(Self.requireSendable(NotificationToken.self))
    }

    // The live realm is read only before the await: a nonisolated async function may resume on
    // another thread, where the realm would stop the program.
    @Test("a frozen Results goes into a detached task and reads its version there")
    func frozenIntoTask() async throws {
        let realm = try makeSeedRealm()
        let frozen = realm.objects(Dog.self).sorted(byKeyPath: "name").freeze()
        try realm.write { realm.add(Dog(value: ["name": "Ace", "age": 1])) }
        let liveCount = realm.objects(Dog.self).count
        let names = await Task.detached { frozen.map(\.name) }.value
        #expect(names == ["Fido", "Rex", "Spot", "Wolfie"])
        #expect(liveCount == 5)
        // Still usable here after sending: the value was shared, not transferred.
        #expect(frozen.count == 4)
    }

    @Test("frozen results and linking objects are arguments of an actor's methods")
    func frozenIntoActor() async throws {
        let realm = try makeSeedRealm()
        try realm.write {
            let club = DogClub(value: ["name": "Walkers"])
            club.members.append(objectsIn: realm.objects(Person.self))
            realm.add(club)
        }
        let frozen = realm.objects(Dog.self).filter("age > 2").sorted(byKeyPath: "name").freeze()
        let clubs = try #require(realm.objects(Person.self).first).clubs.freeze()
        let tally = Tally()
        #expect(await tally.record(frozen) == frozen.count)
        let clubNames = await tally.record(clubs: clubs)
        #expect(clubNames.contains("Walkers"))
        #expect(clubNames == clubs.map(\.name).sorted())
        #expect(await tally.names == [frozen.map(\.name).joined(separator: ",")])
        #expect(!frozen.isEmpty)
    }

    @Test("a live Results sent into a task stops there with realm-swift's thread message")
    func liveIntoTaskStops() throws {
        let (status, output) = try ThreadConfinementTests.helper("live-results-task")
        #expect(status != 0, "\(output)")
        #expect(output.contains("Realm accessed from incorrect thread."), "\(output)")
        #expect(!output.contains("not stopped"), "\(output)")
    }
}
