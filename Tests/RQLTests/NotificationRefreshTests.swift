import Dispatch
import Foundation
import Testing

@testable import RQL

/// An actor whose realm does not autorefresh, recording what its realm observation is told.
private actor RefreshWatcher {
    private var realm: Realm?
    private var token: NotificationToken?
    private(set) var seen: [Realm.Notification] = []

    func open(_ configuration: Realm.Configuration) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        realm.autorefresh = false
        token = realm.observe { notification, _ in self.seen.append(notification) }
        self.realm = realm
    }

    func refresh() { realm?.refresh() }
}

/// `Realm.Notification.refreshRequired`: sent, while `autorefresh` is off, to a realm that has a
/// queue or an actor (or the main loop) to run it on, when another realm of the store commits.
@Suite("Realm refresh notifications")
struct NotificationRefreshTests {
    @Test("a queue's realm without autorefresh is told .refreshRequired, then .didChange when it refreshes")
    func queueRealm() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "refresh-\(UUID().uuidString)")
        let writer = try Realm(configuration: configuration)
        let queue = DispatchQueue(label: "refresh-required")
        nonisolated(unsafe) var realm: Realm?
        nonisolated(unsafe) var token: NotificationToken?
        nonisolated(unsafe) var seen: [Realm.Notification] = []
        try queue.sync {
            let opened = try Realm(configuration: configuration, queue: queue)
            opened.autorefresh = false
            token = opened.observe { notification, _ in seen.append(notification) }
            realm = opened
        }
        // A commit schedules the notification on the queue before `write` returns; two commits
        // made while the queue is busy join one notification.
        let busy = DispatchSemaphore(value: 0)
        queue.async { busy.wait() }
        try writer.write { writer.add(Dog(value: ["name": "Rex"])) }
        try writer.write { writer.add(Dog(value: ["name": "Fido"])) }
        busy.signal()
        queue.sync {}
        #expect(seen == [.refreshRequired])
        #expect(queue.sync { realm!.refresh() })
        #expect(seen == [.refreshRequired, .didChange])
        #expect(queue.sync { realm!.objects(Dog.self).count } == 2)

        // Refreshed before the scheduled notification runs: nothing is left to tell.
        let gate = DispatchSemaphore(value: 0)
        queue.async {
            gate.wait()
            realm!.refresh()
        }
        try writer.write { writer.add(Dog(value: ["name": "Spot"])) }
        gate.signal()
        queue.sync {}
        #expect(seen == [.refreshRequired, .didChange, .didChange])

        // With autorefresh on, realm-swift sends none.
        queue.sync { realm!.autorefresh = true }
        try writer.write { writer.add(Dog(value: ["name": "Wolfie"])) }
        queue.sync {}
        #expect(seen.count == 3)
        queue.sync { token?.invalidate() }
    }

    @Test("an actor's realm without autorefresh is told .refreshRequired on the actor")
    func actorRealm() async throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "refresh-actor-\(UUID().uuidString)")
        let watcher = RefreshWatcher()
        try await watcher.open(configuration)
        // Opened after the await: this function may resume on another thread after each one,
        // and a realm belongs to the thread that opened it.
        let writer = try Realm(configuration: configuration)
        try writer.write { writer.add(Dog(value: ["name": "Rex"])) }
        // Delivered by a task on the actor: wait for it (bounded, never timed).
        var rounds = 0
        while await watcher.seen.isEmpty, rounds < 10_000 {
            try await Task.sleep(nanoseconds: 1_000_000)
            rounds += 1
        }
        #expect(await watcher.seen == [.refreshRequired])
        await watcher.refresh()
        #expect(await watcher.seen == [.refreshRequired, .didChange])
    }

    @Test("a realm of a thread with no loop is not told; it sees the commit when it refreshes")
    func plainThreadRealm() throws {
        let realm = try makeRealm()
        let configuration = realm.configuration
        realm.autorefresh = false
        var seen: [Realm.Notification] = []
        let token = realm.observe { notification, _ in seen.append(notification) }
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(seen.isEmpty)
        #expect(realm.refresh())
        #expect(seen == [.didChange])
        withExtendedLifetime(token) {}
    }
}
