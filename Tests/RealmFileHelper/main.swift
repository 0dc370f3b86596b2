// A realm in a process of its own, for RQLTests' file-backed realm test:
//
//     realm-file-helper write PATH    writes a known set of objects to the realm stored at PATH
//     realm-file-helper read PATH     prints what the realm at PATH holds, one line
//     realm-file-helper both PATH     writes, then reads in the same process (checks the line)
//     realm-file-helper read-v2 PATH  opens the realm declaring a changed `Dog` (no migration:
//                                     prints the error and exits 1)
//     realm-file-helper add-dog PATH  adds one more dog (another process's commit to refresh to)
//     realm-file-helper observe-write PATH  observes the dogs while adding 20, until it sees 40
//                                     (two of them run at once: see ObserveWrite.swift)
//     realm-file-helper bad-filter PATH  runs `filter` with a misspelt property: the process
//                                     stops with the diagnostic, as Realm Swift's does
//
// A third argument N opens the realm with `schemaVersion: N` (default 0).
// The test runs `write` and `read` as two processes: the data must survive the first one.
import Foundation
import RQL

final class Owner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<Dog>
    @Persisted var home: Home?
}

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var tags: MutableSet<String>
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Owner>
}

/// `Dog` as a later version of the program declares it: `age` and `owners` gone, `weight` added.
final class DogV2: Object {
    override class func className() -> String { "Dog" }
    @Persisted var name = ""
    @Persisted var weight = 0.0
    @Persisted var tags: MutableSet<String>
}

final class Home: EmbeddedObject {
    @Persisted var city = ""
}

nonisolated(unsafe) var schemaVersion: UInt64 = 0

func configuration(_ path: String) -> Realm.Configuration {
    Realm.Configuration(
        fileURL: URL(fileURLWithPath: path),
        schemaVersion: schemaVersion,
        objectTypes: [Owner.self, Dog.self, Home.self]
    )
}

func readV2(_ path: String) throws -> String {
    let realm = try Realm(
        configuration: Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            schemaVersion: schemaVersion,
            objectTypes: [DogV2.self]
        )
    )
    return "dogs=\(realm.objects(DogV2.self).count)"
}

func write(_ path: String) throws {
    let realm = try Realm(configuration: configuration(path))
    try realm.write {
        let ann = Owner(value: ["id": 1, "name": "Ann", "home": ["city": "Oslo"]])
        ann.dogs.append(Dog(value: ["name": "Rex", "age": 10, "tags": ["big", "old"]]))
        ann.dogs.append(Dog(value: ["name": "Fido", "age": 3]))
        realm.add(ann)
        realm.add(Owner(value: ["id": 2, "name": "Bo", "dogs": [["name": "Spot", "age": 6]]]))
    }
}

func read(_ path: String) throws -> String {
    let realm = try Realm(configuration: configuration(path))
    let owners = realm.objects(Owner.self).sorted(byKeyPath: "id")
    let described = owners.map { owner in
        "\(owner.name)@\(owner.home?.city ?? "-"):" + owner.dogs.map { "\($0.name)/\($0.age)" }.joined(separator: ",")
    }
    let rex = realm.objects(Dog.self).filter("name == 'Rex'").first
    let tags = rex.map { $0.tags.sorted().joined(separator: "+") } ?? "-"
    let owner = rex?.owners.first?.name ?? "-"
    return "owners=\(owners.count) dogs=\(realm.objects(Dog.self).count) " + described.joined(separator: " ")
        + " rex.tags=\(tags) rex.owner=\(owner)"
}

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count),
    ["write", "read", "both", "read-v2", "bad-filter", "add-dog", "observe-write"].contains(arguments[1]),
    arguments.count == 3 || UInt64(arguments[3]) != nil
else {
    FileHandle.standardError.write(
        Data(
            "usage: realm-file-helper write|read|both|read-v2|bad-filter|add-dog|observe-write PATH [SCHEMA-VERSION]\n"
                .utf8
        )
    )
    exit(2)
}
if arguments.count == 4, let version = UInt64(arguments[3]) { schemaVersion = version }
do {
    switch arguments[1] {
    case "write":
        try write(arguments[2])
    case "read":
        print(try read(arguments[2]))
    case "read-v2":
        print(try readV2(arguments[2]))
    case "add-dog":
        let realm = try Realm(configuration: configuration(arguments[2]))
        try realm.write { realm.add(Dog(value: ["name": "Max", "age": 1])) }
    case "observe-write":
        print(try observeWhileWriting(arguments[2]))
    case "bad-filter":
        let realm = try Realm(configuration: configuration(arguments[2]))
        let dogs = realm.objects(Dog.self).filter("agee > 2")
        print("not stopped: \(dogs.count)")
    default:
        try write(arguments[2])
        print(try read(arguments[2]))
    }
} catch {
    FileHandle.standardError.write(Data("realm-file-helper: \(error)\n".utf8))
    exit(1)
}
