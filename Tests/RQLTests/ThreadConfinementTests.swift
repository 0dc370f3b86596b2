import Dispatch
import Foundation
import Testing

@testable import RQL

/// A live realm belongs to its thread (or queue, or actor); frozen values go anywhere. Using a
/// live value elsewhere stops the program: those stops run in a child process
/// (`Tests/RealmFileHelper`), whose status and output the tests read.
@Suite("Thread confinement")
struct ThreadConfinementTests {
    static func helper(_ mode: String) throws -> (status: Int32, output: String) {
        let path = FileRealmTests.temporaryPath(mode)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try FileRealmTests.runHelper([mode, path])
    }

    @Test(
        "a live realm, object, list, results or write used on another thread stops with realm-swift's message",
        arguments: ["realm", "object", "list", "results", "write"]
    )
    func wrongThreadStops(kind: String) throws {
        let (status, output) = try Self.helper("wrong-thread-\(kind)")
        #expect(status != 0, "\(output)")
        #expect(output.contains("Realm accessed from incorrect thread."), "\(output)")
        #expect(!output.contains("not stopped"), "\(output)")
    }

    @Test("a realm confined to an actor, used from outside it, stops with realm-swift's message")
    func wrongActorStops() throws {
        let (status, output) = try Self.helper("wrong-actor")
        #expect(status != 0, "\(output)")
        #expect(output.contains("on the actor: 3"), "\(output)")
        #expect(output.contains("Realm accessed from incorrect thread."), "\(output)")
        #expect(!output.contains("not stopped"), "\(output)")
    }

    @Test("frozen realms, objects and results are read on another thread at their version")
    func frozenElsewhere() throws {
        let (status, output) = try Self.helper("frozen-elsewhere")
        #expect(status == 0, "\(output)")
        // One more dog was added after freezing: the frozen copies do not see it.
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "dogs=3 ann=Ann:2 results=3")
    }

    @Test("several threads read the same frozen results, objects and collections at once")
    func frozenSharedByThreads() throws {
        let realm = try makeSeedRealm()
        let frozenDogs = realm.objects(Dog.self).sorted(byKeyPath: "name").freeze()
        let frozenAnn = try #require(realm.objects(Person.self).first).freeze()
        let frozenRealm = realm.freeze()
        try realm.write {
            realm.add(Dog(value: ["name": "Ace", "age": 1]))
            realm.objects(Person.self).first?.dogs.removeAll()
        }
        nonisolated(unsafe) let shared = (frozenDogs, frozenAnn, frozenRealm)
        let lock = NSLock()
        nonisolated(unsafe) var seen: [String] = []
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let (dogs, ann, frozen) = shared
            let names = dogs.map(\.name).joined(separator: ",")
            let annDogs = ann.dogs.map(\.name).joined(separator: ",")
            let cities = dogs[index % 4].citiesVisited.count
            let count = frozen.objects(Dog.self).filter("age >= 0").count
            lock.withLock { seen.append("\(names)|\(annDogs)|\(cities >= 0)|\(count)") }
        }
        #expect(Set(seen) == ["Fido,Rex,Spot,Wolfie|Rex,Wolfie|true|4"])
        #expect(realm.objects(Dog.self).count == 5)
    }

    @Test("a queue-confined realm is used from later blocks of its queue, on whichever thread runs them")
    func queueConfined() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "queue-\(UUID().uuidString)")
        let keeper = try Realm(configuration: configuration)
        let queue = DispatchQueue(label: "queue-confined")
        nonisolated(unsafe) var realm: Realm?
        nonisolated(unsafe) var sameRealm = false
        try queue.sync {
            realm = try Realm(configuration: configuration, queue: queue)
            sameRealm = try Realm(configuration: configuration, queue: queue) == realm
        }
        #expect(sameRealm)
        let group = DispatchGroup()
        nonisolated(unsafe) var counts: [Int] = []
        for index in 0..<20 {
            queue.async(group: group) {
                let realm = realm!
                try! realm.write { realm.add(Dog(value: ["name": "Dog \(index)"])) }
                counts.append(realm.objects(Dog.self).count)
            }
        }
        group.wait()
        #expect(counts == Array(1...20))
        #expect(keeper.objects(Dog.self).count == 0)  // not refreshed yet
        keeper.refresh()
        #expect(keeper.objects(Dog.self).count == 20)
    }

    @Test("a realm cannot be confined to a queue from outside that queue")
    func queueMustBeCurrent() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "off-queue-\(UUID().uuidString)")
        #expect {
            _ = try Realm(configuration: configuration, queue: DispatchQueue(label: "elsewhere"))
        } throws: { error in
            "\(error)" == "Realm opened from incorrect dispatch queue."
        }
    }

    @Test("a queue's mark is found on the queue (and queues targeting it), nowhere else")
    func queueMark() throws {
        let queue = DispatchQueue(label: "marked")
        let mark = RealmQueueMark.mark(queue)
        #expect(!mark.isCurrent)
        #expect(queue.sync { mark.isCurrent })
        #expect(DispatchQueue(label: "targeting", target: queue).sync { mark.isCurrent })
        #expect(DispatchQueue(label: "other").sync { !mark.isCurrent })
        #expect(RealmQueueMark.mark(queue) === mark)
    }

    @Test("the actor check answers on the actor and off it, without stopping")
    func actorCheck() async {
        let probe = Probe()
        #expect(!RealmConfinement.isIsolated(to: probe))
        #expect(await probe.isIsolatedHere())
        #expect(await !probe.isIsolated(to: Probe()))
    }
}

private actor Probe {
    func isIsolatedHere() -> Bool { RealmConfinement.isIsolated(to: self) }
    func isIsolated(to other: Probe) -> Bool { RealmConfinement.isIsolated(to: other) }
}
