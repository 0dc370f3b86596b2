import Foundation
import Testing

@testable import RQL

/// A model class can conform to `Codable` as in Realm Swift: the synthesized conformance encodes
/// each `@Persisted` wrapper as its value.
final class CodableDog: Object, Codable {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname: String?
    @Persisted var tags: List<String>
    @Persisted var id: ObjectId
    @Persisted var price: Decimal128
}

@Suite("Codable model classes")
struct CodableTests {
    @Test("an unmanaged object encodes its values and decodes back")
    func roundTrip() throws {
        let dog = CodableDog(value: ["name": "Rex", "age": 3, "tags": ["a", "b"], "price": "9.99"])
        let id = dog.id
        let data = try JSONEncoder().encode(dog)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""name":"Rex""#))
        #expect(text.contains(#""tags":["a","b"]"#))
        let decoded = try JSONDecoder().decode(CodableDog.self, from: data)
        #expect(decoded.name == "Rex")
        #expect(decoded.age == 3)
        #expect(decoded.nickname == nil)
        #expect(Array(decoded.tags) == ["a", "b"])
        #expect(decoded.id == id)
        #expect(decoded.price == "9.99")
        #expect(try ClassInfo.info(for: CodableDog.self).properties.count == 6)
    }

    @Test("properties missing from the input take their defaults")
    func missingKeys() throws {
        let decoded = try JSONDecoder().decode(CodableDog.self, from: Data(#"{"name": "Fido"}"#.utf8))
        #expect(decoded.name == "Fido")
        #expect(decoded.age == 0)
        #expect(decoded.tags.isEmpty)
    }
}
