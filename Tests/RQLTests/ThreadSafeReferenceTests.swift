import Dispatch
import Foundation
import Testing

@testable import RQL

/// Handing live values to other threads: `ThreadSafeReference` + `resolve`, and `@ThreadSafe`.
@Suite("Thread-safe references")
struct ThreadSafeReferenceTests {
    @Test("an object, results and a list resolve on another thread, in that thread's realm")
    func resolveOnAnotherThread() throws {
        let realm = try makeSeedRealm()
        let configuration = realm.configuration
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let ann = try #require(realm.objects(Person.self).first)
        let objectReference = ThreadSafeReference(to: rex)
        let resultsReference = ThreadSafeReference(
            to: realm.objects(Dog.self).filter("age > 2").sorted(byKeyPath: "age")
        )
        let listReference = ThreadSafeReference(to: ann.dogs)
        let (name, older, dogNames) = try Thread.run {
            let other = try Realm(configuration: configuration)
            let rex = try #require(other.resolve(objectReference))
            let older = try #require(other.resolve(resultsReference))
            let dogs = try #require(other.resolve(listReference))
            #expect(!rex.isFrozen && !older.isFrozen && !dogs.isFrozen)
            #expect(rex.realm == other && older.realm == other && dogs.realm == other)
            try other.write { rex.age = 11 }  // live: writable there
            return (rex.name, Array(older.map(\.name)), Array(dogs.map(\.name)))
        }
        #expect(name == "Rex")
        #expect(older == ["Fido", "Spot", "Rex"])
        #expect(dogNames == ["Rex", "Wolfie"])
        realm.refresh()
        #expect(rex.age == 11)
    }

    @Test("a reference resolves once; then it is invalidated")
    func resolvesOnce() throws {
        let realm = try makeSeedRealm()
        let reference = ThreadSafeReference(to: try #require(realm.objects(Dog.self).first))
        #expect(!reference.isInvalidated)
        #expect(realm.resolve(reference) != nil)
        #expect(reference.isInvalidated)
        let (status, output) = try ThreadConfinementTests.helper("resolve-twice")
        #expect(status != 0, "\(output)")
        #expect(output.contains("first: Ann"))
        #expect(output.contains("Can only resolve a thread safe reference once."), "\(output)")
        #expect(!output.contains("not stopped"))
    }

    @Test("a realm older than the reference moves to its version; a deleted object resolves to nil")
    func versions() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "versions-\(UUID().uuidString)")
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).isEmpty)
        // Another thread adds a dog and hands it over: this realm has not seen that version.
        let reference = try Thread.run {
            let other = try Realm(configuration: configuration)
            let ace = try other.write { other.create(Dog.self, value: ["name": "Ace"]) }
            return ThreadSafeReference(to: ace)
        }
        #expect(realm.resolve(reference)?.name == "Ace")
        #expect(realm.objects(Dog.self).count == 1)
        // A reference to an object deleted before it is resolved gives nil.
        let ace = try #require(realm.objects(Dog.self).first)
        let stale = ThreadSafeReference(to: ace)
        try realm.write { realm.delete(ace) }
        let resolved = try Thread.run { try Realm(configuration: configuration).resolve(stale) == nil }
        #expect(resolved)
    }

    @Test("a reference resolves in a queue-confined realm, on the queue")
    func resolveOnQueue() throws {
        let realm = try makeSeedRealm()
        let configuration = realm.configuration
        let reference = ThreadSafeReference(to: realm.objects(Dog.self).sorted(byKeyPath: "name"))
        let queue = DispatchQueue(label: "resolve")
        let names = try queue.sync {
            let queued = try Realm(configuration: configuration, queue: queue)
            let dogs = queued.resolve(reference)
            #expect(dogs?.realm == queued)
            return dogs.map { Array($0.map(\.name)) } ?? []
        }
        #expect(names == ["Fido", "Rex", "Spot", "Wolfie"])
    }

    final class Walker {
        @ThreadSafe var dog: Dog?
        @ThreadSafe var dogs: Results<Dog>?
        init(dog: Dog, dogs: Results<Dog>) {
            self.dog = dog
            self.dogs = dogs
        }
    }

    @Test("@ThreadSafe gives the value in the reading thread's realm, each time, until deleted")
    func threadSafeWrapper() throws {
        let realm = try makeSeedRealm()
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let walker = Walker(dog: rex, dogs: realm.objects(Dog.self).filter("age > 5"))
        let configuration = realm.configuration
        let read = try Thread.run {
            let other = try Realm(configuration: configuration)
            let first = try #require(walker.dog)
            #expect(first.realm == other)
            try other.write { first.age = 12 }
            return (walker.dog?.age, walker.dogs?.count)
        }
        #expect(read.0 == 12)
        #expect(read.1 == 2)
        #expect(walker.dog?.age == 12)  // this thread's realm moves to the newer version
        try realm.write { realm.delete(rex) }
        let afterDelete = try Thread.run { walker.dog == nil }
        #expect(afterDelete)
        walker.dogs = nil
        #expect(walker.dogs == nil)
    }

    @Test("many threads resolve references to one object at the same time")
    func concurrentResolves() throws {
        let realm = try makeSeedRealm()
        let configuration = realm.configuration
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let references = (0..<16).map { _ in ThreadSafeReference(to: rex) }
        let lock = NSLock()
        nonisolated(unsafe) var names: [String] = []
        DispatchQueue.concurrentPerform(iterations: references.count) { index in
            let other = try! Realm(configuration: configuration)
            let name = other.resolve(references[index])?.name ?? "-"
            lock.withLock { names.append(name) }
        }
        #expect(names == Array(repeating: "Rex", count: 16))
        #expect(references.allSatisfy { $0.isInvalidated })
    }
}
