import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import Testing

/// Query shapes that ran away in the reference evaluator or the binder (issue 6), each at a size
/// that took seconds or minutes before, required to finish well under a second. The bound is
/// generous on purpose (the benchmarks measure speed): these tests catch a return to
/// exponential or quadratic work, not a slowdown. Each also checks the answer.
@Suite("No input makes a query run away", .serialized)
struct RunawayShapeTests {
    /// A generous bound for work that is now linear (or n log n) and took seconds before.
    static let limit = Duration.seconds(1)

    /// `body`'s result and the processor time it took (`ThreadCPUTime`: wall time would count
    /// the parallel tests and builds sharing the machine).
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        try ThreadCPUTime.measure(body)
    }

    func run(
        _ query: String,
        _ className: String,
        on store: BlockSnapshot,
        _ arguments: [QueryArgument] = []
    ) throws
        -> ([RowKey], Duration)
    {
        let compiled = try QueryEngine.reference.compile(
            query,
            className: className,
            store: store,
            arguments: arguments
        )
        return Self.time { QueryEngine.reference.run(compiled, on: store) }
    }

    // MARK: - Key paths to and fro through to-many links

    static let demo: BlockSnapshot? = try? DemoDataset.load()

    static func hops(_ pair: String, _ count: Int) -> String {
        Array(repeating: pair, count: count).joined(separator: ".")
    }

    @Test(
        "key paths through to-many links and back are linear per hop (ten hops took 40 s)",
        arguments: [
            // (query, class, expected matches)
            ("ANY \(hops("owners.dogs", 10)).name == 'Rex'", "Dog", 2),
            ("ANY \(hops("owners.dogs", 10)).name == 'nobody'", "Dog", 0),
            ("NONE \(hops("owners.dogs", 10)).age > 100", "Dog", 20),
            ("ALL \(hops("dogs.owners", 10)).id > 0", "Person", 10),
            ("ANY \(hops("@links.Person.dogs.dogs", 10)).name == 'Rex'", "Dog", 2),
            ("\(hops("owners.dogs", 10)).@count > 0", "Dog", 20),
            ("SUBQUERY(\(hops("owners.dogs", 10)), $d, $d.age > 5).@count > 0", "Dog", 14),
            ("\(hops("dogs.owners", 10)).dogs.@max.age >= 10", "Person", 2),
            ("\(hops("dogs.owners", 10)).@links.@count > 0", "Person", 7),
            ("ANY \(hops("owners.dogs", 10)).favoriteToy.price > 5", "Dog", 16),
            // Unquantified against a list: element-wise, decided by the sequences' lengths.
            ("\(hops("owners.dogs", 10)).name IN {'Rex'}", "Dog", 0),
            ("\(hops("owners.dogs", 10)).name != {'Rex', 'Max'}", "Dog", 20),
            ("\(hops("owners.dogs", 10)).age == {}", "Dog", 0),
            // A sequence compared with itself, position by position.
            ("\(hops("owners.dogs", 10)).name == \(hops("owners.dogs", 10)).name", "Dog", 20),
            ("\(hops("owners.dogs", 10)).age < \(hops("owners.dogs", 10)).age", "Dog", 0),
            // Two properties of the same objects pair up position by position.
            ("\(hops("owners.dogs", 10)).name < \(hops("owners.dogs", 10)).color", "Dog", 17),
            ("\(hops("owners.dogs", 10)).name != \(hops("owners.dogs", 10)).color", "Dog", 20),
        ]
    )
    func toAndFro(query: String, className: String, expected: Int) throws {
        let store = try #require(Self.demo)
        let (keys, elapsed) = try run(query, className, on: store)
        #expect(keys.count == expected)
        #expect(elapsed < Self.limit, "\(query) took \(elapsed)")
    }

    @Test("on a dense graph (every person owns every dog) twenty hops stay linear; counts saturate")
    func denseGraph() throws {
        let schema = try DatasetLoader.loadSchema(
            json: """
                {"schema": {"Person": {"properties": {"n": "int", "dogs": "list<Dog>"}},
                            "Dog": {"properties": {"age": "int", "owners": "linkingObjects<Person.dogs>"}}}}
                """
        )
        let size = 10
        let everyDog = Value.list((0..<size).map { .link(ObjectLink(className: "Dog", key: RowKey(Int64($0)))) })
        let store = try BlockSnapshot(
            schema: schema,
            columns: [
                "Person": [
                    "n": .int((0..<size).map(Int64.init)), "dogs": .values(Array(repeating: everyDog, count: size)),
                ],
                "Dog": ["age": .int((0..<size).map(Int64.init))],
            ]
        )
        for (query, expected) in [
            ("ANY \(Self.hops("owners.dogs", 20)).age == 9", size),
            ("ALL \(Self.hops("owners.dogs", 20)).age < 9", 0),
            // 10^2 = 100 links two hops away; 10^40 saturates at Int64.max.
            ("owners.dogs.@count == 100", size),
            ("\(Self.hops("owners.dogs", 20)).@count == 9223372036854775807", size),
            ("SUBQUERY(owners.dogs.owners.dogs, $d, $d.age == 0).@count == 1000", size),
        ] {
            let (keys, elapsed) = try run(query, "Dog", on: store)
            #expect(keys.count == expected, "\(query)")
            #expect(elapsed < Self.limit, "\(query) took \(elapsed)")
        }
    }

    @Test("folding repeated objects keeps the multiplicity that counts, sums and SUBQUERY need")
    func multiplicityIsKept() throws {
        let store = try DatasetLoader.load(
            json: """
                {"schema": {"P": {"properties": {"n": "int", "next": "list<P>"}}},
                 "objects": {"P": [{"n": 1, "next": [1, 1]}, {"n": 2, "next": [0]}]}}
                """
        )
        func count(_ query: String) throws -> Int { try run(query, "P", on: store).0.count }
        // P0 → [P1, P1] → each P1 → [P0]: P0 is reached twice, so two paths lead on; from P1,
        // next.next is P0's list of two links.
        #expect(try count("next.next.@count == 2") == 2)
        #expect(try count("SUBQUERY(next.next, $x, $x.n == 1).@count == 2") == 1)
        #expect(try count("next.@sum.n == 4") == 1)
        #expect(try count("next.next.next.@count == 4") == 1)
        #expect(try count("next.next.@links.@count == 4") == 1)
        // Element-wise comparisons see every path in order.
        #expect(try count("next.next.n == {1, 1}") == 1)
        #expect(try count("next.n == {2, 2}") == 1)
        #expect(try count("next.n == {2}") == 0)
        #expect(try count("next.next.n == next.next.n") == 2)
        #expect(try count("next.next.n != next.next.n") == 0)
        #expect(try count("next.next.n <= next.next.n") == 2)
        #expect(try count("next.next.n < next.next.n") == 0)
        #expect(try count("next.n == next.next.n") == 0)
    }

    // MARK: - DISTINCT and IN

    static func numbers(_ count: Int, distinct: Int) throws -> BlockSnapshot {
        let schema = try DatasetLoader.loadSchema(
            json: #"{"schema": {"T": {"primaryKey": "id", "properties": {"id": "int", "v": "int", "s": "string"}}}}"#
        )
        return try BlockSnapshot(
            schema: schema,
            columns: [
                "T": [
                    "id": .int((0..<count).map(Int64.init)),
                    "v": .int((0..<count).map { Int64($0 % distinct) }),
                    "s": .string((0..<count).map { "s\($0 % distinct)" }),
                ]
            ]
        )
    }

    @Test("DISTINCT hashes its keys (40,000 rows took 28 s; these 10,000 over a minute in a debug build)")
    func distinct() throws {
        let store = try Self.numbers(10_000, distinct: 7_500)
        let (keys, elapsed) = try run("TRUEPREDICATE DISTINCT(v)", "T", on: store)
        #expect(keys.count == 7_500)
        #expect(elapsed < Self.limit, "DISTINCT took \(elapsed)")
        let (pairs, pairElapsed) = try run("TRUEPREDICATE DISTINCT(s, v)", "T", on: store)
        #expect(pairs.count == 7_500)
        #expect(pairElapsed < Self.limit, "DISTINCT of two keys took \(pairElapsed)")
    }

    @Test("IN with a long list is a hash lookup (100,000 rows × 20,000 values took 24 s)")
    func longIn() throws {
        let store = try Self.numbers(10_000, distinct: 10_000)
        let wanted = (0..<20_000).map { Value.int(Int64($0 * 3)) }
        let (keys, elapsed) = try run("v IN $0", "T", on: store, [.list(wanted)])
        #expect(keys.count == 3_334)
        #expect(elapsed < Self.limit, "IN took \(elapsed)")
        let strings = (0..<20_000).map { Value.string("s\($0 * 3)") }
        let (matches, stringElapsed) = try run("s IN $0", "T", on: store, [.list(strings)])
        #expect(matches.count == 3_334)
        #expect(stringElapsed < Self.limit, "IN over strings took \(stringElapsed)")
    }

    @Test("IN over the primary key with 15,000 values is fast in the evaluator (took 18 s)")
    func primaryKeyIn() throws {
        let store = try Self.numbers(10_000, distinct: 10_000)
        let literal = "{" + (0..<15_000).map { String($0 * 2) }.joined(separator: ", ") + "}"
        let (keys, elapsed) = try run("id IN \(literal)", "T", on: store)
        #expect(keys.count == 5_000)
        #expect(elapsed < Self.limit, "IN over the primary key took \(elapsed)")
        let (none, noneElapsed) = try run("NOT id IN \(literal)", "T", on: store)
        #expect(none.count == 5_000)
        #expect(noneElapsed < Self.limit)
    }

    @Test("IN keeps Realm equality: numbers by value across types, null only with null, NaN never")
    func inSemantics() throws {
        let store = try DatasetLoader.load(
            json: """
                {"schema": {"T": {"properties": {"d": "double?", "m": "mixed"}}},
                 "objects": {"T": [{"d": 1.0, "m": 1}, {"d": null, "m": "1"}, {"d": 2.5, "m": {"$decimal": "2.50"}},
                                   {"d": {"$double": "NaN"}, "m": null}]}}
                """
        )
        func count(_ query: String, _ arguments: [QueryArgument] = []) throws -> Int {
            try run(query, "T", on: store, arguments).0.count
        }
        #expect(try count("d IN {1, 2.5}") == 2)
        #expect(try count("d IN {null}") == 1)
        #expect(try count("d IN $0", [.list([.double(.nan)])]) == 0)
        #expect(try count("m IN {1.0, 2.5}") == 2)
        #expect(try count("m IN {'1'}") == 1)
        #expect(try count("m IN {null}") == 1)
        #expect(try count("m IN $0", [.list([.decimal(try Decimal128("1.000"))])]) == 1)
    }

    // MARK: - "Did you mean"

    @Test("a suggestion for a 100,000-character name among 1,000 properties costs next to nothing (took 22 s)")
    func suggestions() throws {
        let properties = (0..<1_000).map { Property(name: "property\($0)", type: .int) }
        let schema = try Schema([ObjectSchema(name: "Wide", properties: properties)])
        let binder = Binder(schema: schema)
        for name in [String(repeating: "p", count: 100_000), "property" + String(repeating: "9", count: 99_990)] {
            let syntax = try Parser.parse("\(name) > 1")
            let (outcome, elapsed) = Self.time { () -> BindError? in
                do throws(BindError) {
                    _ = try binder.bind(syntax, className: "Wide")
                    return nil
                } catch {
                    return error
                }
            }
            #expect(outcome?.kind == .unknownProperty)
            #expect(outcome?.message.contains("did you mean") == false)
            #expect(elapsed < Self.limit, "the suggestion took \(elapsed)")
        }
        let close = try Parser.parse("propety42 > 1")
        #expect(throws: BindError.self) { try binder.bind(close, className: "Wide") }
        do {
            _ = try binder.bind(close, className: "Wide")
        } catch {
            #expect(error.message.hasSuffix("did you mean 'property42'?"))
        }
    }
}
