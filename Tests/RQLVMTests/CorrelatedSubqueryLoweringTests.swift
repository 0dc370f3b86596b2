import RQLBytecode
import RQLCore
import RQLDatasets
import RQLIR
import RQLSema
import RQLStorage
import RQLSyntax
import RQLTestSupport
import RQLVM
import Testing

/// Correlated SUBQUERYs whose predicate reads an outside operand that is not one value (a to-many
/// path, a subscript that may reach nothing, a quantified or element-wise side, arithmetic over
/// them) run on the VM: the outer program passes the operand's groups as a parameter
/// (`LoadGroups`, then `LoadParameter` and `CompareGroups` in the subquery's program), and the
/// VM with every pass, with none, and the reference evaluator agree on the data of
/// `SubqueryLoweringTests` (empty lists, repeats, null links, deleted dogs and toys, the block
/// store) and on generated data.
@Suite("Lowering of correlated SUBQUERYs reading many outside values")
struct CorrelatedSubqueryLoweringTests {
    static func lowers(_ text: String, className: String = "Person", dialect: Dialect = .rql) throws {
        for program in try WalkedSubqueryLoweringTests.check(text, className: className, dialect: dialect) {
            let emitted = SubqueryLoweringTests.opcodes(program)
            #expect(emitted.contains(.loadParameter), "\(text) passes no parameter")
        }
    }

    @Test(
        "an outer SUBQUERY element's to-many value, quantified, compared element-wise or as a list",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price == $d.scores).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price IN $d.scores).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ALL $d.scores > $t.price).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, NONE $d.scores < $t.price).@count > 0).@count > 1",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ANY $d.scores > 3).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > $d.scores * 2).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > $d.toys.price).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t IN $d.toys).@count == 1).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.parts == $d.toys).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, $o.pals.age == $d.scores).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, $o.dogs.age != $d.scores).@count > 0).@count > 0",
        ]
    )
    func toManyOuterValues(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "an outer value that may reach nothing (a subscript out of range, a null link on the way)",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price == $d.scores[0]).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price != $d.scores[1]).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price == $d.toys[0].price).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t == $d.toys[LAST]).@count > 0).@count > 0",
        ]
    )
    func outerValuesThatMayBeMissing(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "an outer single value against an inner to-many value",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.parts.price == $d.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ALL $t.parts.price > $d.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.parts.price * 2 > $d.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, $o.dogs.age == $d.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, $o.dogs == $d).@count > 0).@count > 1",
        ]
    )
    func innerToManyValues(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "three levels: groups passed on through the middle SUBQUERY's program",
        arguments: [
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, $q.price IN $d.scores).@count > 0).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, ALL $d.scores > $q.price AND $q.price != $t.price).@count > 0).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($t.parts, $q, $q.price == $t.parts.price OR $q IN $d.toys).@count > 1).@count > 0).@count > 0",
        ]
    )
    func threeLevels(query: String) throws {
        try Self.lowers(query)
    }

    @Test(
        "the object's to-many values and subscripts (NSPredicate: a bare key is the object's)",
        arguments: [
            "SUBQUERY(dogs, $d, $d.age IN pals.age).@count > 0", "SUBQUERY(dogs, $d, $d.age == pals.age).@count > 0",
            "SUBQUERY(dogs, $d, ALL pals.age > $d.age).@count > 0",
            "SUBQUERY(dogs, $d, ANY $d.scores == pals.age).@count > 0",
            "SUBQUERY(dogs, $d, $d.age > ANY pals.age).@count > 0", "SUBQUERY(dogs, $d, $d IN pals).@count > 0",
            "SUBQUERY(dogs, $d, $d.age == dogs[1].age).@count > 0",
            "SUBQUERY(dogs, $d, $d.scores == pals.age).@count > 0",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price IN pals.age).@count > 0).@count > 0",
            "SUBQUERY(dogs, $d, $d == partner.dogs[0]).@count > 0",
            "SUBQUERY(dogs, $d, $d.age IN partner.dogs.age).@count > 0",
            "SUBQUERY(dogs, $d, $d.age IN partner.pals.age AND $d.age > age / 20).@count > 0",
            "SUBQUERY(dogs, $d, $d.name BEGINSWITH pals.name).@count > 0",
            "SUBQUERY(dogs, $d, $d.age == partner.dogs[0].age).@count > 0",
            "SUBQUERY(dogs, $d, NOT $d.age IN pals.age OR $d.scores.@count > 1).@count == 1",
        ]
    )
    func objectValues(query: String) throws {
        try Self.lowers(query, dialect: .nsPredicate)
    }

    @Test(
        "the object's to-many values from Dog (NSPredicate)",
        arguments: [
            "SUBQUERY(toys, $t, $t.price IN scores).@count > 0",
            "SUBQUERY(toys, $t, $t IN owners.dogs.toys).@count > 1",
            "SUBQUERY(toys, $t, $t.price == owners.age).@count > 0",
            "SUBQUERY(toys, $t, ALL scores > $t.price).@count > 0",
            "SUBQUERY(toys, $t, $t.parts.@count == toys.parts.@count).@count > 0",
        ]
    )
    func objectValuesFromDogs(query: String) throws {
        try Self.lowers(query, className: "Dog", dialect: .nsPredicate)
    }

    @Test(
        "MATCHES of an outside value (FilterMatches on the parameter)",
        arguments: [
            (
                "Person", Dialect.rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $d.name MATCHES 'R.*').@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $d.name MATCHES 'R.*' OR $t.price > 2).@count > 1).@count > 0"
            ),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, name MATCHES '[AC].*' AND $d.age > 2).@count > 0"),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, NOT best.name MATCHES 'b.*').@count > 0"),
        ]
    )
    func matches(className: String, dialect: Dialect, query: String) throws {
        try Self.lowers(query, className: className, dialect: dialect)
    }

    @Test(
        "TEXT and GEOWITHIN of an outside path: each thing reached tested by the outer program",
        arguments: [
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, $f.text TEXT 'object').@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, NOT $f.text TEXT 'object -great').@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY(friends, $g, $f.parent.text TEXT 'object').@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, $f.place GEOWITHIN geoBox([0, 0], [1, 1])).@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, ANY $f.places GEOWITHIN geoBox([0, 0], [1, 1])).@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, NONE $f.places GEOWITHIN geoBox([0, 0], [0.7, 0.7])).@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, ALL $f.places GEOWITHIN geoBox([-10, -10], [10, 10])).@count > 0).@count > 0",
            "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, ALL $f.friends.place GEOWITHIN geoBox([-10, -10], [10, 10])).@count > 0).@count > 0",
        ]
    )
    func searchesOfOutsidePaths(query: String) throws {
        // Three ways on `SearchLoweringTests`' stores (a deleted Doc among them); compiling at all
        // shows a register form (codegen throws `unsupported` otherwise).
        _ = try SearchLoweringTests.check(query)
    }

    @Test(
        "MATCHES of an outside operand that is not one value (its tests passed in as groups)",
        arguments: [
            (
                "Person", Dialect.rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ANY $d.toys.name MATCHES 'b.*').@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ALL $d.toys.name MATCHES 'b.*').@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, NONE $d.toys.name MATCHES 'b.*').@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $d.toys[0].name MATCHES 'b.*').@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ANY $d.owners.pals.name MATCHES 'R.*' AND $t.price > 2).@count > 0).@count > 0"
            ),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, ANY pals.name MATCHES 'R.*').@count > 0"),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, ALL pals.name MATCHES 'R.*' AND $d.age > 2).@count > 0"),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, NOT ANY dogs.name MATCHES 'R.*' OR $d.age > 4).@count > 0"),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, ANY owners.name MATCHES '[AC].*').@count > 0"),
        ]
    )
    func matchesOfManyOutsideValues(className: String, dialect: Dialect, query: String) throws {
        try Self.lowers(query, className: className, dialect: dialect)
    }

    @Test(
        "arithmetic with an outside operand that is not one value (its groups' values passed in)",
        arguments: [
            (
                "Person", Dialect.rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.scores > 3).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.scores[0] > 3).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price * $d.scores[1] <= 10).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, ALL $d.scores - $t.price < 2).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, NONE $d.toys.price * 2 + $t.price > 8).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.scores == $d.scores).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price + $d.owners.dogs.toys.price != $d.owners.dogs.toys.price).@count > 0).@count > 0"
            ),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, $d.age + pals.age > 3).@count > 0"),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, $d.age + dogs[0].age == 8 OR $d.age > 5).@count > 0"),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, ANY dogs.age - $d.age IN {0, 1}).@count > 0"),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, $t.price + owners.age > 20).@count > 0"),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, $t.price + owners.dogs.age == owners.dogs.scores).@count > 0"),
        ]
    )
    func arithmeticWithManyOutsideValues(className: String, dialect: Dialect, query: String) throws {
        try Self.lowers(query, className: className, dialect: dialect)
    }

    @Test(
        "a nested SUBQUERY over an outside collection, walked from the owner's link passed in",
        arguments: [
            // The dogs of greatest age; repeated dogs, null ages, a deleted dog.
            (
                "Person", Dialect.nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(dogs, $e, $e.age > $d.age).@count == 0).@count > 0"
            ),
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, SUBQUERY(dogs, $e, $e.age >= $d.age).@count > 1).@count == 2"),
            // A set of the object's.
            ("Person", .nsPredicate, "SUBQUERY(dogs, $d, SUBQUERY(pals, $p, $p == $d).@count > 0).@count > 0"),
            ("Person", .nsPredicate, "SUBQUERY(pals, $p, SUBQUERY(dogs, $d, $d == $p).@count > 1).@count > 0"),
            // Through a to-one link (null for Bob) and to-many hops (repeats counted per path).
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(partner.dogs, $e, $e.age <= $d.age).@count > 0).@count > 0"
            ),
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(pals.toys, $t, $t == $d.best).@count > 1).@count > 0"
            ),
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(partner.partner.dogs, $e, $e == $d).@count > 0).@count > 1"
            ),
            // Backlinks of the object's.
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(@links.Person.partner, $q, $q.age > $d.age * 10).@count > 0).@count > 0"
            ),
            (
                "Dog", .nsPredicate,
                "SUBQUERY(toys, $t, SUBQUERY(owners, $o, $o.age > $t.price * 10).@count > 0).@count > 0"
            ),
            ("Dog", .nsPredicate, "SUBQUERY(toys, $t, SUBQUERY(toys, $x, $x.price > $t.price).@count == 0).@count > 0"),
            // Compared with a value of the element.
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY(dogs, $e, $e.age < $d.age).@count > $d.scores.@count).@count > 0"
            ),
            // Three levels: an outer element's collection from the innermost, and the object's
            // link passed on through the middle program.
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($d.toys, $x, $x.price > $t.price).@count > 1).@count > 0).@count > 0"
            ),
            (
                "Person", .rql,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY($d.toys, $x, $x == $t).@count > 1).@count > 0).@count > 0"
            ),
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY(dogs, $e, $e.best == $t).@count > 0).@count > 0).@count > 0"
            ),
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, SUBQUERY(dogs, $e, $e.age > $d.age).@count > 0).@count > 0).@count > 0"
            ),
            (
                "Person", .nsPredicate,
                "SUBQUERY(dogs, $d, SUBQUERY($d.owners, $o, SUBQUERY($o.pals, $p, SUBQUERY(dogs, $e, $e == $p AND $e != $d).@count > 0).@count > 0).@count > 0).@count > 0"
            ),
        ]
    )
    func outsideCollections(className: String, dialect: Dialect, query: String) throws {
        try Self.lowers(query, className: className, dialect: dialect)
        let store = try DatasetLoader.load(json: SubqueryLoweringTests.json)
        let bound = try Binder(schema: store.schema).bind(
            try Parser.parse(query, dialect: dialect),
            className: className
        )
        for optimized in [true, false] {
            let program = try VMHarness.compile(bound, store: store, optimized: optimized)
            #expect(Self.walksFromRegister(program), "\(query) walks no collection from a link passed in")
        }
    }

    /// Whether `program`, or a program nested in it, has a walking `CountSubquery` whose hops
    /// start from a link in a value register.
    static func walksFromRegister(_ program: Program) -> Bool {
        program.instructions.contains { instruction in
            guard instruction.opcode == .countSubquery, program.constants.contains(instruction.p4) else { return false }
            switch program.constants[instruction.p4] {
            case .subquery(let nested, _, _, let start): return start != nil || walksFromRegister(nested)
            case .program(let nested, _): return walksFromRegister(nested)
            default: return false
            }
        }
    }

    /// The program (this one or one nested in it) holding a walking `CountSubquery` that starts
    /// from a value register, and that instruction's address.
    static func programWalkingFromRegister(_ program: Program) -> (Program, Int)? {
        for (address, instruction) in program.instructions.enumerated()
        where instruction.opcode == .countSubquery && program.constants.contains(instruction.p4) {
            switch program.constants[instruction.p4] {
            case .subquery(let nested, _, _, let start):
                if start != nil { return (program, address) }
                if let found = programWalkingFromRegister(nested) { return found }
            case .program(let nested, _):
                if let found = programWalkingFromRegister(nested) { return found }
            default:
                continue
            }
        }
        return nil
    }

    @Test("the verifier rejects a walk's start register not written before, and a start without hops")
    func verifierChecksTheStart() throws {
        let store = try DatasetLoader.load(json: SubqueryLoweringTests.json)
        let text = "SUBQUERY(dogs, $d, SUBQUERY(dogs, $e, $e.age > $d.age).@count == 0).@count > 0"
        let bound = try Binder(schema: store.schema).bind(
            try Parser.parse(text, dialect: .nsPredicate),
            className: "Person"
        )
        let (program, address) = try #require(
            Self.programWalkingFromRegister(try VMHarness.compile(bound, store: store, optimized: true))
        )
        #expect(ProgramVerifier.verify(program).isEmpty)
        let instruction = program.instructions[address]
        guard case .subquery(let nested, let hops, let parameters, _) = program.constants[instruction.p4] else {
            Issue.record("no walking SUBQUERY at \(address)")
            return
        }
        /// `program` with the SUBQUERY constant replaced.
        func replacing(_ constant: Constant) -> Program {
            var pool = ConstantPool()
            for (index, entry) in program.constants.entries.enumerated() {
                _ = pool.add(index == Int(instruction.p4) ? constant : entry)
            }
            var changed = program
            changed.constants = pool
            return changed
        }
        let unwritten = replacing(.subquery(nested, hops: hops, parameters: parameters, start: instruction.p3))
        #expect(ProgramVerifier.verify(unwritten).contains { $0.message.contains("start v[") })
        let hopless = replacing(.subquery(nested, hops: [], parameters: parameters, start: instruction.p3 - 1))
        #expect(ProgramVerifier.verify(hopless).contains { $0.message.contains("wrong kind of constant") })
    }

    /// Every pairing of an inner operand and an outer operand that binds, under each operator: a
    /// correlated SUBQUERY of each compiles and agrees three ways.
    @Test("inner × operator × outer operands, every combination that binds", arguments: ["==", "!=", "<", ">=", "IN"])
    func combinations(op: String) throws {
        let inner = ["$t.price", "$t.parts.price", "ALL $t.parts.price", "$t", "$t.parts.@count", "$t.price + 1"]
        let outer = [
            "$d.scores", "$d.age", "$d.toys.price", "ALL $d.scores", "NONE $d.scores", "$d.scores[0]", "$d.toys",
            "$d.best", "$d.scores * 2", "$d.toys.@max.price", "$d.best.price", "$d.toys[1]",
        ]
        let schema = try DatasetLoader.load(json: SubqueryLoweringTests.json).schema
        var checked = 0
        for lhs in inner {
            for rhs in outer {
                let text = "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, \(lhs) \(op) \(rhs)).@count > 0).@count > 0"
                guard (try? Binder(schema: schema).bind(try Parser.parse(text), className: "Person")) != nil else {
                    continue
                }
                try Self.lowers(text)
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// Generated data (`Generated.store`): repeats, links to deleted owners, null links, mixed
    /// values of every type (`@type` of the item's).
    static let generatedShapes = [
        "SUBQUERY(others, $o, $o.age IN others.age).@count > 1",
        "SUBQUERY(others, $o, ANY $o.scores == tags[0]).@count > 0",
        "SUBQUERY(others, $o, ALL tags > $o.age).@count > 0",
        "SUBQUERY(others, $o, $o.boss.scores.@max IN tags).@count > 0",
        "SUBQUERY(others, $o, $o == others[0]).@count > 0", "SUBQUERY(others, $o, $o.boss IN others).@count > 0",
        "SUBQUERY(others, $o, $o.age > tags[1] / 2).@count > 0",
        "SUBQUERY(others, $o, m.@type == 'int' AND $o.age > 20).@count > 0",
        "SUBQUERY(others, $o, m.@type IN {'string', 'double'} OR $o.age == nil).@count > 0",
        "SUBQUERY(others, $o, $o.scores == others.age).@count > 0",
        "SUBQUERY(others, $o, $o.@links.Item.others.i != others.age).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.i IN $o.scores).@count > 1).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.tags == $o.age).@count > 0).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.i IN tags).@count > 0).@count > 1",
        "SUBQUERY(others, $o, SUBQUERY(others, $p, $p.age > $o.age).@count == 0).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY(others, $p, $p.boss == $o).@count > 0).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY(owner.@links.Item.others, $j, $j.i > $o.age).@count > 0).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, SUBQUERY(others, $p, $p == $o.boss).@count > 0).@count > 0).@count > 0",
        // Arithmetic and MATCHES over an outside operand that is not one value.
        "SUBQUERY(others, $o, $o.age + tags > 3).@count > 0",
        "SUBQUERY(others, $o, $o.age - tags[1] <= 0).@count > 0",
        "SUBQUERY(others, $o, $o.age * others.boss.age == $o.scores).@count > 0",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, $j.i + $o.scores > 2).@count > 0).@count > 0",
        "SUBQUERY(others, $o, ANY others.nick MATCHES 'a.*' OR $o.age > 30).@count > 0",
        "SUBQUERY(others, $o, ALL others.boss.name MATCHES '[a-m].*').@count > 1",
        "SUBQUERY(others, $o, SUBQUERY($o.@links.Item.others, $j, NONE $o.@links.Item.others.s MATCHES '.*a.*' AND $j.i > 0).@count > 0).@count > 0",
    ]

    @Test(
        "generated data: correlated SUBQUERYs reading many outside values agree three ways",
        arguments: [UInt64(71), 72]
    )
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
            for optimized in [true, false] {
                // A register form for it (codegen throws `unsupported` otherwise).
                _ = try VMHarness.compile(bound, store: store, optimized: optimized)
            }
        }
    }
}
