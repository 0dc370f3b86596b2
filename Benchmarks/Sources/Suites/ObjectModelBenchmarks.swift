import BenchmarkKit
import Foundation
@_spi(Testing) import RQL
import RQLCore
import RQLEngine
import RQLIR
import RQLStorage

/// The object model (`import RQL`) against the layers under it and plain Swift:
///
///     rql-bench --filter objects/ --samples 9
///
/// - `add-100k`: `realm.add` of 100,000 new objects (`name`, `age`) in one write, commit
///   included, into a fresh in-memory realm; the objects are built in the timed body too
///   (`construct-100k` times that part alone). objects/s = 100,000 ÷ median. Target ≥ 500,000.
/// - `add-100k-each`: the same objects added one `realm.add` call at a time.
/// - `iterate-1M` against `iterate-array-1M`: `for p in results { sum += p.age }` over 1M
///   managed objects, and the same loop over a Swift array of 1M class instances. ns/object =
///   median ÷ 1M. Target ≤ 100 ns per managed object.
/// - `where-compile` against `text-compile`: a `where` closure and the same query as NSPredicate
///   text, each bound and compiled into a plan (`explain()` forces the compile). Target: the
///   closure no slower than the text.
/// - `count-api` against `count-engine`: `results.count` of `age > 30 AND name BEGINSWITH 'A'`
///   over 100,000 objects through `Results`, and the same bound query run by `QueryEngine`
///   directly on the realm's snapshot. Target: the API's overhead ≤ 10 %.
extension Registry {
    public mutating func registerObjectModelBenchmarks() {
        let state = ObjectModelState()
        let addFields: [(key: String, value: JSONValue)] = [("n", .int(ObjectModelState.addCount))]
        add(
            Benchmark(suite: "objects", name: "construct-100k", fields: addFields) { iterations in
                for _ in 0..<iterations { blackHole(ObjectModelState.makePeople(ObjectModelState.addCount)) }
            }
        )
        add(
            Benchmark(suite: "objects", name: "add-100k", fields: addFields, setUp: { try state.checkAdd() }) {
                iterations in
                for _ in 0..<iterations { blackHole(state.addAll()) }
            }
        )
        add(
            Benchmark(suite: "objects", name: "add-100k-each", fields: addFields) { iterations in
                for _ in 0..<iterations { blackHole(state.addEach()) }
            }
        )
        let iterateFields: [(key: String, value: JSONValue)] = [("n", .int(ObjectModelState.iterateCount))]
        add(
            Benchmark(suite: "objects", name: "iterate-1M", fields: iterateFields, setUp: { try state.prepareLarge() })
            {
                iterations in
                for _ in 0..<iterations { blackHole(state.sumManagedAges()) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "iterate-array-1M",
                fields: iterateFields,
                setUp: { try state.prepareLarge() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.sumArrayAges()) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "where-compile",
                text: ObjectModelState.queryText,
                setUp: { try state.prepareSmall() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.compileClosure()) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "text-compile",
                text: ObjectModelState.queryText,
                setUp: { try state.prepareSmall() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.compileText()) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "count-api",
                text: ObjectModelState.queryText,
                setUp: { try state.checkCounts() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.countThroughAPI()) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "count-engine",
                text: ObjectModelState.queryText,
                setUp: { try state.checkCounts() }
            ) {
                iterations in
                for _ in 0..<iterations { blackHole(state.countThroughEngine()) }
            }
        )
    }
}

/// The model the suite stores: two plain properties.
public final class BenchPerson: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

/// The same shape as a plain Swift class, for the array baseline.
final class PlainPerson {
    var name: String
    var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

/// Realms and arrays the benchmarks read, built once.
final class ObjectModelState {
    static let addCount = 100_000
    static let iterateCount = 1_000_000
    static let queryText = "age > 30 AND name BEGINSWITH 'A'"

    private var large: Realm?
    private var array: [PlainPerson] = []
    private var small: Realm?
    static let countCount = 100_000
    private var countRealm: Realm?
    private var countResults: Results<BenchPerson>?
    private var countQuery: CompiledQuery?
    private let countEngine = QueryEngine()
    private var countStore: BlockSnapshot?

    static func makePeople(_ count: Int) -> [BenchPerson] {
        (0..<count).map { i in
            let person = BenchPerson()
            person.name = i % 2 == 0 ? "Ann \(i % 1000)" : "Bob \(i % 1000)"
            person.age = i % 100
            return person
        }
    }

    /// A new in-memory realm of `types`.
    static func freshRealm(_ types: [ObjectBase.Type] = [BenchPerson.self]) -> Realm {
        do {
            return try Realm(
                configuration: Realm.Configuration(
                    inMemoryIdentifier: "bench-\(UUID().uuidString)",
                    objectTypes: types
                )
            )
        } catch {
            fatalError("opening a realm: \(error)")
        }
    }

    private static func write(_ realm: Realm, _ block: () -> Void) {
        do {
            try realm.write(block)
        } catch {
            fatalError("write: \(error)")
        }
    }

    /// A fresh realm with 100,000 people added in one `add` call; returns the realm.
    func addAll() -> Realm {
        let realm = Self.freshRealm()
        let people = Self.makePeople(Self.addCount)
        Self.write(realm) { realm.add(people) }
        return realm
    }

    /// The same, one `add` call per object.
    func addEach() -> Realm {
        let realm = Self.freshRealm()
        let people = Self.makePeople(Self.addCount)
        Self.write(realm) { for person in people { realm.add(person) } }
        return realm
    }

    func checkAdd() throws {
        let realm = addAll()
        let count = realm.objects(BenchPerson.self).count
        guard count == Self.addCount else { throw SuiteError("added \(count) objects, not \(Self.addCount)") }
    }

    func prepareLarge() throws {
        guard large == nil else { return }
        let realm = Self.freshRealm()
        let people = Self.makePeople(Self.iterateCount)
        Self.write(realm) { realm.add(people) }
        array = (0..<Self.iterateCount).map { PlainPerson(name: people[$0].name, age: $0 % 100) }
        large = realm
        let managed = sumManagedAges()
        let plain = sumArrayAges()
        guard managed == plain else { throw SuiteError("managed sum \(managed), array sum \(plain)") }
    }

    func sumManagedAges() -> Int {
        var sum = 0
        for person in large!.objects(BenchPerson.self) { sum &+= person.age }
        return sum
    }

    func sumArrayAges() -> Int {
        var sum = 0
        for person in array { sum &+= person.age }
        return sum
    }

    func prepareSmall() throws {
        guard small == nil else { return }
        let realm = Self.freshRealm()
        let people = Self.makePeople(1000)
        Self.write(realm) { realm.add(people) }
        small = realm
        let closure = compileClosure()
        let text = compileText()
        guard closure == text else { throw SuiteError("the closure compiles to\n\(closure)\nthe text to\n\(text)") }
    }

    func compileClosure() -> String {
        let name = opaque("A")
        return small!.objects(BenchPerson.self).where { $0.age > 30 && $0.name.starts(with: name) }.explain()
    }

    func compileText() -> String {
        small!.objects(BenchPerson.self).filter(opaque("age > %@ AND name BEGINSWITH %@"), 30, opaque("A")).explain()
    }

    func checkCounts() throws {
        guard countResults == nil else { return }
        let realm = Self.freshRealm()
        let people = Self.makePeople(Self.countCount)
        Self.write(realm) { realm.add(people) }
        countRealm = realm
        countResults = realm.objects(BenchPerson.self).filter(Self.queryText)
        let snapshot = realm._snapshot
        // The VM, as `Results` runs it (not the reference evaluator, which this benchmark
        // measured by mistake before).
        countQuery = try countEngine.compile(Self.queryText, className: "BenchPerson", store: snapshot)
        countStore = snapshot
        let api = countThroughAPI()
        let engine = countThroughEngine()
        guard api == engine, api > 0 else { throw SuiteError("API count \(api), engine count \(engine)") }
    }

    func countThroughAPI() -> Int {
        countResults!.count
    }

    func countThroughEngine() -> Int {
        countEngine.count(countQuery!, on: countStore!)
    }
}
