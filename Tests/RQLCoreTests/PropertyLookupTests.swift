import Testing

@testable import RQLCore

/// `ObjectSchema.propertyIndex(named:)` compares names byte by byte for a class of a few
/// properties and hashes them for a larger one: both find a name by its own bytes only.
@Suite("Property lookup by name")
struct PropertyLookupTests {
    static func schema(_ names: [String]) -> ObjectSchema {
        ObjectSchema(name: "Thing", properties: names.map { Property(name: $0, type: .int) })
    }

    @Test(
        "each name is found at its column, another spelling or a prefix is not, for few and many properties",
        arguments: [3, ObjectSchema.linearLookupLimit, ObjectSchema.linearLookupLimit + 1, 40]
    )
    func lookup(count: Int) {
        var names = ["caf\u{E9}", "cafe\u{301}", "a"]
        while names.count < count { names.append("p\(names.count)") }
        names = Array(names.prefix(count))
        let schema = Self.schema(names)
        for (i, name) in names.enumerated() {
            #expect(schema.propertyIndex(named: name) == i, "\(name) of \(count)")
            #expect(schema.propertyIndex(named: String(decoding: Array(name.utf8), as: UTF8.self)) == i)
        }
        #expect(schema.propertyIndex(named: "caf") == nil)
        #expect(schema.propertyIndex(named: "") == nil)
        #expect(schema.propertyIndex(named: "ab") == nil)
        #expect(schema.propertyIndex(named: String(repeating: "p", count: 40)) == nil)
    }
}
