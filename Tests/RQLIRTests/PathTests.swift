import RQLCore
import RQLDatasets
import RQLIR
import RQLStorage
import Testing

/// Paths: embedded objects, backlinks, positions, dictionaries and nested mixed values.
@Suite("Reference evaluator: paths")
struct PathTests {
    @Test("Embedded objects and to-many links on the demo dataset")
    func demo() throws {
        let people = Harness(store: try DemoDataset.load(), className: "Person")
        #expect(people.count(people.cmp("address.city", .equal, .string("Los Angeles"))) == 2)
        #expect(people.count(people.cmp("address", .equal, .null)) == 2)
        #expect(people.count(people.cmp("dogs.color", .equal, .string("brown"))) == 4)
        let dogs = Harness(store: people.store, className: "Dog")
        #expect(dogs.count(dogs.cmp("citiesVisited", .equal, .string("Chicago"))) == 8)
        #expect(dogs.count(dogs.cmp("owners.name", .equal, .string("Ben"))) == 3)
    }

    @Test("@links.Class.property reaches the objects linking here, once per link")
    func backlinks() throws {
        let h = try Harness(fixture: "backlinks", className: "Items")
        #expect(h.count(h.cmp("@links.Person.items.account_balance", .greater, .double(20))) == 2)
        #expect(h.count(h.cmp("@links.Person.fav item.account_balance", .greater, .double(20))) == 1)
        #expect(h.count(h.cmp("@links.Person.items.name", .like, .string("j*"), [.caseInsensitive])) == 3)
        #expect(h.count(h.cmp(h.operand(.count(h.path("@links.Person.items"))), .greater, h.const(.int(2)))) == 2)
        #expect(h.count(h.cmp(h.operand(.count(h.path("purchasers"))), .greater, h.const(.int(2)))) == 2)
        let policy = try Harness(fixture: "backlinks", className: "class_with_policy")
        #expect(policy.count(policy.cmp("parents.pascal_case", .equal, .int(3))) == 1)
    }

    @Test("[n], [FIRST] and [LAST] pick one element per owner; out of range reaches nothing")
    func positional() throws {
        let h = try Harness(fixture: "operator_in", className: "Person")
        #expect(h.count(h.cmp("items[0].name", .equal, .string("milk"))) == 2)
        #expect(h.count(h.cmp("items[FIRST].name", .equal, .string("pizza"))) == 1)
        #expect(h.count(h.cmp("items[LAST].name", .equal, .string("cereal"))) == 2)
        #expect(h.count(h.cmp("items[10].price", .equal, .null)) == 0)
        #expect(h.count(h.cmp("items[10].price", .notEqual, .null)) == 0)
        #expect(h.count(h.cmp("items[9].name", .equal, .string("milk"))) == 1)
    }

    @Test("Dictionaries of links: @values reach the objects; a null value contributes nothing")
    func dictionaryOfLinks() throws {
        let h = try Harness(fixture: "dictionary_of_links", className: "person")
        #expect(h.count(h.cmp("pets.@values.age", .greater, .int(4))) == 2)
        let pluto = BoundOperand(.object(className: "dog", primaryKey: .string("pluto")), isMultiValued: false)
        #expect(h.count(h.cmp(h.operand("pets.@values"), .equal, pluto)) == 2)
        #expect(h.count(h.cmp(h.operand("pets.@values"), .notEqual, pluto)) == 2)
        let list = BoundOperand(
            .list([.object(className: "dog", primaryKey: .string("astro")), .constant(.null)]),
            quantifier: .any,
            isMultiValued: true
        )
        #expect(h.count(h.cmp(h.operand("pets.@values"), .equal, list)) == 2)
        #expect(h.count(h.cmp("friend.pets.@values.age", .greater, .int(4))) == 1)
        #expect(h.count(h.cmp("pets['dog2'].age", .equal, .int(5))) == 1)
    }

    @Test("A missing dictionary key is NULL; @keys lists the keys")
    func dictionaryKeys() throws {
        let h = Harness(store: try DemoDataset.load(), className: "Dog")
        #expect(h.count(h.cmp("favoriteParksByCity['Chicago']", .equal, .string("Millennium Park"))) == 2)
        let missing = h.count(h.cmp("favoriteParksByCity['Chicago']", .equal, .null))
        #expect(missing == 20 - 4)
        #expect(h.count(h.cmp("favoriteParksByCity.@keys", .equal, .string("Detroit"))) == 1)
        #expect(h.count(h.cmp("favoriteParksByCity", .beginsWith, .string("Griffith"))) == 1)
    }

    @Test("Nested mixed values: properties['one'], properties.three[1].Hello, a mixed link followed on")
    func nestedMixed() throws {
        let h = try Harness(fixture: "nested_mixed_deep", className: "table")
        let properties = h.path("properties")
        func p(_ steps: [PathStep]) -> BoundOperand {
            h.operand(
                .path(
                    BoundPath(
                        steps: properties.steps + steps,
                        isMultiValued: false,
                        rootClassName: "table",
                        valueType: .mixed
                    )
                )
            )
        }
        #expect(h.count(h.cmp(p([.index(0)]), .equal, h.const(.int(1)))) == 0)
        #expect(h.count(h.cmp(p([.key("one")]), .equal, h.const(.int(1)))) == 1)
        #expect(h.count(h.cmp(p([.key("two"), .index(1), .key("Hello")]), .equal, h.const(.int(5)))) == 0)
        #expect(h.count(h.cmp(p([.key("three"), .index(0), .key("Hello")]), .equal, h.const(.int(5)))) == 0)
        #expect(h.count(h.cmp(p([.key("three"), .index(1), .key("Hello")]), .equal, h.const(.int(5)))) == 1)
        let name = PathStep.property(className: "table", index: 0, name: "name")
        #expect(
            h.count(h.cmp(p([.key("three"), .index(1), .key("friend"), name]), .equal, h.const(.string("John")))) == 1
        )
    }

    @Test("[*] flattens mixed lists and dictionaries: ANY value[*][*] == dict[*][*] is 3")
    func wildcards() throws {
        let h = try Harness(fixture: "wildcards", className: "table")
        let value = h.operand("value[*][*]", .any)
        #expect(h.count(h.cmp(value, .equal, h.operand("dict[*][*]", .any))) == 3)
        #expect(h.count(h.cmp(h.operand("list_any[*]", .any), .equal, h.const(.int(4)))) == 1)
        let origin = try Harness(fixture: "wildcards", className: "origin")
        #expect(origin.count(origin.cmp("link.list_any[2][1]", .equal, .int(9))) == 1)
        #expect(origin.count(origin.cmp("link.list_any[0]", .equal, .int(4))) == 1)
        #expect(origin.count(origin.cmp("link.dict.@keys", .equal, .string("key4"))) == 1)
        let keys = origin.list(Value.strings("key4", "key3", "key1"))
        #expect(origin.count(origin.cmp(origin.operand("link.dict.@keys", .all), .equal, keys)) == 1)
        #expect(origin.count(origin.cmp(origin.operand("link.list"), .equal, origin.list(Value.ints(4, 5, 6)))) == 1)
        #expect(origin.count(origin.cmp(origin.operand("link.dict.key1"), .equal, origin.list(Value.ints(1)))) == 1)
        #expect(origin.count(origin.cmp(origin.operand("link.dict.key1"), .equal, origin.list(Value.ints(1, 3)))) == 0)
    }

    @Test("Nested [*] groups per inner list: value[*][*] == {3, 2, 1} is 1; ALL / NONE against dict[*][*] are 2 / 3")
    func nestedWildcardGroups() throws {
        let h = try Harness(fixture: "wildcards", className: "table")
        #expect(h.count(h.cmp(h.operand("value[*][*]"), .equal, h.list(Value.ints(3, 2, 1)))) == 1)
        #expect(h.count(h.cmp(h.list(Value.ints(3, 2, 1)), .equal, h.operand("value[*][*]"))) == 1)
        #expect(h.count(h.cmp(h.operand("value[*][*]"), .equal, h.list(Value.ints(1, 2, 3, 4, 5, 6)))) == 0)
        #expect(h.count(h.cmp(h.operand("value[*][*]"), .equal, h.operand("dict[*][*]"))) == 1)
        #expect(h.count(h.cmp(h.operand("value[*][*]", .all), .equal, h.operand("dict[*][*]"))) == 2)
        #expect(h.count(h.cmp(h.operand("value[*][*]", Quantifier.none), .equal, h.operand("dict[*][*]"))) == 3)
    }
}
