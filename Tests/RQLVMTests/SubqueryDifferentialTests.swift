import RQLBytecode
import RQLCore
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import RQLVM
import Testing

/// Generated SUBQUERY predicates on the differential tests' data (`Generated.store`: lists with
/// repeats, links to deleted owners, null links on the way), three ways as `DifferentialTests`
/// checks them: over `others` from Item, over `@links.Item.others` from Owner, nested both ways,
/// their predicates drawn from every shape the VM lowers, combined with AND, OR and NOT.
@Suite("VM differential: SUBQUERY")
struct SubqueryDifferentialTests {
    /// A predicate over the Owner `$o`.
    /// With `backlinks`, also SUBQUERYs over the items linking to `$o` (each a scan of the items
    /// for the reference evaluator, too slow on large tables).
    static func ownerPredicate(_ rng: inout SeededRandom, depth: Int, backlinks: Bool) -> String {
        if depth > 0 && rng.chance(40) {
            if rng.chance(25) { return "NOT (" + ownerPredicate(&rng, depth: depth - 1, backlinks: backlinks) + ")" }
            let glue = rng.chance(50) ? " AND " : " OR "
            return "("
                + (0..<2).map { _ in ownerPredicate(&rng, depth: depth - 1, backlinks: backlinks) }.joined(
                    separator: glue
                ) + ")"
        }
        let atoms = [
            "$o.age > 21", "$o.age == nil", "$o.name IN {'o1', 'o2', 'o5'}", "$o.nick BEGINSWITH[c] 'a'",
            "$o.boss.age >= 22", "$o.boss == nil", "ANY $o.scores > 2", "ALL $o.scores < 3", "NONE $o.weights == 0.5",
            "$o.weights.@count > 0", "$o.score > 0", "$o.scores.@sum > 3", "$o.@links.@count > 2",
            "$o.age > $o.boss.age", "$o.nick MATCHES 'a.*'", "$o.boss.name == 'o1'", "TRUEPREDICATE",
        ]
        let nested = [
            "SUBQUERY($o.@links.Item.others, $j, $j.i > 2).@count > 0",
            "SUBQUERY($o.@links.Item.others, $j, $j.s == 'a' OR $j.owner.age < 22).@count == 1",
        ]
        return rng.pick(backlinks ? atoms + nested : atoms)
    }

    /// A predicate over the Item `$x`.
    static func itemPredicate(_ rng: inout SeededRandom, depth: Int) -> String {
        if depth > 0 && rng.chance(40) {
            let glue = rng.chance(50) ? " AND " : " OR "
            return "(" + (0..<2).map { _ in itemPredicate(&rng, depth: depth - 1) }.joined(separator: glue) + ")"
        }
        return rng.pick([
            "$x.i > 2", "$x.s == 'a'", "$x.owner.age > 21", "ANY $x.tags == 1", "$x.m == 1", "$x.so == nil",
            "SUBQUERY($x.others, $o, $o.age > 21).@count > 1", "$x.others.@count == 0",
        ])
    }

    static func count(_ rng: inout SeededRandom) -> String {
        "\(rng.pick(["==", "!=", "<", "<=", ">", ">="])) \(rng.int(below: 4))"
    }

    /// A query on Item (`others`) or Owner (`@links.Item.others`), sometimes with another test.
    static func query(_ rng: inout SeededRandom, backlinks: Bool) -> (className: String, text: String) {
        if backlinks && rng.chance(30) {
            let text = "SUBQUERY(@links.Item.others, $x, \(itemPredicate(&rng, depth: 2))).@count \(count(&rng))"
            return ("Owner", rng.chance(30) ? text + " OR age == 22" : text)
        }
        let predicate = ownerPredicate(&rng, depth: 2, backlinks: backlinks)
        let subquery = "SUBQUERY(others, $o, \(predicate)).@count \(count(&rng))"
        switch rng.int(below: 4) {
        case 0:
            let glue = rng.chance(50) ? " AND " : " OR "
            return ("Item", subquery + glue + Generated.predicate(&rng, depth: 1))
        case 1: return ("Item", "NOT (" + subquery + ")")
        default: return ("Item", subquery)
        }
    }

    static func run<Store: StoreReader>(
        _ store: Store,
        seed: UInt64,
        attempts: Int,
        backlinks: Bool = true
    ) throws -> Int {
        let binder = Binder(schema: store.schema)
        var rng = SeededRandom(seed: seed)
        var checked = 0
        for attempt in 0..<attempts {
            let (className, text) = query(&rng, backlinks: backlinks)
            let bound = try binder.bind(try Parser.parse(text), className: className)
            checked += 1
            let rowCount = store.table(named: className)?.rowCount ?? 0
            let positions = DifferentialTests.positions(&rng, rowCount: rowCount)
            let problems = try DifferentialTests.check(bound, store: store, positions: positions)
            if !problems.isEmpty {
                Issue.record("seed \(seed) attempt \(attempt): \(text)\n\(problems.joined(separator: "\n"))")
            }
            // Every SUBQUERY shape drawn here has a register form (codegen throws `unsupported` otherwise).
            _ = try VMHarness.compile(bound, store: store, optimized: true)
        }
        return checked
    }

    @Test(
        "generated SUBQUERYs on small tables agree three ways",
        arguments: [(UInt64(51), false), (52, true), (53, false), (54, true)]
    )
    func smallTables(seed: UInt64, deleting: Bool) throws {
        let store = try Generated.store(count: 60, seed: seed, deleting: deleting)
        #expect(try Self.run(store, seed: seed, attempts: 120) == 120)
    }

    @Test("generated SUBQUERYs on multi-block tables and the block store agree three ways")
    func multiBlock() throws {
        let columns = try Generated.store(count: 4_500, seed: 61, deleting: true)
        #expect(try Self.run(columns, seed: 61, attempts: 6, backlinks: false) == 6)
        let snapshot = try BlockStore(importing: columns).snapshot
        #expect(try Self.run(snapshot, seed: 62, attempts: 6, backlinks: false) == 6)
    }
}
