import Foundation
import RQLCore
import RQLDatasets
import Testing

@testable import RQLStorage

/// The shortcuts a single-object commit takes: a class without embedded properties is planned
/// as one row (`plainRow`), one value is appended to each column without the arrays of a
/// splice (`Segment.append`), and the change set names each class once. Each must give exactly
/// what the general path gives.
@Suite("Single-object writes: the shortcuts agree with the general path")
struct SingleObjectWriteTests {
    static let schemaJSON = #"""
        {"schema": {
          "Thing": {"primaryKey": "id", "indexed": ["name"], "properties": {
              "id": "int", "name": "string", "nick": "string?", "age": "int?", "score": "double",
              "flag": "bool?", "blob": "data?", "when": "date?", "anything": "mixed",
              "tags": "list<string>", "nums": "set<int>", "attrs": "map<string?>",
              "pet": "Pet?", "pets": "list<Pet>"
            }},
          "Pet": {"properties": {"name": "string", "owners": "linkingObjects<Thing.pets>"}}
        }}
        """#

    /// What planning gave: the row's values, or the error.
    enum Outcome: Equatable {
        case values([Value])
        case error(WriteError)
    }

    static func planned(_ transaction: WriteTransaction, _ t: Int, _ given: [String: Value]) -> Outcome {
        do throws(WriteError) {
            let values = try transaction.planObject(t, given.map { ($0.key, $0.value) }, key: nil).map {
                planned -> Value in
                guard case .value(let value) = planned else { fatalError("no embedded property here") }
                return value
            }
            return .values(values)
        } catch {
            return .error(error)
        }
    }

    static func plain(_ transaction: WriteTransaction, _ t: Int, _ given: [String: Value]) -> Outcome? {
        do throws(WriteError) {
            return try transaction.plainRow(t, given).map { .values($0) }
        } catch {
            return .error(error)
        }
    }

    @Test("a plain row has planObject's values, defaults and errors, for valid and invalid objects alike")
    func plainRowAgrees() throws {
        let store = BlockStore(schema: try DatasetLoader.loadSchema(json: Self.schemaJSON))
        let transaction = store.beginWrite()
        let rex = try transaction.insert("Pet", ["name": .string("Rex")])
        let t = try #require(transaction.schema.classIndex(named: "Thing"))
        let cases: [[String: Value]] = [
            [:],
            [
                "id": .int(7), "name": .string("Ann"), "nick": .null, "age": .int(3), "score": .double(0.5),
                "flag": .bool(true), "blob": .data([1, 2]), "when": .date(Timestamp(seconds: 5, nanoseconds: 1)!),
                "anything": .string("x"), "tags": .list([.string("b"), .string("a")]),
                "nums": .list([.int(3), .int(1), .int(3)]), "attrs": .map(MixedMap(["k": .null])),
                "pet": .link(ObjectLink(className: "Pet", key: rex)),
                "pets": .list([.link(ObjectLink(className: "Pet", key: rex))]),
            ],
            ["agee": .int(1)],
            ["name": .null],
            ["age": .string("old")],
            ["nums": .list([.string("a")])],
            ["pet": .link(ObjectLink(className: "Pet", key: RowKey(99)))],
            ["pet": .link(ObjectLink(className: "Thing", key: RowKey(0)))],
            ["attrs": .map(MixedMap(["a.b": .string("x")]))],
            ["tags": .int(1)],
        ]
        for given in cases {
            let plain = Self.plain(transaction, t, given)
            #expect(plain == Self.planned(transaction, t, given), "\(given)")
        }
        // Of several bad values, both report the first the dictionary yields.
        let twoBad: [String: Value] = ["name": .null, "age": .string("old"), "agee": .int(1)]
        #expect(Self.plain(transaction, t, twoBad) == Self.planned(transaction, t, twoBad))
        // A backlink cannot be given.
        let pet = try #require(transaction.schema.classIndex(named: "Pet"))
        #expect(
            Self.plain(transaction, pet, ["owners": .list([])])
                == .error(.computedProperty(className: "Pet", property: "owners"))
        )
        #expect(
            Self.plain(transaction, pet, ["name": .string("Fido")])
                == Self.planned(transaction, pet, ["name": .string("Fido")])
        )
    }

    @Test("a class with an embedded property is left to planObject")
    func embeddedGoesTheLongWay() throws {
        let store = try Fixtures.store()
        let transaction = store.beginWrite()
        let person = try #require(transaction.schema.classIndex(named: "Person"))
        let dog = try #require(transaction.schema.classIndex(named: "Dog"))
        #expect(try transaction.plainRow(person, ["id": .int(1)]) == nil)
        #expect(try transaction.plainRow(dog, ["name": .string("Rex")]) != nil)
    }

    static let shapes: [SegmentShape] = [
        .fixed(.int, optional: false), .fixed(.int, optional: true), .fixed(.bool, optional: true),
        .fixed(.double, optional: false), .fixed(.decimal, optional: true), .fixed(.link("Pet"), optional: false),
        .bytes(isString: true, optional: false), .bytes(isString: true, optional: true),
        .bytes(isString: false, optional: true), .mixed,
        .collection(.list, element: .bytes(isString: true, optional: false)),
    ]

    /// Row `i`'s value for `shape`: nulls, empties and long values in a pattern that crosses
    /// null-bitmap words.
    static func value(_ i: Int, _ shape: SegmentShape) -> Value {
        let isNull = i % 5 == 2
        switch shape {
        case .fixed(let type, let optional):
            if optional && isNull { return .null }
            switch type {
            case .bool: return .bool(i % 2 == 0)
            case .double: return .double(Double(i) / 4)
            case .decimal: return .decimal(Decimal128(Int64(i)))
            case .link: return .link(ObjectLink(className: "Pet", key: RowKey(Int64(i))))
            default: return .int(Int64(i) * 7)
            }
        case .bytes(let isString, let optional):
            if optional && isNull { return .null }
            let text = i % 3 == 0 ? "" : String(repeating: "ab", count: i % 40)
            return isString ? .string(text) : .data(Array(text.utf8))
        case .mixed:
            return isNull ? .null : i % 2 == 0 ? .int(Int64(i)) : .string("m\(i)")
        case .collection:
            return .list((0..<(i % 3)).map { .string("e\($0)") })
        case .backlinks:
            return .null
        }
    }

    @Test("appending one value equals replacing the empty range after the last item with it", arguments: shapes)
    func appendAgrees(_ shape: SegmentShape) {
        var appended = Segment.empty(shape)
        var replaced = Segment.empty(shape)
        var snapshots: [(count: Int, segment: Segment)] = []
        let rows = 200
        for i in 0..<rows {
            // A copy shares the arrays, as a published snapshot does: it must not see the append.
            if i % 37 == 0 { snapshots.append((i, appended)) }
            appended.append(Self.value(i, shape), count: i, limit: TableBlock.capacity)
            replaced.replace(i..<i, with: [Self.value(i, shape)], count: i, limit: TableBlock.capacity)
        }
        for i in 0..<rows {
            #expect(appended.value(at: i) == Self.value(i, shape), "row \(i)")
            #expect(appended.value(at: i) == replaced.value(at: i), "row \(i)")
        }
        for (count, segment) in snapshots {
            for i in 0..<count {
                #expect(segment.value(at: i) == Self.value(i, shape), "snapshot of \(count), row \(i)")
            }
        }
    }

    @Test("the change set names each changed class once, with inserts sorted and cancelled ones gone")
    func changeSetOfRecords() {
        var recorder = ChangeRecorder()
        recorder.insert("Dog", keys: 0..<5)
        recorder.insert("Dog", RowKey(9))
        recorder.insert("Dog", RowKey(7))
        recorder.delete("Dog", RowKey(2))
        recorder.modify("Dog", RowKey(3), "age")
        recorder.insert("Cat", RowKey(1))
        recorder.delete("Cat", RowKey(1))
        recorder.modify("Person", RowKey(3), "age")
        recorder.modify("Person", RowKey(3), "name")
        recorder.modify("Person", RowKey(4), "age")
        recorder.delete("Person", RowKey(4))
        recorder.delete("Person", RowKey(1))
        let changes = recorder.changeSet(version: 9)
        #expect(changes.version == 9)
        #expect(changes.classes.keys.sorted() == ["Dog", "Person"])
        #expect(changes.classes["Dog"]?.inserted == [0, 1, 3, 4, 7, 9].map { RowKey(Int64($0)) })
        #expect(changes.classes["Dog"]?.modified.isEmpty == true)
        #expect(changes.classes["Person"]?.deleted == [RowKey(1), RowKey(4)])
        #expect(changes.classes["Person"]?.modified == [RowKey(3): ["age", "name"]])
        #expect(!changes.schemaChanged)
        #expect(ChangeRecorder().changeSet(version: 1).classes.isEmpty)
    }
}
