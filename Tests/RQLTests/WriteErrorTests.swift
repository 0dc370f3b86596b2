import Foundation
import Testing

@testable import RQL

/// A constraint broken inside a write never traps: the transaction records the first error,
/// skips what follows, and the commit throws it and rolls everything back.
@Suite("Errors inside a write transaction")
struct WriteErrorTests {
    @Test("a duplicate primary key: the commit throws and nothing of the transaction is kept")
    func duplicatePrimaryKey() throws {
        let realm = try makeRealm()
        try realm.write { realm.add(Book(value: ["id": 1, "title": "First"])) }
        #expect {
            try realm.write {
                realm.add(Animal(value: ["name": "Rex"]))
                realm.add(Book(value: ["id": 1, "title": "Again"]))
                realm.add(Animal(value: ["name": "Fido"]))
            }
        } throws: { error in
            (error as? Realm.Error)?.code == .primaryKeyExists && "\(error)".contains("primary key 1 already exists")
        }
        #expect(realm.objects(Animal.self).isEmpty)
        #expect(realm.objects(Book.self).map(\.title) == ["First"])
        #expect(!realm.isInWriteTransaction)
    }

    @Test("beginWrite and commitWrite report the same error and roll back")
    func commitWriteThrows() throws {
        let realm = try makeRealm()
        try realm.write { realm.add(Book(value: ["id": 1])) }
        realm.beginWrite()
        let pet = realm.create(Animal.self, value: ["name": "Rex"])
        realm.add(Book(value: ["id": 1]))
        #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        #expect(pet.isInvalidated)
        #expect(realm.objects(Animal.self).isEmpty)
    }

    @Test("writing to a deleted object is recorded, not a trap")
    func writingToDeletedObject() throws {
        let realm = try makeRealm()
        let pet = Animal(value: ["name": "Rex"])
        try realm.write { realm.add(pet) }
        #expect {
            try realm.write {
                realm.delete(pet)
                pet.age = 4
            }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidObject
        }
        #expect(!pet.isInvalidated)
        #expect(pet.name == "Rex")
    }

    @Test("an object of another realm cannot be added")
    func objectFromAnotherRealm() throws {
        let first = try makeRealm(name: "first")
        let second = try makeRealm(name: "second")
        let pet = Animal(value: ["name": "Rex"])
        try first.write { first.add(pet) }
        #expect {
            try second.write { second.add(pet) }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidObject && "\(error)".contains("another Realm")
        }
        #expect(second.objects(Animal.self).isEmpty)
    }

    @Test("a value of the wrong type through create is recorded")
    func wrongTypeThroughCreate() throws {
        let realm = try makeRealm()
        #expect {
            try realm.write { realm.create(Animal.self, value: ["name": 42]) }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidValue && "\(error)".contains("name")
        }
        #expect(realm.objects(Animal.self).isEmpty)
    }

    @Test("an unmanaged object cannot be deleted")
    func deletingUnmanagedObject() throws {
        let realm = try makeRealm()
        #expect {
            try realm.write {
                realm.add(Person(value: ["id": 1]))
                realm.delete(Animal())
            }
        } throws: { error in
            (error as? Realm.Error)?.code == .invalidObject
        }
        #expect(realm.objects(Person.self).isEmpty)
    }

    @Test("a thrown error in the block rolls back and is rethrown")
    func throwingBlock() throws {
        struct Stop: Error {}
        let realm = try makeRealm()
        #expect(throws: Stop.self) {
            try realm.write {
                realm.add(Animal(value: ["name": "Rex"]))
                throw Stop()
            }
        }
        #expect(realm.objects(Animal.self).isEmpty)
        #expect(!realm.isInWriteTransaction)
    }

    @Test("cancelWrite reverts changes and invalidates created objects")
    func cancelWrite() throws {
        let realm = try makeRealm()
        let kept = Animal(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(kept) }
        realm.beginWrite()
        kept.age = 5
        let created = realm.create(Animal.self, value: ["name": "Fido"])
        #expect(realm.objects(Animal.self).count == 2)
        realm.cancelWrite()
        #expect(kept.age == 1)
        #expect(created.isInvalidated)
        #expect(realm.objects(Animal.self).count == 1)
        // A later object gets the key the cancelled one had; the invalidated accessor stays invalid.
        try realm.write { realm.add(Animal(value: ["name": "Spot"])) }
        #expect(created.isInvalidated)
    }

    @Test("write returns its block's value")
    func writeReturnsValue() throws {
        let realm = try makeRealm()
        let rex = try realm.write { realm.create(Animal.self, value: ["name": "Rex"]) }
        #expect(rex.name == "Rex")
        let count = try realm.write { realm.objects(Animal.self).count }
        #expect(count == 1)
    }

    @Test("a read-only realm refuses writes and needs an existing store")
    func readOnly() throws {
        let path = "/tmp/rql-readonly-\(UUID().uuidString).realm"
        #expect {
            _ = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true))
        } throws: { error in
            (error as? Realm.Error)?.code == .fileNotFound
        }
        let writable = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path)))
        try writable.write { writable.add(Animal(value: ["name": "Rex"])) }
        let count = try Thread.run {
            let readOnly = try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true)
            )
            #expect {
                try readOnly.write { readOnly.add(Animal()) }
            } throws: { error in
                (error as? Realm.Error)?.code == .readOnly
            }
            return readOnly.objects(Animal.self).count
        }
        #expect(count == 1)
    }

    @Test("a schema that differs from the stored one is an error without a migration")
    func schemaMismatch() throws {
        let identifier = "mismatch-\(UUID().uuidString)"
        let realm = try Realm(
            configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [Animal.self])
        )
        try realm.write { realm.add(Animal(value: ["name": "Rex"])) }
        #expect {
            _ = try Thread.run {
                try Realm(
                    configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [AnimalV2.self])
                )
            }
        } throws: { error in
            (error as? Realm.Error)?.code == .schemaMismatch && "\(error)".contains("Migration is required")
        }
        // The same declaration opens it again.
        let again = try Thread.run {
            try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [Animal.self]))
                .objects(Animal.self).count
        }
        #expect(again == 1)
    }

    @Test("a lower schema version than the stored one is an error")
    func lowerSchemaVersion() throws {
        let identifier = "version-\(UUID().uuidString)"
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier, schemaVersion: 2))
        #expect {
            _ = try Thread.run {
                try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier, schemaVersion: 1))
            }
        } throws: { error in
            (error as? Realm.Error)?.code == .schemaMismatch
        }
        _ = realm
    }
}

/// `Animal` as a later version of the program declares it.
final class AnimalV2: Object {
    override class func className() -> String { "Animal" }
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var weight = 0.0
}

extension Thread {
    /// Runs `body` on a new thread and waits for it: realms are per thread, so this opens a
    /// fresh one.
    static func run<T>(_ body: @escaping () throws -> T) throws -> T {
        nonisolated(unsafe) let body = body
        nonisolated(unsafe) var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { try body() }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result!.get()
    }
}
