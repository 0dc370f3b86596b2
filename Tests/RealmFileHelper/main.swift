// A realm in a process of its own, for RQLTests' file-backed realm test:
//
//     realm-file-helper write PATH    writes a known set of objects to the realm stored at PATH
//     realm-file-helper read PATH     prints what the realm at PATH holds, one line
//     realm-file-helper both PATH     writes, then reads in the same process (checks the line)
//     realm-file-helper read-v2 PATH  opens the realm declaring a changed `Dog`: at the stored
//                                     schema version prints the error and exits 1; at a higher
//                                     one migrates (weight = age * 2) and prints the dog count
//     realm-file-helper migrate-stop PATH  opens it declaring the changed `Dog` with a migration
//                                     block that writes, then stops the process inside it
//     realm-file-helper add-dog PATH  adds one more dog (another process's commit to refresh to)
//     realm-file-helper hold PATH     opens the realm, prints "open <dogs>", and keeps it open
//                                     until a line arrives on standard input
//     realm-file-helper commit-loop PATH  adds dogs "d<n>" (n: the dogs before it) one write each,
//                                     printing the count once each write returned, until killed
//     realm-file-helper observe-write PATH  observes the dogs while adding 20, until it sees 40
//                                     (two of them run at once: see ObserveWrite.swift)
//     realm-file-helper bad-filter PATH  runs `filter` with a misspelt property: the process
//                                     stops with the diagnostic, as Realm Swift's does
//     realm-file-helper stop-MODE PATH   hits one deliberate stop (`StopMode` below); run from a
//                                     release build, it shows each stop's message survives -O
//     realm-file-helper wrong-thread-KIND PATH  uses a realm, object, results, list or write
//                                     (KIND) from a thread other than the realm's: the process
//                                     stops with "Realm accessed from incorrect thread."
//     realm-file-helper wrong-actor PATH  uses a realm confined to an actor from outside it: stops
//     realm-file-helper frozen-elsewhere PATH  reads frozen copies on another thread (exits 0)
//     realm-file-helper resolve-twice PATH  resolves a ThreadSafeReference twice: the process stops
//     realm-file-helper live-results-task PATH  sends live results (Sendable) into a detached task,
//                                     which reads them there: the process stops
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

/// A class outside the helper's `objectTypes`, for the unknown-class stop.
final class Stray: Object {
    @Persisted var name = ""
}

/// Each deliberate stop of the object model, reached the way a program would reach it.
enum StopMode: String, CaseIterable {
    /// `filter` with a misspelt property.
    case badQuery = "stop-bad-query"
    /// A managed object changed outside a write transaction.
    case writeOutside = "stop-write-outside"
    /// A deleted object read.
    case deletedRead = "stop-deleted-read"
    /// A class the configuration's `objectTypes` does not list.
    case unknownClass = "stop-unknown-class"
    /// A primary key of the wrong type.
    case wrongKeyType = "stop-wrong-key-type"
    /// `sum(ofProperty:)` of a string property.
    case sumOfString = "stop-sum-of-string"
    /// A plain `preconditionFailure`: in an optimized build its message is dropped, which is
    /// what shows the helper was built optimized.
    case plainPrecondition = "stop-plain-precondition"
    /// Inside a write, `objects(_:)` of a class the file lacks on a realm of the same file opened
    /// through a hard link (`PATH.link`): adding the class needs a write of its own.
    case newClassInLinkedWrite = "stop-new-class-in-linked-write"

    func run(_ path: String) throws {
        let realm = try Realm(configuration: configuration(path))
        try realm.write {
            realm.add(Owner(value: ["id": 1, "name": "Ann", "dogs": [["name": "Rex", "age": 3]]]))
        }
        let rex = realm.objects(Dog.self)[0]
        switch self {
        case .badQuery:
            print("not stopped: \(realm.objects(Dog.self).filter("agee > 2").count)")
        case .writeOutside:
            rex.age = 4
        case .deletedRead:
            try realm.write { realm.delete(rex) }
            print("not stopped: \(rex.name)")
        case .unknownClass:
            print("not stopped: \(realm.objects(Stray.self).count)")
        case .wrongKeyType:
            print("not stopped: \(String(describing: realm.object(ofType: Owner.self, forPrimaryKey: "one")))")
        case .sumOfString:
            let total: Int = realm.objects(Dog.self).sum(ofProperty: "name")
            print("not stopped: \(total)")
        case .plainPrecondition:
            preconditionFailure("a message only an unoptimized build prints")
        case .newClassInLinkedWrite:
            try FileManager.default.linkItem(atPath: path, toPath: path + ".link")
            let linked = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path + ".link")))
            try realm.write {
                realm.add(Dog(value: ["name": "Max", "age": 1]))
                say("not stopped: \(linked.objects(Stray.self).count)")
            }
        }
        print("not stopped")
    }
}

nonisolated(unsafe) var schemaVersion: UInt64 = 0

func configuration(_ path: String) -> Realm.Configuration {
    Realm.Configuration(
        fileURL: URL(fileURLWithPath: path),
        schemaVersion: schemaVersion,
        objectTypes: [Owner.self, Dog.self, Home.self]
    )
}

func readV2(_ path: String, stopping: Bool = false) throws -> String {
    let realm = try Realm(
        configuration: Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            schemaVersion: schemaVersion,
            migrationBlock: { migration, _ in
                migration.enumerateObjects(ofType: "Dog") { old, new in
                    new?["weight"] = Double(old?["age"] as? Int ?? 0) * 2
                    new?["name"] = "renamed"
                }
                if stopping { fatalError("stopped inside the migration block") }
            },
            objectTypes: [DogV2.self]
        )
    )
    let weights = realm.objects(DogV2.self).sorted(byKeyPath: "weight").map { "\($0.weight)" }
    return "dogs=\(realm.objects(DogV2.self).count) weights=\(weights.joined(separator: ","))"
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

/// Prints `line` unbuffered, so that it reaches the test even when the process stops next.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs `body` on a new thread and waits for it.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    done.wait()
}

/// Uses a live value of this thread's realm on another thread: the process must stop there.
func wrongThread(_ kind: String, _ path: String) throws {
    try write(path)
    let realm = try Realm(configuration: configuration(path))
    let ann = realm.objects(Owner.self).first!
    nonisolated(unsafe) let values = (realm, ann, ann.dogs, realm.objects(Dog.self))
    onAnotherThread {
        let (realm, ann, dogs, results) = values
        switch kind {
        case "realm": say("not stopped: \(realm.objects(Dog.self).count)")
        case "object": say("not stopped: \(ann.name)")
        case "list": say("not stopped: \(dogs.count)")
        case "results": say("not stopped: \(results.count)")
        default: say("not stopped: \((try? realm.write { realm.add(Dog()) }) != nil)")
        }
    }
}

/// A realm confined to an actor, leaked out of it.
nonisolated(unsafe) var leakedRealm: Realm?

actor RealmHolder {
    var realm: Realm?
    func open(_ path: String) async throws {
        let realm = try await Realm(configuration: configuration(path), actor: self)
        say("on the actor: \(realm.objects(Dog.self).count)")
        leakedRealm = realm
        self.realm = realm
    }
}

/// Uses an actor's realm from a thread outside the actor: the process must stop there.
func wrongActor(_ path: String) throws {
    try write(path)
    let holder = RealmHolder()
    let opened = DispatchSemaphore(value: 0)
    Task {
        try await holder.open(path)
        opened.signal()
    }
    opened.wait()
    onAnotherThread { say("not stopped: \(leakedRealm!.objects(Dog.self).count)") }
}

/// Sends this thread's live results into a detached task, which needs no `nonisolated(unsafe)`
/// (`Results` is `Sendable`): reading them there must stop the process.
func liveResultsInTask(_ path: String) throws {
    try write(path)
    let realm = try Realm(configuration: configuration(path))
    let dogs = realm.objects(Dog.self)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        say("not stopped: \(dogs.count)")
        done.signal()
    }
    done.wait()
}

/// Frozen copies read on another thread, concurrently: prints what they read.
func frozenElsewhere(_ path: String) throws {
    try write(path)
    let realm = try Realm(configuration: configuration(path))
    nonisolated(unsafe) let frozen = (
        realm.freeze(), realm.objects(Owner.self).first!.freeze(), realm.objects(Dog.self).freeze()
    )
    try realm.write { realm.add(Dog(value: ["name": "Max", "age": 1])) }
    onAnotherThread {
        let (frozenRealm, ann, dogs) = frozen
        say("dogs=\(frozenRealm.objects(Dog.self).count) ann=\(ann.name):\(ann.dogs.count) results=\(dogs.count)")
    }
}

let arguments = CommandLine.arguments
let threadModes = [
    "wrong-thread-realm", "wrong-thread-object", "wrong-thread-list", "wrong-thread-results", "wrong-thread-write",
    "wrong-actor", "frozen-elsewhere", "resolve-twice", "live-results-task",
]
let fileModes = [
    "write", "read", "both", "read-v2", "migrate-stop", "bad-filter", "add-dog", "observe-write", "commit-loop", "hold",
]
guard (3...4).contains(arguments.count),
    (fileModes + threadModes).contains(arguments[1]) || StopMode(rawValue: arguments[1]) != nil,
    arguments.count == 3 || UInt64(arguments[3]) != nil
else {
    FileHandle.standardError.write(
        Data(
            ("usage: realm-file-helper write|read|both|read-v2|migrate-stop|bad-filter|add-dog|observe-write|hold|stop-…|"
                + "\(threadModes.joined(separator: "|")) PATH [SCHEMA-VERSION]\n").utf8
        )
    )
    exit(2)
}
if arguments.count == 4, let version = UInt64(arguments[3]) { schemaVersion = version }
do {
    if let mode = StopMode(rawValue: arguments[1]) { try mode.run(arguments[2]) }
    switch arguments[1] {
    case "write":
        try write(arguments[2])
    case "read":
        print(try read(arguments[2]))
    case "read-v2":
        print(try readV2(arguments[2]))
    case "migrate-stop":
        print(try readV2(arguments[2], stopping: true))
    case "add-dog":
        let realm = try Realm(configuration: configuration(arguments[2]))
        try realm.write { realm.add(Dog(value: ["name": "Max", "age": 1])) }
    case "hold":
        let realm = try Realm(configuration: configuration(arguments[2]))
        say("open \(realm.objects(Dog.self).count)")
        _ = readLine()
    case "commit-loop":
        let realm = try Realm(configuration: configuration(arguments[2]))
        while true {
            let count = realm.objects(Dog.self).count
            try realm.write { realm.add(Dog(value: ["name": "d\(count)", "age": count])) }
            FileHandle.standardOutput.write(Data("\(count + 1)\n".utf8))
        }
    case "observe-write":
        print(try observeWhileWriting(arguments[2]))
    case let mode where mode.hasPrefix("wrong-thread-"):
        try wrongThread(String(mode.dropFirst("wrong-thread-".count)), arguments[2])
    case "wrong-actor":
        try wrongActor(arguments[2])
    case "frozen-elsewhere":
        try frozenElsewhere(arguments[2])
    case "live-results-task":
        try liveResultsInTask(arguments[2])
    case "resolve-twice":
        try write(arguments[2])
        let realm = try Realm(configuration: configuration(arguments[2]))
        let reference = ThreadSafeReference(to: realm.objects(Owner.self).first!)
        say("first: \(realm.resolve(reference)?.name ?? "-")")
        say("not stopped: \(realm.resolve(reference)?.name ?? "-")")
    case "bad-filter":
        let realm = try Realm(configuration: configuration(arguments[2]))
        let dogs = realm.objects(Dog.self).filter("agee > 2")
        say("not stopped: \(dogs.count)")
    case "both":
        try write(arguments[2])
        print(try read(arguments[2]))
    default:
        break
    }
} catch {
    FileHandle.standardError.write(Data("realm-file-helper: \(error)\n".utf8))
    exit(1)
}
