import Foundation
import Testing

@testable import RQL

@Suite("ObjectId, Decimal128, AnyRealmValue")
struct ValueTypeTests {
    @Test("generated ids are unique, increase, and carry their creation second")
    func generation() {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let ids = (0..<1000).map { _ in ObjectId.generate() }
        let after = Date().timeIntervalSince1970
        #expect(Set(ids).count == 1000)
        for id in ids {
            #expect(id.timestamp.timeIntervalSince1970 >= before)
            #expect(id.timestamp.timeIntervalSince1970 <= after)
        }
        // Later ids are larger: a later second, or the same second and the next counter value
        // (unless the 3-byte counter wrapped around between them).
        for (earlier, later) in zip(ids, ids.dropFirst()) {
            let counterWrapped = later.stringValue.suffix(6) == "000000"
            #expect(earlier < later || counterWrapped)
        }
    }

    @Test("an id reads and writes its 24 hex digits; anything else throws")
    func stringForm() throws {
        let id = try ObjectId(string: "11223344556677889900AABB")
        #expect(id.stringValue == "11223344556677889900aabb")
        #expect(id == ObjectId("11223344556677889900aabb"))
        #expect(id.timestamp == Date(timeIntervalSince1970: 0x1122_3344))
        #expect(throws: RealmValueError.invalidObjectId("xyz")) { try ObjectId(string: "xyz") }
        #expect(ObjectId() == ObjectId("000000000000000000000000"))
        #expect(ObjectId("000000000000000000000001") < ObjectId("000000000000000000000002"))
    }

    @Test("init(timestamp:machineId:processId:) lays out the old BSON form")
    func explicitParts() {
        let id = ObjectId(timestamp: Date(timeIntervalSince1970: 1), machineId: 0x0A0B0C, processId: 0x0D0E)
        #expect(id.stringValue.hasPrefix("000000010a0b0c0d0e"))
        #expect(id.timestamp == Date(timeIntervalSince1970: 1))
    }

    @Test("ids encode as their string")
    func codable() throws {
        let id = ObjectId("11223344556677889900aabb")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["11223344556677889900aabb"]"#)
        #expect(try JSONDecoder().decode([ObjectId].self, from: data) == [id])
    }

    @Test("decimals add, subtract, multiply and divide exactly")
    func arithmetic() {
        let price: Decimal128 = "19.99"
        #expect(price * 3 == "59.97")
        #expect((0.1 as Decimal128) + 0.2 == "0.3")
        #expect(Decimal128(value: 10) / 4 == "2.5")
        #expect(Decimal128(value: 1) - Decimal128(value: 3) == -2)
        #expect((-price).magnitude == price)
        #expect(price.distance(to: 20) == "0.01")
        #expect(price.advanced(by: 1) == "20.99")
    }

    @Test("decimals compare by value across representations")
    func comparison() throws {
        #expect(Decimal128(value: "1.50") == Decimal128(value: 1.5))
        #expect(Decimal128(value: "1.50").hashValue == Decimal128(value: 1.5).hashValue)
        #expect(Decimal128(value: 2) > "1.99")
        #expect(Decimal128.min < Decimal128.max)
        #expect(try Decimal128(string: "NaN").isNaN)
        #expect(try Decimal128(string: "-2E+3") == -2000)
        #expect(throws: RealmValueError.invalidDecimal128("abc")) { try Decimal128(string: "abc") }
        #expect(Decimal128(exactly: 12) == 12)
        #expect(Decimal128(number: NSNumber(value: 7)) == 7)
    }

    @Test("decimals encode as text and decode from text or numbers")
    func decimalCodable() throws {
        let data = try JSONEncoder().encode([Decimal128(value: "1.25")])
        #expect(String(decoding: data, as: UTF8.self) == #"["1.25"]"#)
        #expect(try JSONDecoder().decode([Decimal128].self, from: Data("[3, 2.5, \"7\"]".utf8)) == [3, 2.5, 7])
    }

    @Test("AnyRealmValue accessors return the payload of their case only")
    func mixedAccessors() {
        let value = AnyRealmValue.int(3)
        #expect(value.intValue == 3)
        #expect(value.stringValue == nil)
        #expect(AnyRealmValue() == .none)
        let toy = DogToy()
        #expect(AnyRealmValue.object(toy).object(DogToy.self) === toy)
        #expect(AnyRealmValue.object(toy).object(Dog.self) == nil)
    }

    @Test("AnyRealmValue holds nested lists and dictionaries")
    func nested() throws {
        let value = AnyRealmValue.fromArray([.int(1), .fromDictionary(["k": .string("v")])])
        let list = try #require(value.listValue)
        #expect(list.count == 2)
        #expect(list[1].dictionaryValue?["k"] == .string("v"))
        #expect(AnyRealmValue._rqlConvert([1, "two", ["three": 3.0]] as [Any])?.listValue?.count == 3)
    }
}
