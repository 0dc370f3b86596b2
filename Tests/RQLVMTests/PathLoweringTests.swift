import RQLBytecode
import RQLCore
import RQLVM
import Testing

/// Subscripts (`scores[0]`, `dict['a']`, `m[0]`), `@keys` / `@values`, `@links` paths and paths
/// through several to-many hops run as `LoadElement` and `ReducePath`,
/// and agree with the reference evaluator on null and deleted links, empty collections, missing
/// keys, positions out of range and objects reached along several paths.
@Suite("Lowering of subscripts, backlinks and to-many paths")
struct PathLoweringTests {
    static let json = #"""
        {"schema": {
           "Person": {"properties": {"name": "string", "age": "int?", "owner": "Person?", "friends": "list<Person>",
              "dogs": "list<Dog>", "scores": "list<int>", "tags": "list<string?>", "dict": "map<int?>",
              "pets": "map<Dog?>", "m": "mixed", "ms": "list<mixed>", "walkers": "linkingObjects<Dog.walker>"}},
           "Dog": {"properties": {"name": "string", "age": "int", "walker": "Person?", "toys": "list<Toy>",
              "scores": "set<int>", "dict": "map<string>"}},
           "Toy": {"properties": {"name": "string?", "price": "double"}}},
         "objects": {
           "Person": [
             {"name": "Ann", "age": 30, "owner": 1, "friends": [1, 1, 2], "dogs": [0, 1, 0], "scores": [1, 5, 9],
              "tags": ["a", null], "dict": {"x": 1, "y": null}, "pets": {"a": 0, "b": null}, "m": [1, [2, 3]],
              "ms": [[1, 2], "s"]},
             {"name": "Bob", "age": null, "owner": 2, "friends": [], "dogs": [], "scores": [], "tags": [],
              "dict": {}, "pets": {}, "m": {"k": 1}, "ms": []},
             {"name": "Cid", "age": 7, "owner": null, "friends": [3], "dogs": [2], "scores": [7], "tags": ["A"],
              "dict": {"a": 3, "b": 4}, "pets": {"z": 2}, "m": 5, "ms": [null, [4]]},
             {"name": "Dan", "age": 0, "owner": 1, "friends": [1, 0], "dogs": [1, 2], "scores": [2, 2], "tags": [],
              "dict": {"z": 0}, "pets": {"c": 1}, "m": null, "ms": [[]]}],
           "Dog": [
             {"name": "Rex", "age": 3, "walker": 1, "toys": [0, 1], "scores": [1, 9], "dict": {"a": "x"}},
             {"name": "Fido", "age": 5, "walker": 0, "toys": [], "scores": [], "dict": {}},
             {"name": "Max", "age": 1, "walker": null, "toys": [2, 2], "scores": [4], "dict": {"b": "y", "c": "z"}}],
           "Toy": [
             {"name": "ball", "price": 1.5},
             {"name": null, "price": 0},
             {"name": "bone", "price": 3}]}}
        """#

    static func emits(_ text: String, _ opcodes: [Opcode]) throws {
        try LoweringTests.emits(text, opcodes, in: Self.json)
    }

    @Test(
        "a subscript of a list, a dictionary or a mixed list loads one element",
        arguments: [
            "scores[0] == 1", "scores[FIRST] > 2", "scores[LAST] == 9", "scores[5] == nil", "scores[0] == nil",
            "NOT scores[1] == 5", "scores[1] != 5", "owner.scores[0] == 1", "owner.scores[LAST] == nil",
            "owner.owner.scores[FIRST] >= 2", "tags[1] == nil", "tags[0] BEGINSWITH[c] 'a'", "dict['x'] == 1",
            "dict['y'] == nil", "dict['missing'] == nil", "dict['a'] > 2", "owner.dict['z'] == 0",
            "NOT dict['b'] == 4", "m[0] == 1", "m[1][0] == 2", "m[LAST][LAST] == 3", "m[0] == nil",
            "ms[0][1] == 2", "ms[FIRST] == nil", "ms[LAST][0] == 4", "friends[0] == nil", "friends[2] != nil",
            "pets['a'] == nil", "pets['b'] == nil", "pets['zz'] == nil", "scores[0] IN {1, 7}",
            "dict['a'] IN {3, 1}", "scores[0] > age", "scores[LAST] + 1 > 5",
        ]
    )
    func subscripts(text: String) throws {
        try Self.emits(text, [.loadElement])
    }

    @Test(
        "an element of a list or dictionary of links is followed as a to-one link",
        arguments: [
            "friends[0].name == 'Bob'", "friends[FIRST].age > 5", "friends[LAST].name == 'Ann'",
            "friends[5].name == nil", "NOT friends[5].name == nil", "pets['a'].name == 'Rex'", "pets['b'].name == nil",
            "pets['zz'].age == nil", "friends[0].friends[LAST].name == 'Cid'", "friends[0].scores[0] == 7",
            "dogs[1].toys[0].name == 'ball'", "friends[0].name IN {'Bob', 'Dan'}", "friends[0].age > age",
            "dogs[0].walker.name == 'Bob'", "owner.friends[1].dict['x'] == 1", "friends[FIRST].owner == nil",
            "dogs[LAST].dict['a'] == 'x'",
        ]
    )
    func elementLinks(text: String) throws {
        try Self.emits(text, [.gatherElement])
    }

    @Test(
        "a collection after a subscript that reaches nothing is an empty group, row at a time",
        arguments: ["ALL friends[5].scores > 3", "NONE friends[7].dogs.age == 1", "ANY friends[5].scores > 3"]
    )
    func quantifiedAfterSubscript(text: String) throws {
        _ = try LoweringTests.program(text, in: Self.json)
    }

    @Test(
        "@values of a dictionary of links is a hop to the linked objects",
        arguments: [
            "ANY pets.@values.name == 'Rex'", "ALL pets.@values.age > 2", "NONE pets.@values.toys.name == 'bone'",
            "pets.@values.@count == 1", "ANY friends.pets.@values.age == 1", "ALL friends.pets.@values.scores > 3",
            "pets.@values.@links.@count > 1",
        ]
    )
    func dictionaryOfLinks(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "@keys and @values of a dictionary are quantified per owner",
        arguments: [
            "ANY dict.@keys == 'x'", "ALL dict.@keys BEGINSWITH 'a'", "NONE dict.@keys == 'z'", "dict.@values > 2",
            "ALL dict.@values > 0", "NONE dict.@values == nil", "owner.dict.@values == 3",
            "ALL owner.dict.@keys != 'x'", "ANY dogs.dict.@keys == 'a'", "ALL dogs.dict.@values == 'x'",
            "NONE dogs.dict.@values == 'z'", "ANY pets.@keys == 'b'",
        ]
    )
    func keysAndValues(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "@links paths walk the backlinks, then the properties",
        arguments: [
            "@links.Dog.walker.name == 'Rex'", "ALL @links.Dog.walker.age > 2", "NONE @links.Dog.walker.age > 2",
            "ANY @links.Person.friends.name == 'Ann'", "ALL @links.Person.owner.age == nil",
            "@links.Dog.walker.@count > 0", "@links.Person.friends.@count == 2", "@links.Person.friends.@count == 0",
            "@links.Dog.walker.@sum.age > 3", "@links.Dog.walker.@max.age == 5", "@links.Person.friends.@avg.age > 10",
            "@links.Person.friends.@min.age == nil", "owner.@links.Person.friends.@count > 2",
            "ANY walkers.age > 3", "ALL walkers.toys.name == 'ball'", "walkers.@count == 1",
            "ANY @links.Person.friends.dogs.name == 'Max'", "ANY @links.Dog.walker.scores > 5",
        ]
    )
    func backlinks(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "paths through two to-many hops are quantified, counted and aggregated as the reference does",
        arguments: [
            "ANY dogs.toys.name == 'ball'", "ALL dogs.toys.name == 'ball'", "NONE dogs.toys.name == 'ball'",
            "ANY dogs.toys.name == nil", "ALL dogs.toys.price > 1", "ANY dogs.scores > 5", "ALL dogs.scores > 1",
            "NONE dogs.scores == 2", "ALL dogs.scores < 5", "ANY friends.dogs.age > 4",
            "ALL friends.friends.name == 'Ann'",
            "ANY friends.owner.dogs.toys.name BEGINSWITH 'bo'", "ALL friends.dogs.walker.age > 1",
            "dogs.toys.@count > 1", "friends.dogs.@count == 0", "friends.friends.@count > 3",
            "friends.owner.@count == 2",
            "owner.@count == 1", "friends.@links.@count > 2", "dogs.toys.@links.@count == 0",
            "owner.@links.Dog.walker.@avg.age > 2",
            "NOT ANY dogs.toys.price > 2", "ANY dogs.toys.name == 'bone' OR age == 30", "ALL friends.owner.scores > 8",
            "NONE friends.owner.scores == 7", "ANY friends.owner.scores == 7", "ALL friends.owner.dict.@keys == 'a'",
        ]
    )
    func twoLevels(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "a quantified path compared with a constant list nests the quantifiers as written",
        arguments: [
            "ALL scores > ANY {0, 1}", "NONE friends.name == {'Bob', 'Cid'}", "ANY {5, 9} == ALL scores",
            "ALL {1, 2} < ANY scores", "NONE {1} == NONE scores", "ANY friends.age IN {7, 30}",
            "ALL dogs.toys.name == ANY {'ball', 'bone'}", "ANY dict.@values == ALL {3}",
            "NONE dict.@keys BEGINSWITH ANY {'a', 'x'}", "ALL tags ==[c] ANY {'a', nil}", "friends.name == ANY {'Bob'}",
            "ALL friends.owner.scores > ALL {1, 5}", "ANY {} == ALL scores", "ALL scores == {}",
            "NOT ALL friends.age > ANY {5, 20}", "ANY @links.Dog.walker.age == ALL {3, 5}",
        ]
    )
    func listComparisons(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "one value compared with a constant list under the list's quantifier",
        arguments: [
            "age > ANY {1, 20}", "age == ALL {30, 30}", "age != NONE {7}", "name ENDSWITH {'n', 'x'}",
            "owner.name BEGINSWITH[c] ANY {'b', 'C'}", "ALL {1, 2} < age", "NONE {40} < age",
            "age != ALL {}", "owner.age == NONE {30, 7}", "scores[0] > ANY {0, 8}",
            "friends[0].name LIKE {'B*', '?id'}",
            "age < {5, nil}", "NOT age > ANY {10}", "owner.owner.age == ALL {nil}",
        ]
    )
    func singleValueAgainstList(text: String) throws {
        try Self.emits(text, [.filterValueList])
    }

    @Test(
        "an unquantified path compared with a constant list element by element, in order",
        arguments: [
            "scores == {1, 5, 9}", "scores != {1, 5, 9}", "{1, 5, 9} == scores", "scores == {}", "{} == scores",
            "scores < {2, 6, 10}", "friends.name == {'Bob', 'Bob', 'Cid'}", "friends.name != {'Bob', 'Cid'}",
            "owner.scores == {7}", "dict.@keys == {'a', 'b'}", "tags ==[c] {'A', nil}", "owner.tags == {}",
            "walkers.name == {'Fido'}", "dict.@values == {3, 4}", "NOT friends.age == {nil, nil, 7}",
            "friends.age > {0, 0, 0}",
        ]
    )
    func elementwise(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "a multi-valued path compared with a value computed per row",
        arguments: [
            "ANY friends.age == age", "ALL friends.age > age", "NONE friends.name == name", "scores == age",
            "ANY scores > owner.age", "ALL dogs.age > friends.@avg.age", "ALL dict.@values == scores.@count",
            "ANY friends.age == owner.age", "ALL scores >= scores.@min", "ANY scores == scores.@max",
            "age < ANY friends.age", "name == ALL friends.name", "ANY dogs.toys.price > dogs.@max.age",
            "NONE @links.Dog.walker.age < friends.dogs.@count", "NOT ANY friends.owner.age == age",
        ]
    )
    func pathAgainstValue(text: String) throws {
        try Self.emits(text, [.reducePathAgainst])
    }

    @Test(
        "@type of a multi-valued path against a type name",
        arguments: [
            "ANY ms.@type == 'list'", "ALL ms.@type != 'string'", "NONE ms.@type == 'null'", "ANY dict.@type == 'int'",
            "ALL dict.@type == 'int'", "ANY friends.m.@type == 'int'", "ALL friends.m.@type == 'numeric'",
        ]
    )
    func typeOfMany(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "[*] after a collection is the collection",
        arguments: [
            "ANY friends[*].name == 'Bob'", "ALL scores[*] > 1", "dict[*] > 2", "ALL dogs[*].toys[*].name == 'ball'",
            "friends[*].@links.@count > 2", "NONE friends[*].scores[*] == 7",
        ]
    )
    func everyElement(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "a constant on the left of a quantified path flips the operator, not the quantifier",
        arguments: [
            "'Bob' == ANY friends.name", "5 < ALL scores", "'ball' == ALL dogs.toys.name", "3 >= NONE friends.age",
            "'X' ==[c] ANY dict.@keys", "2 == scores",
        ]
    )
    func flipped(text: String) throws {
        try Self.emits(text, [])
    }

    @Test(
        "the sizes of a collection's elements through to-many hops, against a constant or a column",
        arguments: [
            "ANY friends.tags[*].@size == 1", "ALL friends.tags[*].@size == 1", "NONE friends.tags[*].@size == 0",
            "ANY tags[*].@size == age", "friends.tags[*].@size == age", "ALL owner.tags[*].@size > age",
            "ANY dogs.dict[*].@size == 1", "ALL friends.owner.tags[*].@size == 1",
        ]
    )
    func sizes(text: String) throws {
        try Self.emits(text, [text.hasSuffix("age") ? .reducePathAgainst : .reducePath])
    }

    @Test(
        "a subscript after to-many hops picks one element per owner",
        arguments: [
            "ANY friends.scores[0] == 7", "ALL friends.scores[LAST] > 1", "NONE friends.dict['x'] == 1",
            "ANY dogs.dict['a'] == 'x'", "ALL friends.dict['a'] == nil", "friends.scores[0] == {7}",
            "ANY friends.ms[0][1] == 2", "ALL @links.Person.friends.scores[FIRST] < 5", "ALL friends.scores[3] == 1",
        ]
    )
    func elementPerOwner(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    @Test(
        "an aggregate or count per linked object's collection is quantified over the objects",
        arguments: [
            "friends.scores.@sum > 10", "ALL friends.scores.@max > 1", "NONE friends.scores.@min == 7",
            "friends.scores.@count == 0", "ALL friends.scores.@count > 0", "ANY dogs.scores.@avg > 4",
            "friends.owner.scores.@sum == 0", "ALL @links.Person.friends.dict.@sum > 0", "friends.dict.@max == 4",
            "ALL dogs.scores.@count == 1", "NONE friends.owner.scores.@count == 0",
        ]
    )
    func perOwner(text: String) throws {
        try Self.emits(text, [.reducePath])
    }

    static let mixedJSON = #"""
        {"schema": {"Person": {"primaryKey": "id", "properties": {"id": "string", "n": "int", "m": "mixed",
              "pal": "Person?", "tags": "list<string>"}}},
         "objects": {"Person": [
           {"id": "a", "n": 1, "pal": "b", "tags": [], "m": {"one": 1, "two": [5, 6],
              "three": [5, {"Hello": 5, "friend": {"$link": {"class": "Person", "key": "b"}}}]}},
           {"id": "b", "n": 2, "pal": null, "tags": ["x"],
              "m": [{"one": 2}, {"$link": {"class": "Person", "key": "c"}}]},
           {"id": "c", "n": 3, "pal": "a", "tags": [],
              "m": {"friend": {"$link": {"class": "Person", "key": "a"}}, "one": null}},
           {"id": "d", "n": 4, "pal": "c", "tags": [], "m": null}]}}
        """#

    @Test(
        "keys of mixed dictionaries, and of the objects mixed links point at, load one value",
        arguments: [
            "m['one'] == 1", "m['two'][1] == 6", "m['three'][1]['Hello'] == 5", "m['three'][1]['friend']['n'] == 2",
            "m['three'][1]['friend']['pal'] == nil", "m[1]['n'] == 3", "m[0]['one'] == 2", "m['friend']['id'] == 'a'",
            "m['friend']['m']['one'] == 1", "m['missing'] == nil", "pal.m['one'] == 1", "m['friend']['nope'] == nil",
            "m['one'] == nil", "NOT m['three'][1]['friend']['n'] == 2", "m['friend']['pal']['id'] == 'b'",
        ]
    )
    func mixedKeys(text: String) throws {
        try LoweringTests.emits(text, [.loadElement], in: Self.mixedJSON)
    }

    @Test("a key naming some class's collection after a mixed value loads its groups, and agrees")
    func mixedKeyNamingCollection() throws {
        try LoweringTests.emits("m['friend']['tags'] == 'x'", [.loadGroups, .compareGroups], in: Self.mixedJSON)
    }

    @Test(
        "links reached through to-many hops compared as values",
        arguments: [
            "ANY friends.owner == owner", "ALL friends == owner", "NONE dogs.walker == owner",
            "ANY @links.Person.friends == owner", "ANY friends.friends == owner", "friends == {}",
            "ANY pets.@values == owner", "ALL pets.@values != owner", "NONE friends.owner == owner",
        ]
    )
    func linksAsValues(text: String) throws {
        try Self.emits(text, [])
    }

    @Test("the verifier rejects malformed subscripts, walks and list filters")
    func rejects() throws {
        let good = try LoweringTests.program(
            "friends[0].scores[1] > 2 AND ANY dogs.toys.name == 'ball' AND age > ANY {1, 2} AND ANY friends.age == age",
            in: Self.json
        )[0]
        #expect(ProgramVerifier.verify(good).isEmpty)
        func address(_ opcode: Opcode) -> Int { good.instructions.firstIndex { $0.opcode == opcode }! }
        func rejected(_ change: (inout Program) -> Void) -> Bool {
            var program = good
            change(&program)
            return !ProgramVerifier.verify(program).isEmpty
        }
        let element = address(.loadElement)
        let gather = address(.gatherElement)
        let walk = address(.reducePath)
        let list = address(.filterValueList)
        let against = address(.reducePathAgainst)
        // Constants of the wrong kind: a walk for a subscript, subscripts for a walk, a walk
        // without a comparison for `ReducePathAgainst` and one with it for `ReducePath`.
        #expect(rejected { $0.instructions[element].p4 = $0.instructions[walk].p4 })
        #expect(rejected { $0.instructions[gather].p4 = $0.instructions[list].p4 })
        #expect(rejected { $0.instructions[walk].p4 = $0.instructions[element].p4 })
        #expect(rejected { $0.instructions[list].p4 = $0.instructions[element].p4 })
        #expect(rejected { $0.instructions[against].p4 = $0.instructions[walk].p4 })
        #expect(rejected { $0.instructions[walk].p4 = $0.instructions[against].p4 })
        // Registers: a position register that does not exist, a comparand nothing wrote.
        #expect(rejected { $0.instructions[gather].p3 = 9 })
        #expect(rejected { $0.instructions[element].p5 = 7 })
        #expect(rejected { $0.instructions[against].p2 = $0.instructions[against].p3 })
        #expect(rejected { $0.instructions[list].p3 = 40 })
        #expect(rejected { $0.instructions[walk].p2 = 1 })
    }

    @Test("a backlink walk folds objects met again: twenty hops stay linear and counts saturate")
    func folding() throws {
        let hops = (0..<20).map { _ in "friends.@links.Person.friends" }.joined(separator: ".")
        try Self.emits("ANY \(hops).name == 'Ann'", [.reducePath])
        try Self.emits("\(hops).@count > 2", [.reducePath])
    }
}
