import Foundation
import Testing

@testable import RQL

@Suite("Notifications of sorted results")
struct NotificationSortedTests {
    typealias Notifier = CollectionNotifier<WatchedPet, Results<WatchedPet>>

    /// The two sorted observations the tests watch: by age (ties in key order), and filtered,
    /// by age descending then name with case folded.
    static func byAge(_ realm: Realm) -> Results<WatchedPet> {
        realm.objects(WatchedPet.self).sorted(byKeyPath: "age")
    }

    static func adultsByAgeDescending(_ realm: Realm) -> Results<WatchedPet> {
        realm.objects(WatchedPet.self).filter("age >= 20")
            .sorted(by: [
                SortDescriptor(keyPath: "age", ascending: false),
                SortDescriptor(keyPath: "name", ascending: true, caseInsensitive: true),
            ])
    }

    @Test(
        "a small commit to sorted results is applied by binary search, never by running the query, and gives the query's order",
        arguments: [1, 2, 3]
    )
    func smallCommits(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let realm = try makeWatchedRealm(name: "sortedSmallCommits-\(seed)")
        var next = 0
        try realm.write {
            for _ in 0..<300 {
                let name = (random.next() % 2 == 0 ? "p" : "P") + "\(random.next() % 1_000)"
                realm.add(WatchedPet(value: ["name": name, "age": Int(random.next() % 40)]))
                next += 1
            }
        }
        let byAge = ChangeRecord<Results<WatchedPet>>()
        let adults = ChangeRecord<Results<WatchedPet>>()
        let tokens = [
            Self.byAge(realm).observe { byAge.record($0) },
            Self.adultsByAgeDescending(realm).observe { adults.record($0) },
        ]
        let notifiers = try tokens.map { try #require($0.observation as? Notifier) }
        let fullRuns = notifiers.map(\.fullRuns)
        for _ in 0..<60 {
            try realm.write {
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let pets = realm.objects(WatchedPet.self)
                    switch random.next() % 4 {
                    case 0:
                        realm.add(WatchedPet(value: ["name": "n\(next)", "age": Int(random.next() % 40)]))
                        next += 1
                    case 1:
                        realm.delete(pets[Int(random.next() % UInt64(pets.count))])
                    case 2:
                        pets[Int(random.next() % UInt64(pets.count))].age = Int(random.next() % 40)
                    default:
                        // A change that leaves the sort values alone: a modification in place.
                        pets[Int(random.next() % UInt64(pets.count))].tags.insert("t\(random.next() % 5)")
                    }
                }
            }
            #expect(byAge.failures == [])
            #expect(adults.failures == [])
            #expect(byAge.current == Self.byAge(realm).map(\.name))
            #expect(adults.current == Self.adultsByAgeDescending(realm).map(\.name))
        }
        #expect(notifiers.map(\.fullRuns) == fullRuns)
        #expect(notifiers.allSatisfy { $0.partialRuns >= 50 })
        #expect(byAge.count >= 50)
        withExtendedLifetime(tokens) {}
    }

    @Test(
        "an object that passes another moves (a deletion and an insertion); one that passes none is modified in place"
    )
    func movesAndModifications() throws {
        let realm = try makeWatchedRealm()
        try realm.write {
            for (name, age) in [("a", 10), ("b", 20), ("c", 30), ("d", 40)] {
                realm.add(WatchedPet(value: ["name": name, "age": age]))
            }
        }
        let record = ChangeRecord<Results<WatchedPet>>()
        let token = Self.byAge(realm).observe { record.record($0) }
        let pets = realm.objects(WatchedPet.self)
        try realm.write { pets.filter("name == 'a'").first?.age = 35 }
        #expect(record.updates.last?.deletions == [0])
        #expect(record.updates.last?.insertions == [2])
        #expect(record.updates.last?.modifications == [])
        #expect(record.current == ["b", "c", "a", "d"])
        try realm.write { pets.filter("name == 'c'").first?.scores.append(1) }
        #expect(record.updates.last?.deletions == [])
        #expect(record.updates.last?.insertions == [])
        #expect(record.updates.last?.modifications == [1])
        // A sort value that changes without passing another object: modified in place.
        try realm.write { pets.filter("name == 'c'").first?.age = 31 }
        #expect(record.updates.last?.deletions == [])
        #expect(record.updates.last?.insertions == [])
        #expect(record.updates.last?.modifications == [1])
        #expect(record.current == ["b", "c", "a", "d"])
        // A tie goes in key order: "b" (older) stays before "e".
        try realm.write { realm.add(WatchedPet(value: ["name": "e", "age": 20])) }
        #expect(record.updates.last?.insertions == [1])
        #expect(record.current == ["b", "e", "c", "a", "d"])
        #expect(record.failures == [])
        withExtendedLifetime(token) {}
    }

    @Test("a commit touching many of the sorted objects runs the query once instead")
    func largeCommitRunsTheQuery() throws {
        let realm = try makeWatchedRealm()
        try realm.write {
            for index in 0..<200 { realm.add(WatchedPet(value: ["name": "p\(index)", "age": index % 50])) }
        }
        let record = ChangeRecord<Results<WatchedPet>>()
        let token = Self.byAge(realm).observe { record.record($0) }
        let notifier = try #require(token.observation as? Notifier)
        let runs = (notifier.fullRuns, notifier.partialRuns)
        try realm.write {
            for pet in realm.objects(WatchedPet.self) { pet.age = 49 - pet.age }
        }
        #expect(notifier.fullRuns == runs.0 + 1)
        #expect(notifier.partialRuns == runs.1)
        #expect(record.failures == [])
        #expect(record.current == Self.byAge(realm).map(\.name))
        withExtendedLifetime(token) {}
    }

    @Test("sorted results whose sort follows a link run the query again (their order is not the row's own)")
    func linkSortRunsTheQuery() throws {
        let realm = try makeWatchedRealm()
        try realm.write {
            for index in 0..<5 { realm.add(WatchedToy(value: ["brand": "b\(index)"])) }
        }
        let token = realm.objects(WatchedToy.self).sorted(byKeyPath: "maker.name").observe { _ in }
        let notifier = try #require(token.observation as? CollectionNotifier<WatchedToy, Results<WatchedToy>>)
        let runs = notifier.fullRuns
        try realm.write { realm.add(WatchedToy(value: ["brand": "x"])) }
        #expect(notifier.fullRuns == runs + 1)
        withExtendedLifetime(token) {}
    }
}
