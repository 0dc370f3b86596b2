import Foundation
import RQLCore
import Testing

@testable import RQL

final class WatchedMaker: Object {
    @Persisted var name = ""
}

final class WatchedToy: Object {
    @Persisted var brand = ""
    @Persisted var maker: WatchedMaker?
    @Persisted(originProperty: "toys") var owners: LinkingObjects<WatchedPet>
}

final class WatchedPet: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var toys: List<WatchedToy>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: List<Int>
    @Persisted var nicknames: Map<String, String>
}

final class WatchedKeeper: Object {
    @Persisted var name = ""
    @Persisted var pets: List<WatchedPet>
}

/// The watched model's realm.
func makeWatchedRealm(name: String = #function) throws -> Realm {
    try makeRealm([WatchedPet.self, WatchedToy.self, WatchedMaker.self, WatchedKeeper.self], name: name)
}

/// Collects the changes of one observation and checks each update by replaying it: the old
/// elements (as last delivered), minus the deletions, plus the insertions, must be the new ones.
final class ChangeRecord<C: RealmCollection>: @unchecked Sendable where C.Element == WatchedPet {
    private let lock = NSLock()
    private(set) var names: [String] = []
    private(set) var updates: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
    private(set) var initials = 0
    private(set) var failures: [String] = []
    private var modifiedNames: [[String]] = []

    func record(_ change: RealmCollectionChange<C>) {
        lock.withLock {
            switch change {
            case .initial(let collection):
                initials += 1
                names = collection.map(\.name)
            case .update(let collection, let deletions, let insertions, let modifications):
                let new = collection.map(\.name)
                let replayed = Self.replay(names, deletions, insertions, new)
                if replayed != new {
                    failures.append(
                        "replay of \(names) with -\(deletions) +\(insertions) is \(String(describing: replayed)), not \(new)"
                    )
                }
                if modifications.contains(where: { $0 >= names.count })
                    || deletions.contains(where: { $0 >= names.count })
                {
                    failures.append(
                        "indices out of the old collection: \(deletions) \(modifications) of \(names.count)"
                    )
                }
                for list in [deletions, insertions, modifications]
                where list != list.sorted() || Set(list).count != list.count {
                    failures.append("indices not ascending and unique: \(list)")
                }
                modifiedNames.append(modifications.map { names[$0] })
                updates.append((deletions, insertions, modifications))
                names = new
            case .error(let error):
                failures.append("error: \(error)")
            }
        }
    }

    /// The names of the elements each update reported modified (old indices).
    var modified: [[String]] { lock.withLock { modifiedNames } }
    var count: Int { lock.withLock { updates.count } }
    var current: [String] { lock.withLock { names } }

    static func replay(_ old: [String], _ deletions: [Int], _ insertions: [Int], _ new: [String]) -> [String]? {
        var rows = old
        for index in deletions.reversed() {
            guard index < rows.count else { return nil }
            rows.remove(at: index)
        }
        for index in insertions {
            guard index <= rows.count, index < new.count else { return nil }
            rows.insert(new[index], at: index)
        }
        return rows
    }
}

@Suite("Notifications")
struct NotificationTests {
    @Test("results deliver .initial at once, then deletions (old indices) and insertions (new) after a write")
    func resultsUpdate() throws {
        let realm = try makeWatchedRealm()
        try realm.write {
            for age in 0..<5 { realm.add(WatchedPet(value: ["name": "p\(age)", "age": age])) }
        }
        let adults = realm.objects(WatchedPet.self).filter("age >= 2")
        let record = ChangeRecord<Results<WatchedPet>>()
        let token = adults.observe { record.record($0) }
        #expect(record.initials == 1)
        #expect(record.current == ["p2", "p3", "p4"])
        try realm.write {
            realm.delete(adults[0])
            realm.add(WatchedPet(value: ["name": "p5", "age": 7]))
            realm.objects(WatchedPet.self).filter("name == 'p3'").first?.age = 30
        }
        #expect(record.failures == [])
        #expect(record.updates.map(\.deletions) == [[0]])
        #expect(record.updates.map(\.insertions) == [[2]])
        #expect(record.updates.map(\.modifications) == [[1]])
        #expect(record.current == ["p3", "p4", "p5"])
        token.invalidate()
        try realm.write { realm.add(WatchedPet(value: ["name": "p6", "age": 9])) }
        #expect(record.count == 1)
    }

    @Test("a commit to classes the results do not read delivers nothing and runs nothing")
    func untouchedClasses() throws {
        let realm = try makeWatchedRealm()
        try realm.write { realm.add(WatchedPet(value: ["name": "a", "age": 3])) }
        let record = ChangeRecord<Results<WatchedPet>>()
        let token = realm.objects(WatchedPet.self).filter("age > 1").observe { record.record($0) }
        let notifier = try #require(token.observation as? CollectionNotifier<WatchedPet, Results<WatchedPet>>)
        let runs = (notifier.fullRuns, notifier.partialRuns)
        try realm.write { realm.add(WatchedKeeper(value: ["name": "k"])) }
        #expect(record.count == 0)
        #expect(notifier.fullRuns == runs.0 && notifier.partialRuns == runs.1)
        // An insert into the results' own class tests only the inserted object.
        try realm.write { realm.add(WatchedPet(value: ["name": "b", "age": 5])) }
        #expect(record.count == 1)
        #expect(notifier.fullRuns == runs.0)
        #expect(notifier.partialRuns == runs.1 + 1)
        withExtendedLifetime(token) {}
    }

    @Test(
        "every update replays exactly, for random commits, on filtered, sorted and whole-class results and a list",
        arguments: [1, 2, 3]
    )
    func randomReplay(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let realm = try makeWatchedRealm(name: "randomReplay-\(seed)")
        let keeper = WatchedKeeper(value: ["name": "k"])
        try realm.write { realm.add(keeper) }
        let all = ChangeRecord<Results<WatchedPet>>()
        let filtered = ChangeRecord<Results<WatchedPet>>()
        let sorted = ChangeRecord<Results<WatchedPet>>()
        let list = ChangeRecord<List<WatchedPet>>()
        let tokens = [
            realm.objects(WatchedPet.self).observe { all.record($0) },
            realm.objects(WatchedPet.self).filter("age >= 50").observe { filtered.record($0) },
            realm.objects(WatchedPet.self).sorted(byKeyPath: "age").observe { sorted.record($0) },
            keeper.pets.observe { list.record($0) },
        ]
        var next = 0
        for _ in 0..<40 {
            var modifiedInFilter: Set<String> = []
            let before = Set(filtered.current)
            try realm.write {
                for _ in 0..<Int(random.next() % 6) {
                    let pets = realm.objects(WatchedPet.self)
                    switch random.next() % 5 {
                    case 0, 1:
                        let pet = WatchedPet(value: ["name": "p\(next)", "age": Int(random.next() % 100)])
                        next += 1
                        realm.add(pet)
                        if random.next() % 2 == 0 {
                            keeper.pets.insert(pet, at: Int(random.next() % UInt64(keeper.pets.count + 1)))
                        }
                    case 2 where !pets.isEmpty:
                        realm.delete(pets[Int(random.next() % UInt64(pets.count))])
                    case 3 where !pets.isEmpty:
                        let pet = pets[Int(random.next() % UInt64(pets.count))]
                        pet.age = Int(random.next() % 100)
                        if pet.age >= 50 { modifiedInFilter.insert(pet.name) }
                    case 4 where keeper.pets.count > 1:
                        keeper.pets.move(from: Int(random.next() % UInt64(keeper.pets.count)), to: 0)
                    default:
                        break
                    }
                }
            }
            // In key order, a pet modified that stays in the results is a modification.
            let expected = modifiedInFilter.intersection(before).intersection(filtered.current).sorted()
            if filtered.count > 0, !modifiedInFilter.isEmpty {
                #expect(Set(filtered.modified.last ?? []).isSuperset(of: expected))
            }
        }
        for record in [all.failures, filtered.failures, sorted.failures, list.failures] { #expect(record == []) }
        #expect(all.current == realm.objects(WatchedPet.self).map(\.name))
        #expect(filtered.current == realm.objects(WatchedPet.self).filter("age >= 50").map(\.name))
        #expect(sorted.current == realm.objects(WatchedPet.self).sorted(byKeyPath: "age").map(\.name))
        #expect(list.current == keeper.pets.map(\.name))
        #expect(all.count > 10)
        withExtendedLifetime(tokens) {}
    }

    @Test("commits of other threads wait for refresh(), then arrive as one coalesced change")
    func coalescing() throws {
        let realm = try makeWatchedRealm()
        let configuration = realm.configuration
        let record = ChangeRecord<Results<WatchedPet>>()
        let token = realm.objects(WatchedPet.self).observe { record.record($0) }
        try Thread.run {
            let other = try Realm(configuration: configuration)
            for index in 0..<3 {
                try other.write { other.add(WatchedPet(value: ["name": "t\(index)"])) }
            }
            try other.write { other.delete(other.objects(WatchedPet.self).filter("name == 't1'")) }
        }
        #expect(record.count == 0)
        #expect(realm.refresh())
        #expect(record.count == 1)
        #expect(record.updates.first?.insertions == [0, 1])
        #expect(record.current == ["t0", "t2"])
        #expect(record.failures == [])
        withExtendedLifetime(token) {}
    }

    @Test("key paths decide which property changes are modifications, through links to any depth")
    func keyPathFiltering() throws {
        let realm = try makeWatchedRealm()
        let maker = WatchedMaker(value: ["name": "Acme"])
        let toy = WatchedToy(value: ["brand": "Ball", "maker": maker])
        let pet = WatchedPet(value: ["name": "Rex", "age": 3])
        try realm.write {
            pet.toys.append(toy)
            realm.add(pet)
        }
        let pets = realm.objects(WatchedPet.self)
        let byName = ChangeRecord<Results<WatchedPet>>()
        let byDefault = ChangeRecord<Results<WatchedPet>>()
        let byBrand = ChangeRecord<Results<WatchedPet>>()
        let byMaker = ChangeRecord<Results<WatchedPet>>()
        let tokens = [
            pets.observe(keyPaths: ["name"]) { byName.record($0) },
            pets.observe { byDefault.record($0) },
            pets.observe(keyPaths: [\WatchedPet.age, \WatchedPet.toys]) { _ in },
            pets.observe(keyPaths: ["toys.brand"]) { byBrand.record($0) },
            pets.observe(keyPaths: ["toys.maker.name"]) { byMaker.record($0) },
        ]
        try realm.write { pet.age = 4 }
        #expect(byName.count == 0)
        #expect(byDefault.updates.last?.modifications == [0])
        try realm.write { toy.brand = "Frisbee" }
        #expect(byBrand.updates.last?.modifications == [0])
        #expect(byDefault.count == 2)  // one link level by default
        #expect(byMaker.count == 0)
        try realm.write { maker.name = "Globex" }
        #expect(byMaker.updates.last?.modifications == [0])
        #expect(byDefault.count == 2)  // two levels: not followed unless asked
        #expect(byBrand.count == 1)
        try realm.write { pet.name = "Max" }
        #expect(byName.updates.last?.modifications == [0])
        withExtendedLifetime(tokens) {}
    }

    @Test("write(withoutNotifying:) skips the given tokens' delivery of that commit only")
    func withoutNotifying() throws {
        let realm = try makeWatchedRealm()
        let skipped = ChangeRecord<Results<WatchedPet>>()
        let told = ChangeRecord<Results<WatchedPet>>()
        let pets = realm.objects(WatchedPet.self)
        let quiet = pets.observe { skipped.record($0) }
        let loud = pets.observe { told.record($0) }
        try realm.write(withoutNotifying: [quiet]) { realm.add(WatchedPet(value: ["name": "a"])) }
        #expect(skipped.count == 0)
        #expect(told.count == 1)
        realm.beginWrite()
        realm.add(WatchedPet(value: ["name": "b"]))
        try realm.commitWrite(withoutNotifying: [quiet])
        try realm.write { realm.add(WatchedPet(value: ["name": "c"])) }
        #expect(skipped.count == 1)
        #expect(skipped.updates.last?.insertions == [2])
        #expect(told.count == 3)
        withExtendedLifetime([quiet, loud]) {}
    }

    @Test("a queue gets frozen collections; deliveries coalesce and replay; invalidate stops them")
    func queueDelivery() throws {
        let realm = try makeWatchedRealm()
        let queue = DispatchQueue(label: "watch")
        let record = ChangeRecord<Results<WatchedPet>>()
        let frozen = FrozenCheck()
        let token = realm.objects(WatchedPet.self).filter("age > 10").observe(on: queue) { change in
            if case .update(let results, _, _, _) = change { frozen.note(results.isFrozen) }
            record.record(change)
        }
        for index in 0..<20 {
            try realm.write { realm.add(WatchedPet(value: ["name": "q\(index)", "age": index])) }
        }
        try realm.write { realm.delete(realm.objects(WatchedPet.self).filter("age == 15")) }
        let expected = realm.objects(WatchedPet.self).filter("age > 10").map(\.name)
        #expect(waitUntil { record.current == expected })
        #expect(record.initials == 1)
        #expect(record.failures == [])
        #expect(frozen.allFrozen)
        token.invalidate()
        queue.sync {}
        let delivered = record.count
        try realm.write { realm.add(WatchedPet(value: ["name": "late", "age": 99])) }
        queue.sync {}
        #expect(record.count == delivered)
    }

    @Test("changesets() yields .initial and updates of frozen results until the stream is dropped")
    func changesets() async throws {
        let configuration = try makeWatchedRealm().configuration
        var iterator = try Realm(configuration: configuration).objects(WatchedPet.self).changesets().makeAsyncIterator()
        guard case .initial(let first)? = await iterator.next() else {
            Issue.record("no initial change")
            return
        }
        #expect(first.isEmpty && first.isFrozen)
        try Thread.run {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(WatchedPet(value: ["name": "s"])) }
        }
        guard case .update(let pets, _, let insertions, _)? = await iterator.next() else {
            Issue.record("no update")
            return
        }
        #expect(pets.map(\.name) == ["s"])
        #expect(insertions == [0])
    }

    @Test("an actor's block runs isolated to it with each change, in order")
    func actorDelivery() async throws {
        let configuration = try makeWatchedRealm().configuration
        let model = PetCounter()
        let realm = try Realm(configuration: configuration)
        let token = await realm.objects(WatchedPet.self).observe(on: model) { model, change in
            if case .update(let pets, _, _, _) = change { model.counts.append(pets.count) }
            if case .initial(let pets) = change { model.counts.append(pets.count) }
        }
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(WatchedPet(value: ["name": "a"])) }
        }
        var waited = 0
        while await model.counts.last != 1, waited < 2000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(await model.counts.first == 0)
        #expect(await model.counts.last == 1)
        token.invalidate()
    }

    @Test("objects report changed properties with old and new values, then their deletion")
    func objectChanges() throws {
        let realm = try makeWatchedRealm()
        let pet = WatchedPet(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(pet) }
        var changes: [ObjectChange<WatchedPet>] = []
        let token = pet.observe { changes.append($0) }
        let onlyName = pet.observe(keyPaths: [\WatchedPet.name]) { _ in Issue.record("name did not change") }
        #expect(changes.isEmpty)
        try realm.write { pet.age = 4 }
        guard case .change(let object, let properties) = changes.first else {
            Issue.record("no change: \(changes)")
            return
        }
        #expect(object.age == 4)
        #expect(properties.map(\.name) == ["age"])
        #expect(properties.first?.oldValue as? Int == 3)
        #expect(properties.first?.newValue as? Int == 4)
        onlyName.invalidate()
        try realm.write { realm.delete(pet) }
        guard case .deleted = changes.last else {
            Issue.record("no deletion: \(changes)")
            return
        }
        #expect(changes.count == 2)
        withExtendedLifetime(token) {}
    }

    @Test("a realm says .didChange after its commits and refreshes that moved it")
    func realmChanges() throws {
        let realm = try makeWatchedRealm()
        let configuration = realm.configuration
        var notifications: [Realm.Notification] = []
        let token = realm.observe { notification, _ in notifications.append(notification) }
        try realm.write { realm.add(WatchedPet()) }
        #expect(notifications == [.didChange])
        #expect(!realm.refresh())
        try Thread.run {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(WatchedPet()) }
        }
        #expect(realm.refresh())
        #expect(notifications == [.didChange, .didChange])
        withExtendedLifetime(token) {}
    }

    @Test("lists, sets of values and linking objects deliver their changes")
    func collectionKinds() throws {
        let realm = try makeWatchedRealm()
        let keeper = WatchedKeeper(value: ["name": "k"])
        let pet = WatchedPet(value: ["name": "Rex"])
        try realm.write {
            realm.add(keeper)
            realm.add(pet)
        }
        var scores: [RealmCollectionChange<List<Int>>] = []
        var tags: [RealmCollectionChange<MutableSet<String>>] = []
        let tokens = [
            pet.scores.observe { scores.append($0) },
            pet.tags.observe { tags.append($0) },
        ]
        try realm.write { pet.scores.append(objectsIn: [1, 2, 3]) }
        try realm.write {
            pet.scores.remove(at: 1)
            pet.tags.insert("big")
        }
        guard case .update(let list, let deletions, let insertions, _) = scores.last else {
            Issue.record("no list update")
            return
        }
        #expect(Array(list) == [1, 3])
        #expect(deletions == [1] && insertions == [])
        guard case .update(let set, _, let added, _) = tags.last else {
            Issue.record("no set update")
            return
        }
        #expect(Array(set) == ["big"] && added == [0])
        withExtendedLifetime(tokens) {}
    }

    @Test("key diffs replay for reorders, duplicates in lists, and ascending merges")
    func keyDiffs() {
        let keys: [RowKey] = (0..<8).map { RowKey(Int64($0)) }
        let shuffled = [keys[3], keys[0], keys[1], keys[7], keys[2], keys[5]]
        let diff = KeyDiff.ordered(old: keys, new: shuffled)
        let replayed: [RowKey] = KeyDiff.replay(
            keys,
            deletions: diff.deletions,
            insertions: diff.insertions,
            new: shuffled
        )
        #expect(replayed == shuffled)
        let ascending = KeyDiff.ascending(old: [keys[1], keys[2], keys[4]], new: [keys[0], keys[2], keys[5]])
        #expect(ascending.deletions == [0, 2] && ascending.insertions == [0, 2])
        let twice = [keys[1], keys[1], keys[2]]
        let reordered = [keys[1], keys[2], keys[1]]
        let again = KeyDiff.ordered(old: twice, new: reordered)
        let back: [RowKey] = KeyDiff.replay(
            twice,
            deletions: again.deletions,
            insertions: again.insertions,
            new: reordered
        )
        #expect(back == reordered)
        let once = [keys[2], keys[1]]
        let fewer = KeyDiff.ordered(old: twice, new: once)
        let shrunk: [RowKey] = KeyDiff.replay(
            twice,
            deletions: fewer.deletions,
            insertions: fewer.insertions,
            new: once
        )
        #expect(shrunk == once)
    }
}

final class FrozenCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var frozen = true
    func note(_ isFrozen: Bool) { lock.withLock { frozen = frozen && isFrozen } }
    var allFrozen: Bool { lock.withLock { frozen } }
}

actor PetCounter {
    var counts: [Int] = []
}

/// Polls `condition` for up to twenty seconds (a loaded machine may be slow to deliver).
func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// A small deterministic generator (SplitMix64) for random commit sequences.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Key paths that name nothing, linking objects, and objects delivered on a queue.
@Suite("Notifications: key path errors and other kinds")
struct NotificationEdgeTests {
    @Test("a key path naming no property, or going on past a value, is an error naming it")
    func badKeyPaths() throws {
        let realm = try makeWatchedRealm()
        let schema = realm.context.current.schema
        #expect(throws: Realm.Error.self) { try ObservedPaths(["agee"], className: "WatchedPet", schema: schema) }
        #expect(throws: Realm.Error.self) { try ObservedPaths(["age.years"], className: "WatchedPet", schema: schema) }
        #expect(throws: Realm.Error.self) {
            try ObservedPaths(["toys.maker.nope"], className: "WatchedPet", schema: schema)
        }
        let deep = try ObservedPaths(["toys.maker.name"], className: "WatchedPet", schema: schema)
        #expect(deep.classes == ["WatchedPet", "WatchedToy", "WatchedMaker"])
        #expect(deep.direct == ["toys"])
    }

    @Test("linking objects report the objects that come to link here")
    func linkingObjects() throws {
        let realm = try makeWatchedRealm()
        let toy = WatchedToy(value: ["brand": "Ball"])
        try realm.write { realm.add(toy) }
        var counts: [Int] = []
        let token = toy.owners.observe { change in
            switch change {
            case .initial(let owners): counts.append(owners.count)
            case .update(let owners, _, let insertions, _):
                counts.append(owners.count)
                #expect(insertions == [owners.count - 1])
            case .error: break
            }
        }
        try realm.write { realm.add(WatchedPet(value: ["name": "Rex", "toys": [toy]])) }
        try realm.write { realm.add(WatchedPet(value: ["name": "Max", "toys": [toy]])) }
        #expect(counts == [0, 1, 2])
        withExtendedLifetime(token) {}
    }

    @Test("an object observed on a queue is delivered frozen, with its old and new values")
    func objectOnQueue() throws {
        let realm = try makeWatchedRealm()
        let pet = WatchedPet(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(pet) }
        let seen = Outcomes()
        let token = pet.observe(on: DispatchQueue(label: "pet")) { change in
            if case .change(let object, let properties) = change {
                seen.add(
                    "\(object.isFrozen) \(object.age) \(properties.map { "\($0.name):\($0.oldValue ?? "-")>\($0.newValue ?? "-")" })"
                )
            }
        }
        try realm.write { pet.age = 2 }
        #expect(waitUntil { !seen.all.isEmpty })
        #expect(seen.all == ["true 2 [\"age:1>2\"]"])
        token.invalidate()
    }
}

/// Maps and sectioned results: their own change shapes.
@Suite("Notifications of maps and sections")
struct KeyedNotificationTests {
    @Test("a map reports the keys removed, added and changed")
    func mapChanges() throws {
        let realm = try makeWatchedRealm()
        let pet = WatchedPet(value: ["name": "Rex"])
        try realm.write {
            pet.nicknames["home"] = "Rexy"
            pet.nicknames["vet"] = "R."
            realm.add(pet)
        }
        var changes: [RealmMapChange<Map<String, String>>] = []
        let token = pet.nicknames.observe { changes.append($0) }
        guard case .initial(let first)? = changes.first else {
            Issue.record("no initial change")
            return
        }
        #expect(first.count == 2)
        try realm.write {
            pet.nicknames["vet"] = nil
            pet.nicknames["park"] = "Rex!"
            pet.nicknames["home"] = "Rexie"
        }
        guard case .update(let map, let deletions, let insertions, let modifications)? = changes.last else {
            Issue.record("no update: \(changes)")
            return
        }
        #expect(deletions == ["vet"] && insertions == ["park"] && modifications == ["home"])
        #expect(map["home"] == "Rexie")
        try realm.write { pet.age = 9 }
        #expect(changes.count == 2)
        withExtendedLifetime(token) {}
    }

    @Test("sectioned results report items by index path and whole sections")
    func sectionChanges() throws {
        let realm = try makeWatchedRealm()
        try realm.write {
            for name in ["Ann", "Abe", "Bo", "Cy"] { realm.add(WatchedPet(value: ["name": name])) }
        }
        let sections = realm.objects(WatchedPet.self).sectioned(
            by: { String($0.name.prefix(1)) },
            sortDescriptors: [SortDescriptor(keyPath: "name")]
        )
        var changes: [SectionedResultsChange<SectionedResults<String, WatchedPet>>] = []
        let token = sections.observe { changes.append($0) }
        #expect(changes.count == 1)
        try realm.write {
            realm.delete(realm.objects(WatchedPet.self).filter("name == 'Bo'"))
            realm.add(WatchedPet(value: ["name": "Dee"]))
            realm.add(WatchedPet(value: ["name": "Al"]))
        }
        guard
            case .update(let now, let deletions, let insertions, _, let sectionsToInsert, let sectionsToDelete)? =
                changes.last
        else {
            Issue.record("no update")
            return
        }
        #expect(now.allKeys == ["A", "C", "D"])
        #expect(sectionsToDelete == IndexSet([1]))
        #expect(sectionsToInsert == IndexSet([2]))
        #expect(deletions == [])
        #expect(insertions == [IndexPath(item: 1, section: 0)])
        withExtendedLifetime(token) {}
    }
}
