import BenchmarkKit
import Foundation
@_spi(Testing) import RQL
import RQLCore

/// Growing one managed collection inside one write (issue 16's scale targets), each against a
/// plain Swift baseline timed in the same run, so that the figure to read is a ratio:
///
///     rql-bench --filter objects/list-append --samples 5
///
/// - `list-append-100k`, `list-append-1M`: a fresh in-memory realm, one object added and
///   `List<Int>.append` called 100,000 / 1,000,000 times in one write, commit included.
///   Targets: under 0.3 s and under 3 s. Baseline: `array-append-1M`, the same values appended
///   to a Swift `[Int]`.
/// - `map-insert-100k` (and `-10k`): the same with `Map<String, Int>` and 100,000 keys set in
///   key order. Target: under 0.3 s, as for appends. `map-insert-scattered-10k`, `-30k`,
///   `-100k` set them in a scattered order, each insert landing among the keys already there:
///   their time per key against the in-order one shows where inserting into the middle stops
///   being O(1). `set-insert-scattered-100k` does the same with a `MutableSet<String>`.
/// - `mixedmap-load-1M`: a `MixedMap` (the dictionary of a mixed value or a dataset's map) made
///   from 1,000,000 pairs in scattered key order. Target: under 2 s. Baseline:
///   `dictionary-load-1M`, a Swift `[String: Value]` made from the same pairs.
/// - `list-filter-10k`: `List<Int>.filter("self >= 5000").count` on a managed list of 10,000
///   elements, a new query each time (compiled once, cached), so the store of the elements that
///   a plain-value query runs on is built every iteration. Baseline: `array-filter-10k`, the
///   same count over a Swift `[Int]`.
extension Registry {
    public mutating func registerCollectionBenchmarks() {
        let state = CollectionState()
        for count in [100_000, 1_000_000] {
            let label = count == 1_000_000 ? "1M" : "100k"
            add(
                Benchmark(
                    suite: "objects",
                    name: "list-append-\(label)",
                    fields: [("n", .int(count))],
                    setUp: { try state.checkAppends(count) }
                ) { iterations in
                    for _ in 0..<iterations { blackHole(state.appendToList(count)) }
                }
            )
        }
        add(
            Benchmark(suite: "objects", name: "array-append-1M", fields: [("n", .int(1_000_000))]) { iterations in
                for _ in 0..<iterations { blackHole(CollectionState.appendToArray(1_000_000)) }
            }
        )
        let mapRuns = [(10_000, false), (100_000, false), (10_000, true), (30_000, true), (100_000, true)]
        for (count, scattered) in mapRuns {
            add(
                Benchmark(
                    suite: "objects",
                    name: "map-insert-\(scattered ? "scattered-" : "")\(count / 1000)k",
                    fields: [("n", .int(count))],
                    setUp: { try state.checkInserts(count, scattered: scattered) }
                ) { iterations in
                    for _ in 0..<iterations { blackHole(state.insertIntoMap(count, scattered: scattered)) }
                }
            )
        }
        add(
            Benchmark(
                suite: "objects",
                name: "set-insert-scattered-100k",
                fields: [("n", .int(100_000))],
                setUp: { try state.checkSetInserts(100_000) }
            ) { iterations in
                for _ in 0..<iterations { blackHole(state.insertIntoSet(100_000)) }
            }
        )
        let loadCount = 1_000_000
        add(
            Benchmark(
                suite: "objects",
                name: "mixedmap-load-1M",
                fields: [("n", .int(loadCount))],
                setUp: { try state.checkLoad(loadCount) }
            ) { iterations in
                for _ in 0..<iterations { blackHole(MixedMap(state.pairs).count) }
            }
        )
        add(
            Benchmark(
                suite: "objects",
                name: "dictionary-load-1M",
                fields: [("n", .int(loadCount))],
                setUp: { try state.checkLoad(loadCount) }
            ) { iterations in
                for _ in 0..<iterations {
                    blackHole(Dictionary(state.pairs, uniquingKeysWith: { _, last in last }).count)
                }
            }
        )
        let filterFields: [(key: String, value: JSONValue)] = [("n", .int(CollectionState.filterCount))]
        add(
            Benchmark(
                suite: "objects",
                name: "list-filter-10k",
                fields: filterFields,
                setUp: { try state.checkFilter() }
            ) { iterations in
                for _ in 0..<iterations { blackHole(state.filterList()) }
            }
        )
        add(
            Benchmark(suite: "objects", name: "array-filter-10k", fields: filterFields) { iterations in
                let numbers = Array(0..<CollectionState.filterCount)
                for _ in 0..<iterations { blackHole(numbers.lazy.filter { $0 >= opaque(5000) }.count) }
            }
        )
    }
}

/// The object whose collections grow.
public final class BenchCollectionHolder: Object {
    @Persisted public var numbers: List<Int>
    @Persisted public var counts: Map<String, Int>
    @Persisted public var names: MutableSet<String>
}

/// The benchmarks' work, also run once by `rql-collections-profile` under callgrind.
public final class CollectionState {
    /// The pairs `mixedmap-load-1M` loads, made once.
    public private(set) var pairs: [(String, Value)] = []

    public init() {}

    /// Key `i` of `count` in the order the scattered benchmarks use: a permutation that jumps
    /// across the key range (7,919 is prime, so it is coprime to the powers of ten used here).
    static func scatteredIndex(_ i: Int, of count: Int) -> Int { (i &* 7_919) % count }

    /// Keys whose byte order is their numeric order.
    static func key(_ i: Int) -> String {
        let digits = String(i)
        return "k" + String(repeating: "0", count: Swift.max(0, 7 - digits.count)) + digits
    }

    /// A fresh realm, one holder, `count` appends to its list in one write.
    public func appendToList(_ count: Int) -> BenchCollectionHolder {
        let realm = ObjectModelState.freshRealm([BenchCollectionHolder.self])
        let holder = BenchCollectionHolder()
        do {
            try realm.write {
                realm.add(holder)
                let numbers = holder.numbers
                for i in 0..<count { numbers.append(i) }
            }
        } catch {
            fatalError("write: \(error)")
        }
        return holder
    }

    static func appendToArray(_ count: Int) -> [Int] {
        var numbers: [Int] = []
        for i in 0..<opaque(count) { numbers.append(i) }
        return numbers
    }

    /// A fresh realm, one holder, `count` keys set in its map in one write.
    public func insertIntoMap(_ count: Int, scattered: Bool) -> BenchCollectionHolder {
        let realm = ObjectModelState.freshRealm([BenchCollectionHolder.self])
        let holder = BenchCollectionHolder()
        let keys = (0..<count).map { Self.key(scattered ? Self.scatteredIndex($0, of: count) : $0) }
        do {
            try realm.write {
                realm.add(holder)
                let counts = holder.counts
                for (i, key) in keys.enumerated() { counts[key] = i }
            }
        } catch {
            fatalError("write: \(error)")
        }
        return holder
    }

    /// A fresh realm, one holder, `count` strings inserted into its set in a scattered order.
    public func insertIntoSet(_ count: Int) -> BenchCollectionHolder {
        let realm = ObjectModelState.freshRealm([BenchCollectionHolder.self])
        let holder = BenchCollectionHolder()
        let keys = (0..<count).map { Self.key(Self.scatteredIndex($0, of: count)) }
        do {
            try realm.write {
                realm.add(holder)
                let names = holder.names
                for key in keys { names.insert(key) }
            }
        } catch {
            fatalError("write: \(error)")
        }
        return holder
    }

    func checkSetInserts(_ count: Int) throws {
        let names = insertIntoSet(count).names
        guard names.count == count, names.contains(Self.key(count - 1)), names[0] == Self.key(0) else {
            throw SuiteError("the set holds \(names.count) strings, not \(count) in order")
        }
    }

    func checkAppends(_ count: Int) throws {
        let holder = appendToList(count)
        let numbers = holder.numbers
        guard numbers.count == count, numbers[count - 1] == count - 1, numbers[count / 2] == count / 2 else {
            throw SuiteError("the list holds \(numbers.count) elements, not 0 ..< \(count)")
        }
    }

    func checkInserts(_ count: Int, scattered: Bool) throws {
        let counts = insertIntoMap(count, scattered: scattered).counts
        let last = scattered ? Self.scatteredIndex(count - 1, of: count) : count - 1
        guard counts.count == count, counts[Self.key(last)] == count - 1 else {
            throw SuiteError("the map holds \(counts.count) keys, not \(count)")
        }
    }

    static let filterCount = 10_000
    private var filterHolder: BenchCollectionHolder?

    /// The number of the list's 10,000 elements that are at least 5,000, by a new query.
    func filterList() -> Int {
        filterHolder?.numbers.filter(opaque("self >= %@"), 5000).count ?? -1
    }

    func checkFilter() throws {
        if filterHolder == nil { filterHolder = appendToList(Self.filterCount) }
        guard filterList() == Self.filterCount / 2 else {
            throw SuiteError("list-filter-10k counts \(filterList()), not \(Self.filterCount / 2)")
        }
    }

    public func checkLoad(_ count: Int) throws {
        if pairs.count != count {
            pairs = (0..<count).map { (Self.key(Self.scatteredIndex($0, of: count)), Value.int(Int64($0))) }
        }
        let map = MixedMap(pairs)
        guard map.count == count, map.keys.first == Self.key(0),
            map[Self.key(Self.scatteredIndex(5, of: count))] == Value.int(5)
        else {
            throw SuiteError("the map holds \(map.count) keys, not \(count) in key order")
        }
    }
}
