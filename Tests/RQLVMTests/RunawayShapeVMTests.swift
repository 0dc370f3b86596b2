import RQLBytecode
import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLTestSupport
import RQLVM
import Testing

/// The shapes that ran away in naive executors, on the VM: to-many hops chained ten and twenty
/// times, 40,000-value IN lists, DISTINCT of 40,000 rows. Each must finish well under a second
/// (a generous bound that catches exponential or quadratic work, not a slowdown; speed is
/// measured in the benchmarks) and give the reference evaluator's answer.
@Suite("No input makes the VM run away", .serialized)
struct RunawayShapeVMTests {
    static let limit = Duration.seconds(1)

    /// Runs `query` on the VM with all passes and with none, timing each run; checks the keys
    /// against the reference evaluator.
    static func check(
        _ query: String,
        _ className: String,
        on store: BlockSnapshot,
        _ arguments: [QueryArgument] = [],
        expected: Int? = nil
    ) throws {
        let bound = try QueryEngine().bind(query, className: className, schema: store.schema, arguments: arguments)
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            let (keys, elapsed) = try ThreadCPUTime.measure { try VirtualMachine().run(program, on: store) }
            #expect(elapsed < limit, "\(query) (optimized: \(optimized)) took \(elapsed)")
            if let expected { #expect(keys.count == expected, "\(query)") }
        }
        let program = try VMHarness.compile(bound, store: store, optimized: true)
        #expect(try VirtualMachine().run(program, on: store) == ReferenceEvaluator(store: store).run(bound), "\(query)")
    }

    static func hops(_ pair: String, _ count: Int) -> String {
        Array(repeating: pair, count: count).joined(separator: ".")
    }

    @Test(
        "key paths through to-many links and back, ten hops",
        arguments: [
            ("ANY \(hops("owners.dogs", 10)).name == 'Rex'", "Dog", 2),
            ("NONE \(hops("owners.dogs", 10)).age > 100", "Dog", 20),
            ("ALL \(hops("dogs.owners", 10)).id > 0", "Person", 10),
            ("ANY \(hops("@links.Person.dogs.dogs", 10)).name == 'Rex'", "Dog", 2),
            ("\(hops("owners.dogs", 10)).@count > 0", "Dog", 20),
            ("SUBQUERY(\(hops("owners.dogs", 10)), $d, $d.age > 5).@count > 0", "Dog", 14),
            ("\(hops("dogs.owners", 10)).dogs.@max.age >= 10", "Person", 2),
            ("\(hops("owners.dogs", 10)).name IN {'Rex'}", "Dog", 0),
            ("\(hops("owners.dogs", 10)).name == \(hops("owners.dogs", 10)).name", "Dog", 20),
            ("\(hops("owners.dogs", 10)).name < \(hops("owners.dogs", 10)).color", "Dog", 17),
        ]
    )
    func toAndFro(query: String, className: String, expected: Int) throws {
        let store = try DemoDataset.load()
        try Self.check(query, className, on: store, expected: expected)
    }

    @Test("twenty hops on a dense graph, with counts that saturate")
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
        try Self.check("ANY \(Self.hops("owners.dogs", 20)).age == 9", "Dog", on: store, expected: size)
        try Self.check(
            "\(Self.hops("owners.dogs", 20)).@count == 9223372036854775807",
            "Dog",
            on: store,
            expected: size
        )
        try Self.check(
            "SUBQUERY(owners.dogs.owners.dogs, $d, $d.age == 0).@count == 1000",
            "Dog",
            on: store,
            expected: size
        )
    }

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

    @Test("DISTINCT of 40,000 rows hashes its keys")
    func distinct() throws {
        let store = try Self.numbers(40_000, distinct: 30_000)
        try Self.check("TRUEPREDICATE DISTINCT(v)", "T", on: store, expected: 30_000)
        try Self.check("TRUEPREDICATE DISTINCT(s, v)", "T", on: store, expected: 30_000)
    }

    @Test("IN with 40,000 values is one hash probe a row, for ints, strings and the primary key")
    func longIn() throws {
        let store = try Self.numbers(40_000, distinct: 40_000)
        let wanted = (0..<40_000).map { Value.int(Int64($0 * 3)) }
        try Self.check("v IN $0", "T", on: store, [.list(wanted)], expected: 13_334)
        let strings = (0..<40_000).map { Value.string("s\($0 * 3)") }
        try Self.check("s IN $0", "T", on: store, [.list(strings)], expected: 13_334)
        try Self.check("id IN $0", "T", on: store, [.list(wanted)], expected: 13_334)
        try Self.check("NOT id IN $0", "T", on: store, [.list(wanted)], expected: 26_666)
    }
}
