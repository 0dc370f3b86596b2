// A realm in a process of its own, for RQLTests' file-backed realm test:
//
//     realm-file-helper write PATH    writes a known set of objects to the realm stored at PATH
//     realm-file-helper read PATH     prints what the realm at PATH holds, one line
//     realm-file-helper both PATH     writes, then reads in the same process (checks the line)
//
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

final class Home: EmbeddedObject {
    @Persisted var city = ""
}

func configuration(_ path: String) -> Realm.Configuration {
    Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Owner.self, Dog.self, Home.self])
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
guard arguments.count == 3, ["write", "read", "both"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: realm-file-helper write|read|both PATH\n".utf8))
    exit(2)
}
do {
    switch arguments[1] {
    case "write":
        try write(arguments[2])
    case "read":
        print(try read(arguments[2]))
    default:
        try write(arguments[2])
        print(try read(arguments[2]))
    }
} catch {
    FileHandle.standardError.write(Data("realm-file-helper: \(error)\n".utf8))
    exit(1)
}
