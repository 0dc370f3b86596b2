import Foundation
import Synchronization
import Testing

@testable import RQL

/// Schema migrations: `schemaVersion`, `migrationBlock`, `Migration`'s operations, and what is
/// kept when a migration fails (nothing).
@Suite("Migrations")
struct MigrationTests {
    final class Pet: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var nickname = ""
    }

    /// `Pet` two versions later: `nickname` gone, `age` now a string, `years` and `owner` added.
    final class PetV2: Object {
        override class func className() -> String { "Pet" }
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var age = ""
        @Persisted var years = 0
        @Persisted var owner: Owner?
    }

    /// `Pet` keyed by name instead of id.
    final class PetByName: Object {
        override class func className() -> String { "Pet" }
        @Persisted var id = 0
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
        @Persisted var nickname = ""
    }

    /// `Pet` with `nickname` renamed to `alias`, and `name` indexed.
    final class PetRenamed: Object {
        override class func className() -> String { "Pet" }
        @Persisted(primaryKey: true) var id = 0
        @Persisted(indexed: true) var name = ""
        @Persisted var age = 0
        @Persisted var alias = ""
    }

    /// `Pet` with only an index added.
    final class PetIndexed: Object {
        override class func className() -> String { "Pet" }
        @Persisted(primaryKey: true) var id = 0
        @Persisted(indexed: true) var name = ""
        @Persisted var age = 0
        @Persisted var nickname = ""
    }

    final class Owner: Object {
        @Persisted var name = ""
    }

    static func temporaryURL(_ name: String) -> URL {
        URL(fileURLWithPath: FileRealmTests.temporaryPath(name))
    }

    /// A file at version 1 holding three pets.
    private func seeded(_ name: String, count: Int = 3) throws -> URL {
        let url = Self.temporaryURL(name)
        try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [Pet.self])
            )
            try realm.write {
                for i in 0..<count {
                    realm.create(Pet.self, value: ["id": i, "name": "pet\(i)", "age": i + 1, "nickname": "n\(i)"])
                }
            }
        }
        return url
    }

    private func open<T>(
        _ url: URL,
        version: UInt64,
        _ types: [ObjectBase.Type],
        block: MigrationBlock? = nil,
        _ body: @escaping (Realm) throws -> T
    ) throws -> T {
        try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: url,
                    schemaVersion: version,
                    migrationBlock: block,
                    objectTypes: types
                )
            )
            return try body(realm)
        }
    }

    @Test("a raised version applies added, removed and retyped properties and a new class without a block")
    func automaticChanges() throws {
        let url = try seeded("auto")
        defer { try? FileManager.default.removeItem(at: url) }
        let (ages, years, owners) = try open(url, version: 2, [PetV2.self, Owner.self]) { realm in
            let pets = realm.objects(PetV2.self).sorted(byKeyPath: "id")
            return (pets.map(\.age), pets.map(\.years), realm.objects(Owner.self).count)
        }
        #expect(ages == ["", "", ""])
        #expect(years == [0, 0, 0])
        #expect(owners == 0)
        #expect(try schemaVersionAtURL(url) == 2)
        #expect(try open(url, version: 2, [PetV2.self, Owner.self]) { $0.schema["Pet"]?["nickname"] == nil })
    }

    @Test(
        "the block reads old objects with the old schema and writes new ones; create, delete, rename, oldSchema and newSchema"
    )
    func blockOperations() throws {
        let url = try seeded("block")
        defer { try? FileManager.default.removeItem(at: url) }
        let seen = Mutex<[String]>([])
        let block: MigrationBlock = { migration, oldVersion in
            seen.withLock {
                $0.append("v\(oldVersion)")
                $0.append(migration.oldSchema["Pet"]?.properties.map(\.name).joined(separator: ",") ?? "-")
                $0.append(migration.newSchema["Pet"]?.properties.map(\.name).joined(separator: ",") ?? "-")
            }
            migration.enumerateObjects(ofType: "Pet") { old, new in
                guard let old, let new else { return }
                let age = old["age"] as? Int ?? -1
                new["age"] = "\(age) years"
                new["years"] = age
                if age == 2 { migration.delete(new) }
                if age == 3 {
                    new["owner"] = migration.create("Owner", value: ["name": old["nickname"] as? String ?? ""])
                }
            }
        }
        let pets = try open(url, version: 2, [PetV2.self, Owner.self], block: block) { realm in
            realm.objects(PetV2.self).sorted(byKeyPath: "id").map {
                "\($0.id):\($0.age):\($0.years):\($0.owner?.name ?? "-")"
            }
        }
        #expect(pets == ["0:1 years:1:-", "2:3 years:3:n2"])
        #expect(seen.withLock { $0 } == ["v1", "id,name,age,nickname", "id,name,age,years,owner"])
    }

    @Test("renameProperty keeps the values of the old property under the new name")
    func rename() throws {
        let url = try seeded("rename")
        defer { try? FileManager.default.removeItem(at: url) }
        let block: MigrationBlock = { migration, _ in
            migration.renameProperty(onType: "Pet", from: "nickname", to: "alias")
        }
        let aliases = try open(
            url,
            version: 2,
            [PetRenamed.self],
            block: block
        ) { realm in
            (
                realm.objects(PetRenamed.self).sorted(byKeyPath: "id").map(\.alias),
                realm.objects(PetRenamed.self).filter("name == 'pet1'").count
            )
        }
        #expect(aliases.0 == ["n0", "n1", "n2"])
        #expect(aliases.1 == 1)
    }

    @Test(
        "a primary key change is checked for duplicates after the block, and a failed migration leaves the file as it was"
    )
    func primaryKeyDuplicates() throws {
        let url = try seeded("pk")
        defer { try? FileManager.default.removeItem(at: url) }
        let block: MigrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: "Pet") { _, new in new?["name"] = "same" }
        }
        #expect {
            try open(
                url,
                version: 2,
                [PetByName.self],
                block: block
            ) { _ in 0 }
        } throws: { error in
            (error as? Realm.Error)?.code == .primaryKeyExists
        }
        // Nothing was kept: version 1, the old schema and values.
        #expect(try schemaVersionAtURL(url) == 1)
        let names = try open(url, version: 1, [Pet.self]) { realm in
            realm.objects(Pet.self).sorted(byKeyPath: "id").map(\.name)
        }
        #expect(names == ["pet0", "pet1", "pet2"])
        // Unique names migrate, and the new key finds them.
        let found = try open(url, version: 2, [PetByName.self]) { realm in
            realm.object(ofType: PetByName.self, forPrimaryKey: "pet2")?.id
        }
        #expect(found == 2)
    }

    @Test("a value that does not fit, written in the block, fails the migration and keeps nothing")
    func blockError() throws {
        let url = try seeded("error")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: Realm.Error.self) {
            let block: MigrationBlock = { migration, _ in
                migration.create("Owner", value: ["name": "kept?"])
                migration.create("Owner", value: ["name": 42])
            }
            try open(
                url,
                version: 2,
                [PetV2.self, Owner.self],
                block: block
            ) { _ in 0 }
        }
        #expect(try schemaVersionAtURL(url) == 1)
        #expect(try open(url, version: 1, [Pet.self]) { $0.objects(Pet.self).count } == 3)
    }

    @Test("the same version with a changed schema is still the typed error; an index change alone needs no migration")
    func noMigration() throws {
        let url = try seeded("same")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try open(url, version: 1, [PetV2.self, Owner.self]) { _ in 0 }
        } throws: { error in
            (error as? Realm.Error)?.code == .schemaMismatch && "\(error)".contains("Migration is required")
        }
        let found = try open(url, version: 1, [PetIndexed.self]) { realm in
            (realm.objects(PetIndexed.self).filter("name == 'pet1'").count, realm.schema["Pet"]?["name"]?.isIndexed)
        }
        #expect(found.0 == 1)
        #expect(found.1 == true)
        // And back: the index goes again without a migration.
        #expect(try open(url, version: 1, [Pet.self]) { $0.objects(Pet.self).count } == 3)
    }

    @Test("deleteData removes a class the program no longer declares; deleteRealmIfMigrationNeeded replaces everything")
    func deleteDataAndReset() throws {
        let url = try seeded("reset")
        defer { try? FileManager.default.removeItem(at: url) }
        let existed = Mutex<[Bool]>([])
        let block: MigrationBlock = { migration, _ in
            existed.withLock { $0 = [migration.deleteData(forType: "Pet"), migration.deleteData(forType: "Nope")] }
        }
        _ = try open(
            url,
            version: 2,
            [Owner.self],
            block: block
        ) { _ in 0 }
        #expect(existed.withLock { $0 } == [true, false])
        #expect(try open(url, version: 2, []) { $0.schema.objectSchema.map(\.className) } == ["Owner"])

        let other = try seeded("reset2")
        defer { try? FileManager.default.removeItem(at: other) }
        let counts = try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: other,
                    schemaVersion: 0,
                    deleteRealmIfMigrationNeeded: true,
                    objectTypes: [PetV2.self, Owner.self]
                )
            )
            return realm.objects(PetV2.self).count
        }
        #expect(counts == 0)
        #expect(try schemaVersionAtURL(other) == 0)
    }

    @Test(
        "enumerateObjects streams: 10,000 objects are visited holding at most one storage block of keys, and no record per modified object"
    )
    func streaming() throws {
        let url = try seeded("stream", count: 10_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let visited = Mutex(0)
        let batch = Mutex(0)
        let records = Mutex(-1)
        let block: MigrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: "Pet") { old, new in
                new?["years"] = old?["age"] as? Int ?? 0
                visited.withLock { $0 += 1 }
            }
            batch.withLock { $0 = migration.largestBatch }
            records.withLock { $0 = migration.recordedModifications }
        }
        let sum = try open(
            url,
            version: 2,
            [PetV2.self, Owner.self],
            block: block
        ) { realm in
            realm.objects(PetV2.self).sum(ofProperty: "years") as Int
        }
        #expect(visited.withLock { $0 } == 10_000)
        #expect(sum == (1...10_000).reduce(0, +))
        #expect(batch.withLock { $0 } == 4096)
        // The change set of a migration says the schema changed; a record for each of the
        // 10,000 objects would hold memory in proportion to the file.
        #expect(records.withLock { $0 } == 0)
    }

    @Test("performMigration migrates without keeping a realm open")
    func performMigration() throws {
        let url = try seeded("perform")
        defer { try? FileManager.default.removeItem(at: url) }
        try Thread.run {
            try Realm.performMigration(
                for: Realm.Configuration(fileURL: url, schemaVersion: 3, objectTypes: [PetV2.self, Owner.self])
            )
        }
        #expect(try schemaVersionAtURL(url) == 3)
    }
}
