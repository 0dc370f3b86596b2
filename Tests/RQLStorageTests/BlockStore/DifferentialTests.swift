import Foundation
import RQLCore
import RQLEngine
import Testing

@testable import RQLStorage

/// Seeded random transactions (inserts, updates, collection mutations, deletes with cascades,
/// schema changes, some rolled back) applied to the block store and to `DifferentialModel`;
/// after every commit
/// the two must hold the same objects, the reference evaluator must give the same results over
/// both, indexes must answer like the model's `BlockSnapshot`, the change set must name what
/// changed, and every older snapshot must still read as it did.
@Suite("Block store: differential test against a plain model")
struct DifferentialTests {
    static let queries: [(String, String)] = [
        ("Person", "age > 30"), ("Person", "age == nil"), ("Person", "name BEGINSWITH 'a'"),
        ("Person", "name == 'bob'"),
        ("Person", "score >= 0.5"), ("Person", "ANY tags == 'x'"), ("Person", "tags.@count > 1"),
        ("Person", "nums.@count == 0"), ("Person", "ANY nums > 5"), ("Person", "attrs['k1'] == 'v'"),
        ("Person", "attrs.@count > 0"), ("Person", "ANY dogs.age > 3"), ("Person", "ANY dogs.years > 3"),
        ("Person", "dogs.@count > 1"), ("Person", "best.name == 'rex'"), ("Person", "best == nil"),
        ("Person", "address.city == 'oslo'"), ("Person", "ANY addresses.street BEGINSWITH 's'"),
        ("Person", "places.@count > 0"), ("Person", "ANY places.@values.street == 'h'"), ("Person", "anything == 3"),
        ("Person", "anything.@type == 'string'"), ("Person", "mixes.@count > 1"), ("Person", "bio TEXT 'apple'"),
        ("Person", "age > 10 SORT(age DESC, id ASC) LIMIT(5)"), ("Person", "ANY dogs.weight > 1"),
        ("Dog", "age > 3"), ("Dog", "years > 3"), ("Dog", "@links.@count > 0"), ("Dog", "owners.@count > 1"),
        ("Dog", "ANY owners.name == 'ann'"), ("Dog", "toy == 'ball'"), ("Dog", "weight == 1.5"),
        ("Dog", "SUBQUERY(owners, $p, $p.age > 20).@count > 0"), ("Dog", "name CONTAINS[c] 'E' SORT(name ASC)"),
        ("Address", "city == nil"), ("Address", "street CONTAINS 'a'"), ("Address", "@links.@count == 1"),
        ("Address", "ANY tags == 'x'"), ("Cat", "friend.age > 2"), ("Cat", "@links.@count > 0"),
    ]

    @Test("random transactions agree with the model", arguments: [1, 2, 3, 4] as [UInt64])
    func randomTransactions(seed: UInt64) throws {
        var run = try Run(seed: seed)
        for _ in 0..<30 { try run.transaction() }
        for (snapshot, dump) in run.history { #expect(Fixtures.dump(snapshot) == dump) }
        #expect(run.boundQueries > 0)
    }

    struct Run {
        var random: SplitMix
        let store: BlockStore
        var model: DifferentialModel
        var history: [(BlockSnapshot, [String: [RowKey: [Value]]])] = []
        var nextID: Int64 = 0
        var boundQueries = 0

        /// `makeStore` makes the empty store of the schema to run against (in memory by default).
        init(seed: UInt64, makeStore: (Schema) throws -> BlockStore = { BlockStore(schema: $0) }) throws {
            random = SplitMix(seed: seed)
            let schema = try Fixtures.schema()
            store = try makeStore(schema)
            model = DifferentialModel(schema: schema)
        }

        mutating func transaction() throws {
            let t = store.beginWrite()
            let before = model
            var schemaChanged = false
            for _ in 0..<(1 + random.next(12)) { schemaChanged = try operation(t) || schemaChanged }
            if chance(6) {
                // Rolled back: the store keeps the last commit (appends past its watermark are
                // dropped and must not show up in the next transaction).
                t.rollback()
                model = before
                #expect(Fixtures.dump(store.snapshot) == model.dump)
                return
            }
            let result = try t.commit()
            try check(result, before: before, schemaChanged: schemaChanged)
        }

        // MARK: Random values

        mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[random.next(items.count)] }
        mutating func chance(_ n: Int) -> Bool { random.next(n) == 0 }
        mutating func string() -> Value {
            .string(pick(["a", "ab", "bob", "Ann", "x", "café", "", "s1", "street", "Eve", "oslo", "h"])!)
        }
        mutating func dogLink() -> Value { pick(model.objects("Dog")).map { .link($0) } ?? .null }
        mutating func mixed(depth: Int = 0) -> Value {
            switch random.next(depth > 0 ? 6 : 8) {
            case 0: return .int(Int64(random.next(6)))
            case 1: return string()
            case 2: return .double(Double(random.next(8)) / 2)
            case 3: return .bool(chance(2))
            case 4: return .null
            case 5:
                let cats = model.schema["Cat"] != nil ? model.objects("Cat") : []
                return pick(model.objects("Dog") + cats).map { .link($0) } ?? .null
            case 6: return .list((0..<random.next(3)).map { _ in mixed(depth: depth + 1) })
            default: return .map(MixedMap((0..<random.next(3)).map { ("k\($0)", mixed(depth: depth + 1)) }))
            }
        }
        mutating func address() -> Value {
            var values: [(String, Value)] = [("street", string())]
            if chance(2) { values.append(("city", chance(3) ? .null : string())) }
            if chance(3) { values.append(("tags", .list([string(), string()]))) }
            return .map(MixedMap(values))
        }
        mutating func personValues() -> [String: Value] {
            nextID += 1
            var values: [String: Value] = ["id": .int(nextID * 3 % 1000 + nextID / 1000)]
            let generators: [(String, (inout Run) -> Value)] = [
                ("name", { $0.string() }), ("age", { $0.chance(4) ? .null : .int(Int64($0.random.next(60))) }),
                ("score", { .double(Double($0.random.next(10)) / 10) }),
                ("bio", { $0.chance(3) ? .null : .string($0.pick(["apple pie", "Apple", "banana split", "x"])!) }),
                ("tags", { r in .list((0..<r.random.next(4)).map { _ in r.string() }) }),
                ("nums", { r in .list((0..<r.random.next(4)).map { _ in .int(Int64(r.random.next(9))) }) }),
                (
                    "attrs",
                    { r in .map(MixedMap((0..<r.random.next(3)).map { ("k\($0)", r.chance(3) ? .null : r.string()) })) }
                ),
                ("dogs", { r in .list((0..<r.random.next(4)).map { _ in r.dogLink() }.filter { !$0.isNull }) }),
                ("best", { $0.dogLink() }), ("anything", { $0.mixed() }),
                ("address", { $0.chance(3) ? .null : $0.address() }),
                ("addresses", { r in .list((0..<r.random.next(3)).map { _ in r.address() }) }),
                (
                    "places",
                    { r in .map(MixedMap((0..<r.random.next(3)).map { ("p\($0)", r.chance(3) ? .null : r.address()) }))
                    }
                ),
                ("blob", { $0.chance(2) ? .null : .data([UInt8($0.random.next(256))]) }),
                ("mixes", { r in .list((0..<r.random.next(3)).map { _ in r.mixed() }) }),
            ]
            for (name, make) in generators where chance(2) { values[name] = make(&self) }
            return values
        }

        var dogAge: String { model.schema["Dog"]!.property(named: "age") != nil ? "age" : "years" }

        // MARK: Operations

        /// One random operation on both sides; returns whether it changed the schema.
        mutating func operation(_ t: WriteTransaction) throws -> Bool {
            let person = pick(model.objects("Person"))
            let dog = pick(model.objects("Dog"))
            switch random.next(20) {
            case 0, 1, 2:
                let values = personValues()
                let key = try t.insert("Person", values)
                #expect(model.insert("Person", values).key == key)
            case 3, 4:
                let values: [String: Value] = ["name": string(), "age": .int(Int64(random.next(9))), "toy": mixed()]
                var given = values
                given[dogAge] = given.removeValue(forKey: "age")
                let key = try t.insert("Dog", given)
                #expect(model.insert("Dog", given).key == key)
            case 5, 6:
                guard let person else { return false }
                let values = personValues()
                guard let (name, value) = pick(values.filter { $0.key != "id" }.sorted { $0.key < $1.key }) else {
                    return false
                }
                try t.set(name, of: person, to: value)
                model.set(person, name, value)
            case 7:
                guard let dog else { return false }
                let value = Value.int(Int64(random.next(9)))
                try t.set(dogAge, of: dog, to: value)
                model.set(dog, dogAge, value)
            case 8, 9:
                guard let person, let name = pick(["tags", "dogs", "addresses"]) else { return false }
                guard case .list(let items) = model.value(person, name) else { return false }
                let element = name == "tags" ? string() : name == "dogs" ? dogLink() : address()
                if element.isNull { return false }
                switch random.next(5) {
                case 0:
                    let index = random.next(items.count + 1)
                    try t.insert(element, at: index, into: name, of: person)
                    model.listInsert(person, name, element, at: index)
                case 1 where !items.isEmpty:
                    let index = random.next(items.count)
                    try t.remove(at: index, from: name, of: person)
                    model.listRemove(person, name, at: index)
                case 2 where !items.isEmpty:
                    let (from, to) = (random.next(items.count), random.next(items.count))
                    try t.move(from: from, to: to, in: name, of: person)
                    model.listMove(person, name, from: from, to: to)
                case 3 where !items.isEmpty:
                    let index = random.next(items.count)
                    try t.replace(at: index, with: element, in: name, of: person)
                    model.listReplace(person, name, at: index, with: element)
                case 4 where chance(3):
                    try t.removeAll(from: name, of: person)
                    model.removeAll(person, name)
                default:
                    try t.append(element, to: name, of: person)
                    model.listInsert(person, name, element, at: items.count)
                }
            case 10:
                guard let person else { return false }
                let value = Value.int(Int64(random.next(9)))
                if chance(2) {
                    _ = try t.insert(value, intoSet: "nums", of: person)
                    model.setInsert(person, "nums", value)
                } else {
                    _ = try t.remove(value, fromSet: "nums", of: person)
                    model.setRemove(person, "nums", value)
                }
            case 11, 12:
                guard let person else { return false }
                let embedded = chance(2)
                let name = embedded ? "places" : "attrs"
                let key = "\(embedded ? "p" : "k")\(random.next(4))"
                if chance(3) {
                    _ = try t.removeValue(forKey: key, fromMap: name, of: person)
                    model.mapRemove(person, name, key: key)
                } else {
                    let value = embedded ? (chance(4) ? .null : address()) : (chance(4) ? .null : string())
                    try t.setValue(value, forKey: key, inMap: name, of: person)
                    model.mapSet(person, name, key: key, value)
                }
            case 13, 14:
                let candidates = model.objects("Person") + model.objects("Dog") + model.objects("Address")
                guard let victim = pick(candidates) else { return false }
                try t.delete(victim)
                model.delete([victim])
            case 15:
                guard let person else { return false }
                let value = mixed()
                try t.set("anything", of: person, to: value)
                model.set(person, "anything", value)
            default:
                return try schemaChange(t)
            }
            return false
        }

        mutating func schemaChange(_ t: WriteTransaction) throws -> Bool {
            switch random.next(4) {
            case 0:
                if let index = model.schema["Dog"]!.propertyIndex(named: "weight") {
                    try t.removeProperty("weight", from: "Dog")
                    model.adopt(t.schema, removed: ("Dog", index))
                } else {
                    try t.addProperty(Property(name: "weight", type: .double), to: "Dog", defaultValue: .double(1.5))
                    model.adopt(t.schema, added: ("Dog", .double(1.5)))
                }
            case 1:
                try t.renameProperty(dogAge, to: dogAge == "age" ? "years" : "age", in: "Dog")
                model.adopt(t.schema)
            case 2:
                if model.schema["Dog"]!.property(named: dogAge)!.isIndexed {
                    try t.removeIndex(.hash, from: dogAge, of: "Dog")
                } else {
                    try t.addIndex(.hash, on: dogAge, of: "Dog")
                }
                model.adopt(t.schema)
            default:
                if model.schema["Cat"] == nil {
                    let cat = ObjectSchema(
                        name: "Cat",
                        properties: [
                            Property(name: "name", type: .string),
                            Property(name: "friend", type: .object("Dog"), isOptional: true),
                        ]
                    )
                    try t.addClass(cat)
                    model.adopt(t.schema)
                    for _ in 0..<2 {
                        let values: [String: Value] = ["name": string(), "friend": dogLink()]
                        let key = try t.insert("Cat", values)
                        #expect(model.insert("Cat", values).key == key)
                    }
                } else {
                    try t.removeClass("Cat")
                    model.delete(model.objects("Cat"))
                    model.adopt(t.schema)
                }
            }
            return true
        }

        // MARK: Checks

        mutating func check(_ result: CommitResult, before: DifferentialModel, schemaChanged: Bool) throws {
            let snapshot = result.snapshot
            // The reference evaluator reads values only (`value(at:)`, checked against the model
            // by the dump); the VM reads block views and indexes.
            let engine = try QueryEngine(options: EngineOptions(backend: .reference))
            let vm = try QueryEngine(options: EngineOptions(backend: .vm))
            #expect(snapshot.schema == model.schema)
            let dump = Fixtures.dump(snapshot)
            #expect(dump == model.dump)
            let incoming = model.incomingLinks
            let indexed = model.indexedPositions
            for objectSchema in snapshot.schema.classes {
                let table = try #require(snapshot.table(named: objectSchema.name))
                Fixtures.checkViews(table)
                for position in 0..<table.rowCount {
                    let object = ObjectLink(className: objectSchema.name, key: table.rowKey(at: position))
                    #expect(table.backlinkCount(at: position) == incoming[object]?.count ?? 0)
                    for p in objectSchema.properties.indices where table.hasIndex(property: p) {
                        let value = table.value(at: position, property: p)
                        // NaN equals nothing, itself included.
                        let expected =
                            NumericComparison.isNaN(value)
                            ? [] : indexed[objectSchema.name]?[p]?[EqualityKey(value)] ?? []
                        #expect(table.indexLookup(property: p, equalTo: value) == expected)
                    }
                }
            }
            for (className, text) in DifferentialTests.queries where snapshot.schema[className] != nil {
                guard let query = try? engine.compile(text, className: className, store: snapshot),
                    let compiled = try? vm.compile(text, className: className, store: snapshot)
                else {
                    continue
                }
                boundQueries += 1
                #expect(
                    vm.run(compiled, on: snapshot) == engine.run(query, on: snapshot),
                    "\(className): \(text)"
                )
            }
            checkChanges(result.changes, before: before, schemaChanged: schemaChanged)
            history.append((snapshot, dump))
            if let (old, oldDump) = pick(history) { #expect(Fixtures.dump(old) == oldDump) }
        }

        /// Inserted and deleted keys are exactly the model's difference; every object whose stored
        /// values changed is reported modified (a write of an equal value may be reported too).
        func checkChanges(_ changes: ChangeSet, before: DifferentialModel, schemaChanged: Bool) {
            #expect(changes.schemaChanged == schemaChanged)
            for (name, table) in model.tables {
                // A class removed and added again in one transaction starts its keys afresh: the
                // store reports the old objects deleted and the new ones inserted, under equal keys.
                if schemaChanged && name == "Cat" { continue }
                let old = before.tables[name] ?? DifferentialModel.Table()
                let oldKeys = Set(old.keys)
                let newKeys = Set(table.keys)
                let reported = changes.classes[name] ?? ChangeSet.ClassChanges()
                #expect(reported.inserted == newKeys.subtracting(oldKeys).sorted().map(RowKey.init), "\(name) inserted")
                if before.schema[name] != nil {
                    #expect(
                        reported.deleted == oldKeys.subtracting(newKeys).sorted().map(RowKey.init),
                        "\(name) deleted"
                    )
                }
                guard !schemaChanged else { continue }
                let objectSchema = model.schema[name]!
                for (row, key) in table.keys.enumerated() {
                    guard let oldRow = old.keys.firstIndex(of: key) else { continue }
                    for (p, property) in objectSchema.properties.enumerated() where !property.isBacklink {
                        if table.rows[row][p] != old.rows[oldRow][p] {
                            #expect(
                                reported.modified[RowKey(key)]?.contains(property.name) == true,
                                "\(name)[\(key)].\(property.name)"
                            )
                        }
                    }
                }
            }
        }
    }
}
