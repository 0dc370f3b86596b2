import BenchmarkKit
import Dispatch
import Foundation
import RQL

/// Notifications (`observe`), against the same commits unobserved:
///
///     rql-bench --filter live/ --samples 9
///
/// Every iteration is one write transaction that changes one object's `age` so that it enters
/// or leaves `age >= 50` (and so the observed results), committed on the benchmark's thread.
/// - `commit-100k`, `commit-1M`: the write with nothing observed: the baselines.
/// - `commit-observed-{1k,100k,1M}`: the same with one observation of `age >= 50` over that many
///   objects, delivered on the committing thread before `commit` returns; latency from commit
///   to delivery = this − the baseline. Target: under 100 µs at 100k, and proportional to the
///   change (not to the results) from 1k to 1M.
/// - `commit-observed-sorted-100k`, `-1M`: the observed results also sorted by `age`: the
///   changed object is tested and placed by binary search (the cost follows the change).
/// - `commit-link-100k`, `commit-observed-link-100k`: 100,000 owners each linking to a pet;
///   each write renames one pet, and the observation of the owners (default key paths: one
///   link level) reports its owner modified (realm-core#4816 measured 10 ms for one link
///   level).
/// - `commit-queue-100k`: the observation delivers on a dispatch queue; the iteration waits
///   for the delivery (commit, hop, change set, block).
/// - `observers-1000`: 1,000 observations of `age >= 50` over 1,000 objects, one commit.
/// - `observe-100k`: registering an observation of 100,000 results (its first evaluation and
///   `.initial` delivery), then invalidating it (realm-core#4816 measured 333 µs for creating a
///   notifier).
extension Registry {
    public mutating func registerLiveBenchmarks() {
        for (name, count, sorted, observed) in [
            ("commit-100k", 100_000, false, false),
            ("commit-observed-1k", 1_000, false, true),
            ("commit-observed-100k", 100_000, false, true),
            ("commit-1M", 1_000_000, false, false),
            ("commit-observed-1M", 1_000_000, false, true),
            ("commit-observed-sorted-100k", 100_000, true, true),
            ("commit-observed-sorted-1M", 1_000_000, true, true),
        ] {
            let state = LiveState()
            add(
                Benchmark(
                    suite: "live",
                    name: name,
                    fields: [("n", .int(count))],
                    setUp: { try state.prepare(count: count, observers: observed ? 1 : 0, sorted: sorted) }
                ) { iterations in
                    for _ in 0..<iterations { state.commitOne() }
                }
            )
        }
        for (name, observed) in [("commit-link-100k", false), ("commit-observed-link-100k", true)] {
            let state = LinkedState()
            add(
                Benchmark(
                    suite: "live",
                    name: name,
                    fields: [("n", .int(100_000))],
                    setUp: { try state.prepare(count: 100_000, observed: observed) }
                ) { iterations in
                    for _ in 0..<iterations { state.renameOne() }
                }
            )
        }
        let queued = LiveState()
        add(
            Benchmark(
                suite: "live",
                name: "commit-queue-100k",
                fields: [("n", .int(100_000))],
                setUp: { try queued.prepare(count: 100_000, observers: 0, sorted: false, onQueue: true) }
            ) { iterations in
                for _ in 0..<iterations { queued.commitOneAndWait() }
            }
        )
        let many = LiveState()
        add(
            Benchmark(
                suite: "live",
                name: "observers-1000",
                fields: [("n", .int(1_000)), ("observers", .int(1_000))],
                setUp: { try many.prepare(count: 1_000, observers: 1_000, sorted: false) }
            ) { iterations in
                for _ in 0..<iterations { many.commitOne() }
            }
        )
        let creating = LiveState()
        add(
            Benchmark(
                suite: "live",
                name: "observe-100k",
                fields: [("n", .int(100_000))],
                setUp: { try creating.prepare(count: 100_000, observers: 0, sorted: false) }
            ) { iterations in
                for _ in 0..<iterations { creating.observeOnce() }
            }
        )
    }
}

/// One realm of `BenchPerson`s, its observations, and the object each commit changes.
final class LiveState: @unchecked Sendable {
    private var realm: Realm?
    private var tokens: [NotificationToken] = []
    private var target: BenchPerson?
    private let delivered = DispatchSemaphore(value: 0)
    private var deliveries = 0

    func prepare(count: Int, observers: Int, sorted: Bool, onQueue: Bool = false) throws {
        guard realm == nil else { return }
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "live-\(UUID().uuidString)",
                objectTypes: [BenchPerson.self]
            )
        )
        try realm.write { realm.add(ObjectModelState.makePeople(count)) }
        self.realm = realm
        target = realm.objects(BenchPerson.self).filter("age == 10").first
        var results = realm.objects(BenchPerson.self).filter("age >= 50")
        if sorted { results = results.sorted(byKeyPath: "age") }
        for _ in 0..<observers {
            tokens.append(results.observe { [unowned self] _ in self.deliveries += 1 })
        }
        if onQueue {
            tokens.append(
                results.observe(on: DispatchQueue(label: "live")) { [delivered] change in
                    if case .update = change { delivered.signal() }
                }
            )
        }
        let before = deliveries
        commitOne()
        if observers > 0, deliveries != before + observers {
            throw LiveError("expected \(observers) deliveries of one commit, got \(deliveries - before)")
        }
        if onQueue, delivered.wait(timeout: .now() + 10) != .success {
            throw LiveError("the queue's observation delivered nothing")
        }
    }

    /// One write moving the target object into or out of `age >= 50`.
    func commitOne() {
        guard let realm, let target else { return }
        do {
            try realm.write { target.age = target.age >= 50 ? 10 : 60 }
        } catch {
            fatalError("commit: \(error)")
        }
    }

    func commitOneAndWait() {
        commitOne()
        delivered.wait()
    }

    func observeOnce() {
        guard let realm else { return }
        let token = realm.objects(BenchPerson.self).filter("age >= 50").observe { blackHole($0) }
        token.invalidate()
    }
}

public final class LiveOwner: Object {
    @Persisted var age = 0
    @Persisted var pet: LivePet?
}

public final class LivePet: Object {
    @Persisted var name = ""
}

/// Owners linking one level to pets; each write renames one pet.
final class LinkedState: @unchecked Sendable {
    private var realm: Realm?
    private var token: NotificationToken?
    private var pets: [LivePet] = []
    private var next = 0
    private var modifications = 0

    func prepare(count: Int, observed: Bool) throws {
        guard realm == nil else { return }
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "live-link-\(UUID().uuidString)",
                objectTypes: [LiveOwner.self, LivePet.self]
            )
        )
        try realm.write {
            for i in 0..<count {
                let owner = LiveOwner()
                owner.age = i % 100
                owner.pet = LivePet(value: ["name": "pet \(i)"])
                realm.add(owner)
            }
        }
        self.realm = realm
        pets = Array(realm.objects(LivePet.self).prefix(1_000))
        if observed {
            token = realm.objects(LiveOwner.self).filter("age >= 50").observe { [unowned self] change in
                if case .update(_, _, _, let modified) = change { self.modifications += modified.count }
            }
        }
        // Pet i belongs to owner i, of age i % 100: pet 60's owner is in the results.
        let before = modifications
        try realm.write { pets[60].name += "!" }
        if observed, modifications != before + 1 {
            throw LiveError("expected one owner modified through its pet, got \(modifications - before)")
        }
    }

    /// One write renaming a pet whose owner is in `age >= 50`.
    func renameOne() {
        guard let realm, !pets.isEmpty else { return }
        let pet = pets[50 + next % 50]
        next += 1
        do {
            try realm.write { pet.name = "pet \(next)" }
        } catch {
            fatalError("commit: \(error)")
        }
    }
}

struct LiveError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
