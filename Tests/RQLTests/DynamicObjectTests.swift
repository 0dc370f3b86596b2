import Foundation
import Testing

@testable import RQL

/// The dynamic API: stored classes read and written by name (realm-swift's `DynamicObject`,
/// `dynamicObjects`, `dynamicObject(ofType:forPrimaryKey:)`, `dynamicCreate`, `dynamicList`).
@Suite("Dynamic objects")
struct DynamicObjectTests {
    final class Gadget: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var flag = false
        @Persisted var count = 0
        @Persisted var ratio: Float = 0
        @Persisted var weight = 0.0
        @Persisted var name = ""
        @Persisted var blob = Data()
        @Persisted var made = Date(timeIntervalSince1970: 0)
        @Persisted var price = Decimal128(0)
        @Persisted var oid = ObjectId("000000000000000000000000")
        @Persisted var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        @Persisted var anything: AnyRealmValue
        @Persisted var nickname: String?
        @Persisted var maybeCount: Int?
        @Persisted var scores: List<Int>
        @Persisted var tags: MutableSet<String>
        @Persisted var sizes: Map<String, Double>
        @Persisted var part: Part?
        @Persisted var parts: List<Part>
        @Persisted var spare: Box?
    }

    final class Part: Object {
        @Persisted var label = ""
        @Persisted(originProperty: "parts") var users: LinkingObjects<Gadget>
    }

    final class Loose: Object {
        @Persisted var label = ""
    }

    final class Box: EmbeddedObject {
        @Persisted var side = 0
    }

    private func realm() throws -> Realm {
        try makeRealm([Gadget.self, Part.self, Box.self])
    }

    @Test("every property type reads through a string subscript and dynamic member lookup")
    func readsEveryType() throws {
        let realm = try realm()
        let date = Date(timeIntervalSince1970: 1_000)
        try realm.write {
            realm.create(
                Gadget.self,
                value: [
                    "id": 1, "flag": true, "count": 7, "ratio": Float(1.5), "weight": 2.25, "name": "g",
                    "blob": Data([1, 2]), "made": date, "price": Decimal128(3),
                    "oid": ObjectId("aabbccddeeff001122334455"),
                    "uuid": UUID(uuidString: "11111111-2222-3333-4444-555555555555")!,
                    "anything": AnyRealmValue.string("x"),
                    "nickname": "gg", "scores": [3, 1], "tags": ["t"], "sizes": ["w": 1.0], "part": ["label": "p1"],
                    "parts": [["label": "p2"]], "spare": ["side": 4],
                ]
            )
        }
        let gadget = try #require(realm.dynamicObjects("Gadget").first)
        #expect(gadget["flag"] as? Bool == true)
        #expect(gadget["count"] as? Int == 7)
        #expect(gadget["ratio"] as? Float == 1.5)
        #expect(gadget.weight as? Double == 2.25)
        #expect(gadget.name as? String == "g")
        #expect(gadget["blob"] as? Data == Data([1, 2]))
        #expect(gadget["made"] as? Date == date)
        #expect(gadget["price"] as? Decimal128 == Decimal128(3))
        #expect(gadget["oid"] as? ObjectId == ObjectId("aabbccddeeff001122334455"))
        #expect(gadget["uuid"] as? UUID == UUID(uuidString: "11111111-2222-3333-4444-555555555555"))
        #expect(gadget["anything"] as? AnyRealmValue == .string("x"))
        #expect(gadget["nickname"] as? String == "gg")
        #expect(gadget["maybeCount"] == nil)
        #expect((gadget["scores"] as? List<Int>).map(Array.init) == [3, 1])
        #expect((gadget["tags"] as? MutableSet<String>).map { Array($0) } == ["t"])
        #expect((gadget["sizes"] as? Map<String, Double>)?["w"] == 1.0)
        #expect((gadget["part"] as? DynamicObject)?["label"] as? String == "p1")
        #expect(gadget.dynamicList("parts").map { $0["label"] as? String } == ["p2"])
        #expect((gadget["parts"] as? List<DynamicObject>)?.count == 1)
        #expect((gadget["spare"] as? DynamicObject)?["side"] as? Int == 4)
        #expect(gadget.objectSchema.className == "Gadget")
        #expect(gadget.description.hasPrefix("Gadget {"))
    }

    @Test("every property type is written through a string subscript inside a write, and read back typed")
    func writesEveryType() throws {
        let realm = try realm()
        try realm.write { realm.create(Gadget.self, value: ["id": 1]) }
        let gadget = try #require(realm.dynamicObject(ofType: "Gadget", forPrimaryKey: 1))
        let date = Date(timeIntervalSince1970: 5)
        try realm.write {
            gadget["flag"] = true
            gadget.count = 9
            gadget["ratio"] = Float(0.5)
            gadget["weight"] = 1.5
            gadget["name"] = "renamed"
            gadget["blob"] = Data([9])
            gadget["made"] = date
            gadget["price"] = Decimal128(7)
            gadget["oid"] = ObjectId("112233445566778899aabbcc")
            gadget["uuid"] = UUID(uuidString: "99999999-2222-3333-4444-555555555555")!
            gadget["anything"] = AnyRealmValue.int(5)
            gadget["nickname"] = nil
            gadget["maybeCount"] = 3
            gadget["scores"] = [4, 5, 6]
            gadget["tags"] = ["a", "b"]
            gadget["sizes"] = ["h": 2.0]
            gadget["part"] = ["label": "new"]
            gadget["parts"] = [realm.dynamicCreate("Part", value: ["label": "listed"])]
            gadget["spare"] = ["side": 8]
        }
        let typed = try #require(realm.object(ofType: Gadget.self, forPrimaryKey: 1))
        #expect(typed.flag && typed.count == 9 && typed.ratio == 0.5 && typed.weight == 1.5)
        #expect(typed.name == "renamed" && typed.blob == Data([9]) && typed.made == date)
        #expect(typed.price == Decimal128(7) && typed.oid == ObjectId("112233445566778899aabbcc"))
        #expect(typed.uuid == UUID(uuidString: "99999999-2222-3333-4444-555555555555"))
        #expect(typed.anything == .int(5) && typed.nickname == nil && typed.maybeCount == 3)
        #expect(Array(typed.scores) == [4, 5, 6] && typed.tags.count == 2 && typed.sizes["h"] == 2.0)
        #expect(typed.part?.label == "new" && typed.parts.map(\.label) == ["listed"] && typed.spare?.side == 8)
        #expect(realm.objects(Part.self).count == 2)
        // A typed object of the realm is a valid link too.
        let part = try #require(realm.objects(Part.self).filter("label == 'listed'").first)
        try realm.write { gadget["part"] = part }
        #expect(typed.part?.label == "listed")
        #expect(part.users.count == 1 && part.isSameObject(as: typed.parts.first))
    }

    @Test("a value that does not fit is recorded and the commit throws it")
    func wrongValue() throws {
        let realm = try realm()
        try realm.write { realm.create(Gadget.self, value: ["id": 1]) }
        let gadget = try #require(realm.dynamicObject(ofType: "Gadget", forPrimaryKey: 1))
        #expect(throws: Realm.Error.self) {
            try realm.write { _ = realm.dynamicCreate("Gadget", value: ["id": 2, "count": "many"]) }
        }
        #expect(throws: Realm.Error.self) {
            try realm.write { _ = realm.dynamicCreate("Gadget", value: ["id": 3, "nope": 1]) }
        }
        #expect(throws: Realm.Error.self) {
            try realm.write { _ = realm.dynamicCreate("Gadget", value: ["id": 1]) }
        }
        #expect(realm.objects(Gadget.self).count == 1)
        #expect(gadget["count"] as? Int == 0)
    }

    @Test("dynamicObjects results are live and queried by the same engine, and dynamicCreate updates by primary key")
    func queriesAndCreate() throws {
        let realm = try realm()
        try realm.write {
            for i in 0..<10 { realm.dynamicCreate("Gadget", value: ["id": i, "count": i * 10, "name": "g\(i)"]) }
        }
        let big = realm.dynamicObjects("Gadget").filter("count >= %@", 50).sorted(byKeyPath: "count", ascending: false)
        #expect(big.map { $0["id"] as? Int } == [9, 8, 7, 6, 5])
        #expect(realm.dynamicObjects("Gadget").filter("name BEGINSWITH 'g1'").count == 1)
        try realm.write {
            realm.dynamicCreate("Gadget", value: ["id": 9, "count": 1], update: .modified)
            realm.dynamicCreate("Gadget", value: [100, true, 1000] as [Any])
        }
        #expect(big.map { $0["id"] as? Int } == [100, 8, 7, 6, 5])
        #expect(realm.object(ofType: Gadget.self, forPrimaryKey: 9)?.name == "g9")
        #expect(realm.object(ofType: Gadget.self, forPrimaryKey: 100)?.flag == true)
        #expect(realm.dynamicObject(ofType: "Gadget", forPrimaryKey: 42) == nil)
        // A deleted dynamic object is invalidated.
        let first = try #require(realm.dynamicObject(ofType: "Gadget", forPrimaryKey: 0))
        try realm.write { realm.delete(first) }
        #expect(first.isInvalidated)
    }

    @Test("the dynamic API reads a class the program does not declare")
    func undeclaredClass() throws {
        let identifier = "dynamic-\(UUID().uuidString)"
        let keeper = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
        try Thread.run {
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [Loose.self])
            )
            try realm.write { realm.add(Loose(value: ["label": "old"])) }
        }
        let labels = try Thread.run {
            let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: identifier))
            return realm.dynamicObjects("Loose").map { $0.label as? String }
        }
        #expect(labels == ["old"])
        withExtendedLifetime(keeper) {}
    }
}
