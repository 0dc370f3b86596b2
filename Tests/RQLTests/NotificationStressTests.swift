import Foundation
import Testing

@testable import RQL

/// Notifications under concurrency: threads and queues observing while other threads write,
/// and processes writing one file while each observes it.
@Suite("Notifications under load")
struct NotificationStressTests {
    /// How long the writers write: the figure. Nothing is timed; the readers and
    /// observers run until the writers stop.
    static let writingSeconds = 10.0

    @Test(
        "eight threads read and observe, and two queues observe, while two threads write: no torn read, every delivery replays"
    )
    func threadsObserveWhileTwoWrite() throws {
        let configuration = try makeWatchedRealm().configuration
        let holder = try Realm(configuration: configuration)
        // The ledger: every write sets its name to the number of pets it leaves, in the same
        // transaction, so a read that mixed two versions sees them disagree.
        try holder.write { holder.add(WatchedKeeper(value: ["name": "0"])) }
        let writing = WriterCount()
        let group = DispatchGroup()
        let queueRecords = (0..<2).map { _ in ChangeRecord<Results<WatchedPet>>() }
        let queueTokens = queueRecords.enumerated().map { index, record in
            holder.objects(WatchedPet.self).filter("age >= \(index * 30)").sorted(byKeyPath: "age")
                .observe(on: DispatchQueue(label: "stress-\(index)")) { record.record($0) }
        }
        let threadRecords = (0..<8).map { _ in ChangeRecord<Results<WatchedPet>>() }
        let outcomes = Outcomes()
        let reads = ReadCount()
        for (index, record) in threadRecords.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let realm = try Realm(configuration: configuration)
                    let results =
                        index % 2 == 0
                        ? realm.objects(WatchedPet.self).filter("age < 50")
                        : realm.objects(WatchedPet.self)
                    let token = results.observe { record.record($0) }
                    let all = realm.objects(WatchedPet.self)
                    let young = realm.objects(WatchedPet.self).filter("age < 50")
                    let old = realm.objects(WatchedPet.self).filter("age >= 50")
                    let ledger = realm.objects(WatchedKeeper.self)
                    while writing.value > 0 || writing.started == false {
                        realm.refresh()
                        _ = results.count
                        // One version between refreshes: the counts and the ledger agree.
                        let count = all.count
                        let recorded = ledger.first.flatMap { Int($0.name) }
                        if recorded != count || young.count + old.count != count {
                            outcomes.add("thread \(index): torn read (\(count), \(String(describing: recorded)))")
                        }
                        reads.add()
                        Thread.sleep(forTimeInterval: 0.001)
                    }
                    realm.refresh()
                    outcomes.add(record.current == results.map(\.name) ? nil : "thread \(index) ends off the truth")
                    token.invalidate()
                } catch {
                    outcomes.add("thread \(index): \(error)")
                }
            }
        }
        for writer in 0..<2 {
            group.enter()
            writing.begin()
            Thread.detachNewThread {
                defer {
                    writing.end()
                    group.leave()
                }
                do {
                    var random = SeededRandom(seed: UInt64(writer + 7))
                    let realm = try Realm(configuration: configuration)
                    let deadline = Date().addingTimeInterval(Self.writingSeconds)
                    var next = 0
                    while Date() < deadline {
                        try realm.write {
                            let pets = realm.objects(WatchedPet.self)
                            switch random.next() % 3 {
                            case 0 where !pets.isEmpty:
                                realm.delete(pets[Int(random.next() % UInt64(pets.count))])
                            case 1 where !pets.isEmpty:
                                pets[Int(random.next() % UInt64(pets.count))].age = Int(random.next() % 100)
                            default:
                                realm.add(
                                    WatchedPet(value: ["name": "w\(writer)-\(next)", "age": Int(random.next() % 100)])
                                )
                                next += 1
                            }
                            let left = realm.objects(WatchedPet.self).count
                            realm.objects(WatchedKeeper.self).first?.name = String(left)
                        }
                    }
                } catch {
                    outcomes.add("writer \(writer): \(error)")
                }
            }
        }
        group.wait()
        holder.refresh()
        for (index, record) in queueRecords.enumerated() {
            let truth = holder.objects(WatchedPet.self).filter("age >= \(index * 30)").sorted(byKeyPath: "age")
            let names = Set(truth.map(\.name))
            #expect(waitUntil { Set(record.current) == names })
            #expect(record.failures == [])
        }
        for record in threadRecords {
            #expect(record.failures == [])
            #expect(record.count > 0)
        }
        #expect(reads.value > 0)
        #expect(outcomes.all == [])
        withExtendedLifetime(queueTokens) {}
    }

    @Test("two processes write one file while each observes it; a third observes from here")
    func twoProcesses() throws {
        let path = FileRealmTests.temporaryPath("observe")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            objectTypes: [FileRealmTests.Owner.self, FileRealmTests.Dog.self, FileRealmTests.Home.self]
        )
        let realm = try Realm(configuration: configuration)
        let names = NamesSeen()
        let token = realm.objects(FileRealmTests.Dog.self).observe(on: DispatchQueue(label: "here")) { change in
            names.apply(change)
        }
        let outputs = Outcomes()
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let run = try FileRealmTests.runHelper(["observe-write", path])
                    outputs.add("\(run.status) \(run.output.trimmingCharacters(in: .whitespacesAndNewlines))")
                } catch {
                    outputs.add("\(error)")
                }
            }
        }
        group.wait()
        #expect(outputs.all.count == 2)
        for output in outputs.all {
            #expect(output.hasPrefix("0 dogs=40 "), "\(output)")
            #expect(output.contains(" failures=0"), "\(output)")
        }
        #expect(waitUntil { names.count == 40 })
        #expect(names.failures == 0)
        token.invalidate()
    }
}

/// The names one observation of the helper's dogs delivered, replayed at each update.
final class NamesSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    private var failed = 0

    func apply(_ change: RealmCollectionChange<Results<FileRealmTests.Dog>>) {
        lock.withLock {
            switch change {
            case .initial(let dogs):
                names = dogs.map(\.name)
            case .update(let dogs, let deletions, let insertions, _):
                let new = dogs.map(\.name)
                if ChangeRecord<Results<WatchedPet>>.replay(names, deletions, insertions, new) != new { failed += 1 }
                names = new
            case .error:
                failed += 1
            }
        }
    }

    var count: Int { lock.withLock { names.count } }
    var failures: Int { lock.withLock { failed } }
}

/// Problems reported by the threads of a test.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [String] = []
    func add(_ problem: String?) {
        guard let problem else { return }
        lock.withLock { problems.append(problem) }
    }
    var all: [String] { lock.withLock { problems } }
}

/// How many consistent reads the reader threads made.
final class ReadCount: @unchecked Sendable {
    private let lock = NSLock()
    private var reads = 0
    func add() { lock.withLock { reads += 1 } }
    var value: Int { lock.withLock { reads } }
}

/// How many writers are still writing.
final class WriterCount: @unchecked Sendable {
    private let lock = NSLock()
    private var writers = 0
    private var hasStarted = false
    func begin() {
        lock.withLock {
            writers += 1
            hasStarted = true
        }
    }
    func end() { lock.withLock { writers -= 1 } }
    var value: Int { lock.withLock { writers } }
    var started: Bool { lock.withLock { hasStarted } }
}
