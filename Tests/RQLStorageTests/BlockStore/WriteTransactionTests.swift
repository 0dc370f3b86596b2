import Foundation
import RQLCore
import Testing

@testable import RQLStorage

@Suite("Write transactions: operations")
struct WriteTransactionTests {
    let store: BlockStore
    let t: WriteTransaction
    let rex: ObjectLink
    let fido: ObjectLink
    let ann: ObjectLink

    init() throws {
        store = try Fixtures.store()
        t = store.beginWrite()
        rex = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Rex"), "age": .int(3)]))
        fido = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Fido"), "age": .int(5)]))
        ann = Fixtures.link("Person", try t.insert("Person", ["id": .int(1), "name": .string("Ann")]))
    }

    func value(_ object: ObjectLink, _ property: String) -> Value {
        let table = t.reader.table(named: object.className)!
        return table.value(
            at: table.position(of: object.key)!,
            property: table.objectSchema.propertyIndex(named: property)!
        )
    }

    func count(_ className: String) -> Int { t.reader.table(named: className)!.rowCount }

    @Test("insert assigns increasing keys and fills missing properties with their defaults")
    func insertDefaults() throws {
        #expect(rex.key == RowKey(0) && fido.key == RowKey(1) && ann.key == RowKey(0))
        #expect(value(ann, "age") == .null)
        #expect(value(ann, "score") == .double(0))
        #expect(value(ann, "tags") == .list([]))
        #expect(value(ann, "attrs") == .map(MixedMap()))
        #expect(value(ann, "address") == .null)
        #expect(value(rex, "toy") == .null)
    }

    @Test("set writes one property; a collection property takes its whole content")
    func setProperty() throws {
        try t.set("age", of: ann, to: .int(40))
        try t.set("tags", of: ann, to: .list([.string("x"), .string("y")]))
        try t.set("nums", of: ann, to: .list([.int(9), .int(2), .int(9)]))
        try t.set("best", of: ann, to: .link(rex))
        #expect(value(ann, "age") == .int(40))
        #expect(value(ann, "tags") == .list([.string("x"), .string("y")]))
        #expect(value(ann, "nums") == .list([.int(2), .int(9)]))
        #expect(value(ann, "best") == .link(rex))
        try t.set("best", of: ann, to: .null)
        #expect(value(ann, "best") == .null)
        // Setting the primary key to its own value is allowed.
        try t.set("id", of: ann, to: .int(1))
    }

    @Test("an embedded property is set from values; the old embedded object is deleted")
    func embeddedReplacement() throws {
        try t.set("address", of: ann, to: .map(MixedMap(["street": .string("Main")])))
        #expect(count("Address") == 1)
        guard case .link(let first) = value(ann, "address") else {
            Issue.record("no address")
            return
        }
        try t.set("address", of: ann, to: .map(MixedMap(["street": .string("Second")])))
        #expect(count("Address") == 1)
        guard case .link(let second) = value(ann, "address") else {
            Issue.record("no address")
            return
        }
        #expect(first != second)
        #expect(value(second, "street") == .string("Second"))
        try t.set("address", of: ann, to: .null)
        #expect(count("Address") == 0)
    }

    @Test("list append, insert, remove, move, replace and removeAll")
    func listOperations() throws {
        let tags = "tags"
        for s in ["a", "b", "c"] { try t.append(.string(s), to: tags, of: ann) }
        try t.insert(.string("z"), at: 0, into: tags, of: ann)
        #expect(value(ann, tags) == .list(Value.strings("z", "a", "b", "c")))
        try t.insert(.string("end"), at: 4, into: tags, of: ann)
        try t.remove(at: 1, from: tags, of: ann)
        #expect(value(ann, tags) == .list(Value.strings("z", "b", "c", "end")))
        try t.move(from: 0, to: 3, in: tags, of: ann)
        #expect(value(ann, tags) == .list(Value.strings("b", "c", "end", "z")))
        try t.move(from: 3, to: 1, in: tags, of: ann)
        #expect(value(ann, tags) == .list(Value.strings("b", "z", "c", "end")))
        try t.replace(at: 2, with: .string("C"), in: tags, of: ann)
        #expect(value(ann, tags) == .list(Value.strings("b", "z", "C", "end")))
        try t.removeAll(from: tags, of: ann)
        #expect(value(ann, tags) == .list([]))
    }

    @Test("link lists keep duplicates and maintain backlinks element by element")
    func linkLists() throws {
        try t.append(.link(rex), to: "dogs", of: ann)
        try t.append(.link(fido), to: "dogs", of: ann)
        try t.append(.link(rex), to: "dogs", of: ann)
        let dogs = t.reader.table(named: "Dog")!
        #expect(dogs.backlinks(at: 0, fromClass: "Person", property: "dogs") == [ann.key, ann.key])
        try t.remove(at: 0, from: "dogs", of: ann)
        let after = t.reader.table(named: "Dog")!
        #expect(after.backlinks(at: 0, fromClass: "Person", property: "dogs") == [ann.key])
        #expect(after.backlinkCount(at: 1) == 1)
        // The reader taken before the removal still shows two links.
        #expect(dogs.backlinkCount(at: 0) == 2)
    }

    @Test("embedded list elements are created from values; removing or replacing one deletes it")
    func embeddedLists() throws {
        for street in ["A", "B", "C"] {
            try t.append(.map(MixedMap(["street": .string(street)])), to: "addresses", of: ann)
        }
        #expect(count("Address") == 3)
        try t.remove(at: 1, from: "addresses", of: ann)
        #expect(count("Address") == 2)
        try t.replace(at: 0, with: .map(MixedMap(["street": .string("Z")])), in: "addresses", of: ann)
        #expect(count("Address") == 2)
        guard case .list(let links) = value(ann, "addresses"), links.count == 2,
            case .link(let first) = links[0], case .link(let second) = links[1]
        else {
            Issue.record("unexpected addresses")
            return
        }
        #expect(value(first, "street") == .string("Z"))
        #expect(value(second, "street") == .string("C"))
        try t.removeAll(from: "addresses", of: ann)
        #expect(count("Address") == 0)
        #expect(value(ann, "addresses") == .list([]))
    }

    @Test("set insert and remove keep Realm's value order and report whether anything changed")
    func setOperations() throws {
        #expect(try t.insert(.int(5), intoSet: "nums", of: ann))
        #expect(try t.insert(.int(1), intoSet: "nums", of: ann))
        #expect(try !t.insert(.int(5), intoSet: "nums", of: ann))
        #expect(try t.insert(.int(3), intoSet: "nums", of: ann))
        #expect(value(ann, "nums") == .list(Value.ints(1, 3, 5)))
        #expect(try t.remove(.int(3), fromSet: "nums", of: ann))
        #expect(try !t.remove(.int(4), fromSet: "nums", of: ann))
        #expect(value(ann, "nums") == .list(Value.ints(1, 5)))
    }

    @Test("map set and remove keep key order; embedded map values are created and deleted")
    func mapOperations() throws {
        try t.setValue(.string("2"), forKey: "b", inMap: "attrs", of: ann)
        try t.setValue(.string("1"), forKey: "a", inMap: "attrs", of: ann)
        try t.setValue(.null, forKey: "c", inMap: "attrs", of: ann)
        try t.setValue(.string("one"), forKey: "a", inMap: "attrs", of: ann)
        #expect(value(ann, "attrs") == .map(MixedMap(["a": .string("one"), "b": .string("2"), "c": .null])))
        #expect(try t.removeValue(forKey: "b", fromMap: "attrs", of: ann))
        #expect(try !t.removeValue(forKey: "b", fromMap: "attrs", of: ann))
        #expect(value(ann, "attrs") == .map(MixedMap(["a": .string("one"), "c": .null])))
        try t.setValue(.map(MixedMap(["street": .string("H")])), forKey: "home", inMap: "places", of: ann)
        try t.setValue(.map(MixedMap(["street": .string("W")])), forKey: "work", inMap: "places", of: ann)
        #expect(count("Address") == 2)
        try t.setValue(.map(MixedMap(["street": .string("H2")])), forKey: "home", inMap: "places", of: ann)
        #expect(count("Address") == 2)
        #expect(try t.removeValue(forKey: "work", fromMap: "places", of: ann))
        #expect(count("Address") == 1)
        try t.setValue(.null, forKey: "home", inMap: "places", of: ann)
        #expect(count("Address") == 0)
        #expect(value(ann, "places") == .map(MixedMap(["home": .null])))
    }

    @Test("delete: embedded objects go, to-one links and map values become null, list and set elements go")
    func deleteCascade() throws {
        let ben = Fixtures.link(
            "Person",
            try t.insert(
                "Person",
                [
                    "id": .int(2), "dogs": .list([.link(rex), .link(fido), .link(rex)]), "best": .link(rex),
                    "anything": .list([.link(rex), .int(1)]), "mixes": .list([.link(rex), .string("s")]),
                    "address": .map(MixedMap(["street": .string("S")])),
                    "addresses": .list([.map(MixedMap(["street": .string("T")]))]),
                ]
            )
        )
        try t.set("toy", of: fido, to: .map(MixedMap(["friend": .link(rex)])))
        #expect(count("Address") == 2)
        try t.delete(rex)
        #expect(value(ben, "dogs") == .list([.link(fido)]))
        #expect(value(ben, "best") == .null)
        #expect(value(ben, "anything") == .list([.null, .int(1)]))
        #expect(value(ben, "mixes") == .list([.null, .string("s")]))
        #expect(value(fido, "toy") == .map(MixedMap(["friend": .null])))
        try t.delete(ben)
        #expect(count("Address") == 0)
        #expect(count("Person") == 1)
        #expect(t.reader.table(named: "Dog")!.backlinkCount(at: 0) == 0)
        for objectSchema in t.schema.classes { Fixtures.checkViews(t.reader.table(named: objectSchema.name)!) }
    }

    @Test("deleting an embedded object removes it from its owner")
    func deleteEmbedded() throws {
        try t.append(.map(MixedMap(["street": .string("A")])), to: "addresses", of: ann)
        try t.append(.map(MixedMap(["street": .string("B")])), to: "addresses", of: ann)
        guard case .list(let links) = value(ann, "addresses"), case .link(let first) = links[0] else {
            Issue.record("no addresses")
            return
        }
        try t.delete(first)
        guard case .list(let rest) = value(ann, "addresses"), rest.count == 1, case .link(let remaining) = rest[0]
        else {
            Issue.record("unexpected addresses")
            return
        }
        #expect(value(remaining, "street") == .string("B"))
    }

    @Test("commit reports inserted, deleted and modified objects and the properties written")
    func changeSets() throws {
        var result = try t.commit()
        #expect(result.changes.version == 1)
        #expect(result.changes.classes["Dog"]?.inserted == [RowKey(0), RowKey(1)])
        #expect(result.changes.classes["Person"]?.inserted == [RowKey(0)])
        #expect(result.changes.classes["Person"]?.modified.isEmpty == true)
        let next = store.beginWrite()
        try next.set("age", of: rex, to: .int(4))
        try next.append(.link(rex), to: "dogs", of: ann)
        try next.set("best", of: ann, to: .link(fido))
        let temporary = Fixtures.link("Dog", try next.insert("Dog", ["name": .string("Tmp")]))
        try next.set("age", of: temporary, to: .int(1))
        try next.delete(temporary)
        try next.delete(fido)
        result = try next.commit()
        let dogs = try #require(result.changes.classes["Dog"])
        #expect(dogs.inserted.isEmpty)
        #expect(dogs.deleted == [fido.key])
        #expect(dogs.modified == [rex.key: ["age"]])
        // Ann's best became null when Fido went: still one modification of "best".
        #expect(result.changes.classes["Person"]?.modified == [ann.key: ["dogs", "best"]])
        #expect(result.changes.version == 2)
        #expect(!result.changes.schemaChanged)
    }
}

@Suite("Write transactions: every operation validates first and names what is wrong")
struct WriteErrorTests {
    /// Runs `operation` on a transaction holding one Dog and one Person and checks that it throws
    /// `expected` and leaves the transaction's content exactly as it was.
    func refuses(_ expected: WriteError, _ operation: (WriteTransaction, ObjectLink, ObjectLink) throws -> Void) throws
    {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        let rex = Fixtures.link("Dog", try t.insert("Dog", ["name": .string("Rex")]))
        let ann = Fixtures.link(
            "Person",
            try t.insert(
                "Person",
                ["id": .int(1), "dogs": .list([.link(rex)]), "address": .map(MixedMap(["street": .string("S")]))]
            )
        )
        let before = Fixtures.dump(t.reader)
        let writes = t.writeCount
        #expect(throws: expected) { try operation(t, ann, rex) }
        #expect(Fixtures.dump(t.reader) == before)
        #expect(t.writeCount == writes)
        #expect(!expected.description.isEmpty)
    }

    @Test func unknownClass() throws {
        try refuses(.unknownClass("Cat")) { t, _, _ in try t.insert("Cat", [:]) }
    }

    @Test func embeddedClassInsert() throws {
        try refuses(.embeddedClass("Address")) { t, _, _ in try t.insert("Address", [:]) }
    }

    @Test func unknownObject() throws {
        try refuses(.unknownObject(className: "Dog", key: RowKey(9))) { t, _, _ in
            try t.set("age", of: Fixtures.link("Dog", RowKey(9)), to: .int(1))
        }
    }

    @Test func unknownProperty() throws {
        try refuses(.unknownProperty(className: "Person", property: "agee")) { t, _, _ in
            try t.insert("Person", ["id": .int(2), "agee": .int(3)])
        }
    }

    @Test func computedProperty() throws {
        try refuses(.computedProperty(className: "Dog", property: "owners")) { t, _, rex in
            try t.set("owners", of: rex, to: .list([]))
        }
    }

    @Test func typeMismatch() throws {
        try refuses(
            .typeMismatch(className: "Person", property: "age", key: RowKey(0), expected: "int?", found: "string")
        ) {
            t,
            ann,
            _ in try t.set("age", of: ann, to: .string("old"))
        }
    }

    @Test func typeMismatchInElement() throws {
        try refuses(
            .typeMismatch(className: "Person", property: "tags", key: RowKey(0), expected: "list<string>", found: "int")
        ) {
            t,
            ann,
            _ in try t.append(.int(1), to: "tags", of: ann)
        }
    }

    @Test func nullNotAllowed() throws {
        try refuses(.nullNotAllowed(className: "Person", property: "name", key: nil)) { t, _, _ in
            try t.insert("Person", ["id": .int(2), "name": .null])
        }
    }

    @Test func nullInLinkList() throws {
        try refuses(.nullNotAllowed(className: "Person", property: "dogs", key: RowKey(0))) { t, ann, _ in
            try t.append(.null, to: "dogs", of: ann)
        }
    }

    @Test func duplicatePrimaryKey() throws {
        try refuses(.duplicatePrimaryKey(className: "Person", property: "id", key: nil, value: .int(1))) { t, _, _ in
            try t.insert("Person", ["id": .int(1)])
        }
    }

    @Test func primaryKeyChange() throws {
        try refuses(.primaryKeyChanged(className: "Person", property: "id", key: RowKey(0))) { t, ann, _ in
            try t.set("id", of: ann, to: .int(2))
        }
    }

    @Test func danglingLink() throws {
        let missing = Fixtures.link("Dog", RowKey(5))
        try refuses(.danglingLink(className: "Person", property: "best", key: RowKey(0), target: missing)) {
            t,
            ann,
            _ in
            try t.set("best", of: ann, to: .link(missing))
        }
    }

    @Test func danglingLinkInMixed() throws {
        let missing = Fixtures.link("Dog", RowKey(5))
        try refuses(.danglingLink(className: "Person", property: "anything", key: RowKey(0), target: missing)) {
            t,
            ann,
            _ in
            try t.set("anything", of: ann, to: .map(MixedMap(["a": .list([.link(missing)])])))
        }
    }

    @Test func linkToWrongClass() throws {
        try refuses(
            .typeMismatch(className: "Person", property: "best", key: RowKey(0), expected: "Dog?", found: "link")
        ) { t, ann, _ in
            try t.set("best", of: ann, to: .link(ann))
        }
    }

    @Test func embeddedObjectHasOneOwner() throws {
        let address = Fixtures.link("Address", RowKey(0))
        try refuses(.linkToEmbeddedObject(className: "Person", property: "anything", key: RowKey(0), target: address)) {
            t,
            ann,
            _ in try t.set("anything", of: ann, to: .link(address))
        }
        try refuses(.linkToEmbeddedObject(className: "Person", property: "address", key: RowKey(0), target: address)) {
            t,
            ann,
            _ in try t.set("address", of: ann, to: .link(address))
        }
    }

    @Test func wrongCollection() throws {
        try refuses(.wrongCollection(className: "Person", property: "nums", expected: .list)) { t, ann, _ in
            try t.append(.int(1), to: "nums", of: ann)
        }
        try refuses(.wrongCollection(className: "Person", property: "tags", expected: .set)) { t, ann, _ in
            try t.insert(.string("x"), intoSet: "tags", of: ann)
        }
    }

    @Test func indexOutOfRange() throws {
        try refuses(.indexOutOfRange(className: "Person", property: "dogs", key: RowKey(0), index: 1, count: 1)) {
            t,
            ann,
            _ in try t.remove(at: 1, from: "dogs", of: ann)
        }
        try refuses(.indexOutOfRange(className: "Person", property: "dogs", key: RowKey(0), index: 2, count: 1)) {
            t,
            ann,
            rex in try t.insert(.link(rex), at: 2, into: "dogs", of: ann)
        }
    }

    @Test func invalidMapKey() throws {
        try refuses(.invalidMapKey(className: "Person", property: "attrs", key: RowKey(0), mapKey: "a.b")) {
            t,
            ann,
            _ in
            try t.setValue(.string("x"), forKey: "a.b", inMap: "attrs", of: ann)
        }
        try refuses(.invalidMapKey(className: "Person", property: "attrs", key: nil, mapKey: "$x")) { t, _, _ in
            try t.insert("Person", ["id": .int(3), "attrs": .map(MixedMap(["$x": .null]))])
        }
    }

    @Test func invalidEmbeddedValues() throws {
        try refuses(.unknownProperty(className: "Address", property: "zip")) { t, ann, _ in
            try t.set("address", of: ann, to: .map(MixedMap(["zip": .string("1")])))
        }
    }

    @Test func schemaErrors() throws {
        try refuses(.classExists("Dog")) { t, _, _ in try t.addClass(ObjectSchema(name: "Dog", properties: [])) }
        try refuses(.propertyExists(className: "Dog", property: "age")) { t, _, _ in
            try t.addProperty(Property(name: "age", type: .int), to: "Dog")
        }
        // Doubles are indexable here (the optimizer's sorted index); a list never is.
        try refuses(.schema(.invalidIndexType(className: "Person", property: "dogs", type: "list<Dog>"))) { t, _, _ in
            try t.addIndex(.hash, on: "dogs", of: "Person")
        }
        try refuses(.schema(.unknownBacklinkOrigin(className: "Dog", property: "owners", origin: "Person.dogs"))) {
            t,
            _,
            _ in
            try t.removeProperty("dogs", from: "Person")
        }
        try refuses(.schema(.unknownClass(className: "Person", property: "dogs", target: "Dog"))) { t, _, _ in
            try t.removeClass("Dog")
        }
    }

    @Test func endedTransaction() throws {
        let store = try Fixtures.store()
        let t = store.beginWrite()
        _ = try t.commit()
        #expect(throws: WriteError.transactionEnded) { try t.insert("Dog", [:]) }
        #expect(throws: WriteError.transactionEnded) { try t.commit() }
    }
}

extension Value {
    static func strings(_ values: String...) -> [Value] { values.map { .string($0) } }
    static func ints(_ values: Int64...) -> [Value] { values.map { .int($0) } }
}
