import RQLBytecode
import RQLCore
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import RQLVM
import Testing

/// The SUBQUERY shapes `CountSubquery`'s walking form takes (over a path with to-many hops,
/// counted against a value, correlated with the object or an outer element) and SORT / DISTINCT
/// through links run on the VM and agree with the reference evaluator, on the data of
/// `SubqueryLoweringTests` (repeats, deleted objects, null links) and on generated data.
@Suite("Lowering of walked and correlated SUBQUERYs, sort keys through links")
struct WalkedSubqueryLoweringTests {
    /// Checks `text` three ways on every store of `SubqueryLoweringTests` (keys, count, keys at
    /// positions: `DifferentialTests.check`); returns its optimized and unoptimized programs.
    static func check(_ text: String, className: String, dialect: Dialect = .rql) throws -> [Program] {
        var programs: [Program] = []
        for store in try SubqueryLoweringTests.stores() {
            let bound = try Binder(schema: store.schema).bind(
                try Parser.parse(text, dialect: dialect),
                className: className
            )
            let rowCount = store.table(named: className)?.rowCount ?? 0
            let positions = [0, rowCount - 1, 2, 2, rowCount + 1, 1, 0]
            let problems = try DifferentialTests.check(bound, store: store, positions: positions)
            #expect(problems.isEmpty, "\(text)\n\(problems.joined(separator: "\n"))")
            for optimized in [true, false] {
                programs.append(try VMHarness.compile(bound, store: store, optimized: optimized))
            }
        }
        return programs
    }

    static func lowers(
        _ text: String,
        className: String = "Person",
        dialect: Dialect = .rql,
        expecting opcode: Opcode = .countSubquery
    ) throws {
        for program in try check(text, className: className, dialect: dialect) {
            let emitted = SubqueryLoweringTests.opcodes(program)
            #expect(emitted.contains(opcode), "\(text) does not emit \(opcode.name)")
        }
    }

    @Test(
        "a SUBQUERY over a path with to-many hops or backlinks",
        arguments: [
            "SUBQUERY(dogs.toys, $t, $t.price > 2).@count > 1", "SUBQUERY(dogs.toys, $t, $t.price == nil).@count == 0",
            "SUBQUERY(partner.dogs.toys, $t, $t.name == 'duck').@count > 0",
            "SUBQUERY(dogs.toys.parts, $p, $p.price >= 2.5).@count >= 2",
            "SUBQUERY(pals.toys, $t, SUBQUERY($t.parts, $p, $p.price > 1).@count > 0).@count > 0",
        ]
    )
    func toManyPaths(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "a SUBQUERY over backlinks and then links",
        arguments: [
            "SUBQUERY(owners.dogs, $d, $d.age > 4).@count > 2",
            "SUBQUERY(@links.Person.dogs.pals, $d, $d.age == nil).@count > 0",
            "SUBQUERY(toys.parts, $p, $p.price == nil).@count > 0",
        ]
    )
    func backlinkPaths(query: String) throws {
        try Self.lowers(query, className: "Dog")
    }

    @Test(
        "a SUBQUERY count compared with another value",
        arguments: [
            "SUBQUERY(dogs, $d, $d.age > 2).@count > dogs.@count / 2",
            "SUBQUERY(dogs, $d, $d.age > 2).@count == SUBQUERY(pals, $p, $p.age > 2).@count",
            "SUBQUERY(dogs, $d, $d.age > 2).@count + 1 > age / 20",
            "SUBQUERY(dogs, $d, $d.age > 2).@count < partner.dogs.@count",
        ]
    )
    func againstValues(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "a correlated SUBQUERY reads an outer SUBQUERY's element as a parameter",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price * 2 > $d.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.name == $d.name OR $t.price > $d.age).@count > 0).@count > 1",
            "SUBQUERY(pals, $p, SUBQUERY($p.owners, $o, $o.age > $p.age * 10).@count > 1).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.parts.@count < $d.toys.@count).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, $q.price < $d.age).@count > 0).@count > 0).@count > 0",
        ]
    )
    func correlatedElements(query: String) throws {
        try Self.lowers(query, expecting: .loadParameter)
    }

    @Test(
        "a correlated SUBQUERY reads the object's values as parameters (NSPredicate: a bare key is the object's)",
        arguments: [
            "SUBQUERY(dogs, $d, $d.age * 10 < age).@count > 0", "SUBQUERY(dogs, $d, $d.age * 10 >= age).@count == 1",
            "SUBQUERY(dogs, $d, $d.age > age / 10 AND $d.name BEGINSWITH 'R').@count > 0",
            "SUBQUERY(dogs, $d, $d.age * 10 < partner.age).@count > 1",
            "SUBQUERY(dogs, $d, $d.age < age / 10 OR partner.age > 45).@count > 0",
            "SUBQUERY(dogs, $d, NOT $d.age + 25 > age).@count == 0",
            "SUBQUERY(dogs, $d, $d.toys.@count > age / 20).@count > 1",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price * 10 > age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.name == $d.name OR $t.price > age).@count > 0).@count > 0",
            "SUBQUERY(dogs.toys, $t, $t.price * 10 < age).@count > 1",
            "SUBQUERY(dogs, $d, $d.age > dogs.@count).@count > 0",
            "SUBQUERY(dogs, $d, $d.toys.@count >= pals.@count).@count > 0",
            "SUBQUERY(dogs, $d, $d.age * 10 < dogs.@max.age * 5).@count > 0",
            "SUBQUERY(dogs, $d, $d.age < SUBQUERY(pals, $p, $p.age > 2).@count).@count > 0",
        ]
    )
    func correlated(query: String) throws {
        try Self.lowers(query, dialect: .nsPredicate, expecting: .loadParameter)
    }

    @Test(
        "a correlated SUBQUERY from the element class (NSPredicate)",
        arguments: [
            "SUBQUERY(toys, $t, $t.name == name).@count > 0", "SUBQUERY(owners, $o, $o.age > age * 10).@count > 0",
            "SUBQUERY(toys, $t, $t.price > best.price).@count > 0",
        ]
    )
    func correlatedFromDogs(query: String) throws {
        try Self.lowers(query, className: "Dog", dialect: .nsPredicate, expecting: .loadParameter)
    }

    @Test(
        "an element compared with a link as itself (LoadObjectLink)",
        arguments: [
            ("Dog", Dialect.nsPredicate, "SUBQUERY(toys, $t, $t == best).@count > 0"),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, $t != best AND $t.price > 1).@count >= 1"),
            ("Person", .rql, "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t == $d.best).@count == 0).@count > 0"),
            ("Person", .rql, "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t == $d.best).@count > 0).@count > 1"),
        ]
    )
    func objectLinks(className: String, dialect: Dialect, query: String) throws {
        try Self.lowers(query, className: className, dialect: dialect, expecting: .loadObjectLink)
    }

    @Test(
        "`[*].@count` of links counts the links that resolve, as a SUBQUERY keeping every element",
        arguments: [
            ("Toy", "parts[*].@count > 1"), ("Person", "dogs[*].@count > 2"), ("Person", "partner.dogs[*].@count == 1"),
            ("Dog", "toys[*].@count == toys.@count"), ("Person", "dogs.toys[*].@count > 3"),
        ]
    )
    func resolvedLinkCounts(className: String, query: String) throws {
        try Self.lowers(query, className: className)
    }

    @Test(
        "an aggregate over links after two to-many steps, quantified over the owners",
        arguments: [
            "dogs.toys.@sum.price > 5", "ANY dogs.toys.@max.price >= 9", "NONE dogs.toys.@sum.price > 3",
            "ALL dogs.toys.@sum.price >= 0", "partner.dogs.toys.@min.price < 2", "ALL dogs.toys.@avg.price == nil",
            "5 < dogs.toys.@sum.price", "pals.toys.@max.price > 1 AND age > 20",
        ]
    )
    func aggregatesPerOwner(query: String) throws {
        try Self.lowers(query)
    }

    /// A null or dangling link on the way is an owner whose aggregate is that of nothing, which
    /// no count of objects sees; `LoadGroups` aggregates per owner reached, null links included.
    @Test(
        "an aggregate per owner that a null link on the way could decide runs as groups and agrees",
        arguments: ["dogs.toys.@sum.price < 5", "ALL dogs.toys.@sum.price > 1", "NONE dogs.toys.@sum.price < 100"]
    )
    func aggregatesDecidedByNulls(query: String) throws {
        try Self.lowers(query, expecting: .compareGroups)
    }

    @Test(
        "a collection of values after a subscripted link, quantified, when the subscript is out of range",
        arguments: [
            "ALL dogs[FIRST].scores > 1", "NONE dogs[FIRST].scores == 9", "ANY dogs[LAST].scores >= 5",
            "ALL dogs[2].scores < 8", "NONE partner.dogs[1].scores > 4", "1 < ALL dogs[0].scores",
            "NOT ALL dogs[FIRST].scores > 1",
        ]
    )
    func subscriptedQuantifiers(query: String) throws {
        try Self.lowers(query, expecting: .countMatching)
    }

    @Test(
        "SORT and DISTINCT through to-one links agree with the reference",
        arguments: [
            "TRUEPREDICATE SORT(partner.name ASC)", "age > 0 SORT(partner.age DESC, name ASC)",
            "TRUEPREDICATE SORT(partner.partner.name DESC)", "TRUEPREDICATE DISTINCT(partner.age)",
            "TRUEPREDICATE SORT(partner.name ASC) LIMIT(2)", "TRUEPREDICATE DISTINCT(partner.partner.age, age)",
        ]
    )
    func sortKeys(query: String) throws {
        _ = try Self.check(query, className: "Person")
    }

    @Test(
        "SORT through links from Dog, with null and deleted targets",
        arguments: ["TRUEPREDICATE SORT(best.price ASC, name DESC)", "TRUEPREDICATE SORT(best.name DESC) LIMIT(3)"]
    )
    func sortKeysFromDogs(query: String) throws {
        _ = try Self.check(query, className: "Dog")
    }

    /// Correlated and walked SUBQUERYs over the differential tests' items and owners, in
    /// NSPredicate syntax (where a bare key inside a SUBQUERY is the item's).
    static let generatedShapes = [
        "SUBQUERY(others, $o, $o.age > i * 10).@count > 0", "SUBQUERY(others, $o, $o.name == owner.name).@count > 0",
        "SUBQUERY(others, $o, $o.age > owner.age).@count == 0",
        "SUBQUERY(others, $o, $o.boss == owner.boss AND $o.age >= io).@count >= 1",
        "SUBQUERY(others.@links.Item.others, $x, $x.i > i).@count > 1", "SUBQUERY(others, $o, $o.age > 21).@count > i",
        "SUBQUERY(others, $o, $o.score > dec OR $o.nick == so).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.i > $o.age / 10).@count > 1).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.i == i).@count > 1).@count > 0",
    ]

    @Test("generated data: correlated and walked SUBQUERYs agree three ways", arguments: [UInt64(61), 62])
    func generated(seed: UInt64) throws {
        let store = try Generated.store(count: 60, seed: seed, deleting: seed % 2 == 0)
        let binder = Binder(schema: store.schema)
        var rng = SeededRandom(seed: seed)
        for text in Self.generatedShapes {
            let bound = try binder.bind(try Parser.parse(text, dialect: .nsPredicate), className: "Item")
            let rowCount = store.table(named: "Item")?.rowCount ?? 0
            let problems = try DifferentialTests.check(
                bound,
                store: store,
                positions: DifferentialTests.positions(&rng, rowCount: rowCount)
            )
            #expect(problems.isEmpty, "\(text)\n\(problems.joined(separator: "\n"))")
            // A register form for it (codegen throws `unsupported` otherwise).
            _ = try VMHarness.compile(bound, store: store, optimized: true)
        }
    }
}
