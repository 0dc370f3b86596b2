import Dispatch
import Foundation
import Testing

@testable import RQL

/// Realms confined to actors and queues, and the async write family.
@Suite("Actors and async writes")
struct AsyncWriteTests {
    /// A store of dogs whose realm is confined to the actor.
    actor DogStore {
        var realm: Realm?

        func open(_ configuration: Realm.Configuration) async throws {
            realm = try await Realm(configuration: configuration, actor: self)
        }

        func add(_ name: String) async throws {
            let realm = realm!
            try await realm.asyncWrite { realm.add(Dog(value: ["name": name])) }
        }

        func count() -> Int { realm!.objects(Dog.self).count }

        func refresh() async -> Bool { await realm!.asyncRefresh() }

        func isSameRealm(asOpenedNow configuration: Realm.Configuration) async throws -> Bool {
            let opened = try await Realm.open(configuration: configuration)
            return opened.objects(Dog.self).count == count()
        }
    }

    @Test("an actor's realm is used across awaits and by concurrent tasks; asyncWrite commits each")
    func actorRealm() async throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "actor-\(UUID().uuidString)")
        let store = DogStore()
        try await store.open(configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { try await store.add("Dog \(index)") }
            }
            try await group.waitForAll()
        }
        #expect(await store.count() == 40)
        #expect(try await store.isSameRealm(asOpenedNow: configuration))
    }

    @Test("asyncWrite waits for another thread's write without blocking the actor")
    func asyncWriteWaitsOffActor() async throws {
        // The classes are registered when the realms open: registering one later needs the
        // write lock, which the other thread holds.
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "waits-\(UUID().uuidString)",
            objectTypes: [Dog.self, DogToy.self]
        )
        let store = DogStore()
        try await store.open(configuration)
        // Another thread holds the write lock until released.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            realm.add(Dog(value: ["name": "Held"]))
            holding.signal()
            release.wait()
            try! realm.commitWrite()
        }
        writer.start()
        holding.wait()
        let adding = Task { try await store.add("Waiting") }
        // The actor still answers while its write waits.
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(await store.count() == 0)
        release.signal()
        try await adding.value
        #expect(await store.count() == 2)
    }

    @Test("asyncRefresh moves an actor's realm to another thread's commit")
    func asyncRefresh() async throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "refresh-\(UUID().uuidString)")
        let store = DogStore()
        try await store.open(configuration)
        #expect(await store.count() == 0)
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(await store.refresh())
        #expect(await store.count() == 1)
        #expect(await !store.refresh())
    }

    /// Runs `body` on `queue` with its queue-confined realm, asynchronously, and waits for
    /// `expected` callbacks (each calls `done`).
    static func onQueue(
        _ configuration: Realm.Configuration,
        callbacks expected: Int,
        _ body: @escaping (Realm, DispatchQueue, @escaping () -> Void) -> Void
    ) throws {
        nonisolated(unsafe) let body = body
        let queue = DispatchQueue(label: "async-writes-\(UUID().uuidString)")
        let group = DispatchGroup()
        for _ in 0..<expected { group.enter() }
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            body(realm, queue, { group.leave() })
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
    }

    @Test("writeAsync runs its blocks in order on the realm's queue and reports each commit")
    func writeAsyncOnQueue() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "write-async-\(UUID().uuidString)")
        let keeper = try Realm(configuration: configuration)  // keeps the in-memory store
        nonisolated(unsafe) var events: [String] = []
        try Self.onQueue(configuration, callbacks: 5) { realm, queue, done in
            for index in 0..<5 {
                realm.writeAsync {
                    dispatchPrecondition(condition: .onQueue(queue))
                    realm.add(Dog(value: ["name": "Dog \(index)"]))
                    events.append("write \(index)")
                } onComplete: { error in
                    dispatchPrecondition(condition: .onQueue(queue))
                    events.append("done \(index) \(error == nil) \(realm.objects(Dog.self).count)")
                    done()
                }
            }
            #expect(realm.isPerformingAsynchronousWriteOperations)
        }
        // Each commit's completion is queued before the next write can begin.
        #expect(events == (0..<5).flatMap { ["write \($0)", "done \($0) true \($0 + 1)"] })
        keeper.refresh()
        #expect(keeper.objects(Dog.self).count == 5)
    }

    @Test("a failed async commit reports its error; a cancelled async write never runs")
    func errorsAndCancelling() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "cancel-\(UUID().uuidString)")
        let keeper = try Realm(configuration: configuration)
        nonisolated(unsafe) var failure: Error?
        nonisolated(unsafe) var cancelledRan = false
        try Self.onQueue(configuration, callbacks: 1) { realm, _, done in
            let cancelled = realm.writeAsync { cancelledRan = true }
            try! realm.cancelAsyncWrite(cancelled)
            realm.beginAsyncWrite {
                realm.add(Person(value: ["id": 1]))
                realm.add(Person(value: ["id": 1]))
                realm.commitAsyncWrite { error in
                    failure = error
                    done()
                }
            }
        }
        #expect(!cancelledRan)
        #expect((failure as? Realm.Error)?.code == .primaryKeyExists)
        keeper.refresh()
        #expect(keeper.objects(Person.self).isEmpty)
    }

    @Test("an async write waits for another thread's write while its queue keeps running")
    func queueRunsWhileWaiting() throws {
        let configuration = Realm.Configuration(
            inMemoryIdentifier: "waiting-\(UUID().uuidString)",
            objectTypes: [Dog.self, DogToy.self]
        )
        let keeper = try Realm(configuration: configuration)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            realm.add(Dog(value: ["name": "Held"]))
            holding.signal()
            release.wait()
            try! realm.commitWrite()
        }.start()
        holding.wait()
        nonisolated(unsafe) var events: [String] = []
        try Self.onQueue(configuration, callbacks: 1) { realm, queue, done in
            realm.writeAsync {
                events.append("async write sees \(realm.objects(Dog.self).count)")
            } onComplete: { _ in
                done()
            }
            queue.async {
                events.append("queue ran")
                release.signal()
            }
        }
        #expect(events == ["queue ran", "async write sees 1"])
        _ = keeper
    }
}
