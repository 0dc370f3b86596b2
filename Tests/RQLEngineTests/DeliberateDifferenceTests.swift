import RQLCore
import RQLEngine
import RQLStorage
import Testing

/// Where realm-core's answer comes from an implementation shortcut rather than its own rules, we
/// follow the rules, and these tests say so.
@Suite("Deliberate differences from realm-core")
struct DeliberateDifferenceTests {
    static let dataset = """
        {"schema": {"Item": {"properties": {"name": "string", "price": "double"}}},
         "objects": {"Item": [{"name": "P0", "price": 1.0}, {"name": "p1", "price": 2.0}, {"name": "x", "price": 3.5}]}}
        """

    func count(_ query: String) throws -> Int {
        let store = try DatasetLoader.load(json: Self.dataset)
        return QueryEngine.run(try QueryEngine.compile(query, className: "Item", schema: store.schema), on: store).count
    }

    @Test(
        "IN over a double property compares numbers by value (realm-core's IN fast path drops the int 1 and matches only 2.0)"
    )
    func inComparesNumbersByValue() throws {
        #expect(try count("price IN {1, 2.0}") == 2)
        #expect(try count("price == 1 OR price == 2.0") == 2)
    }

    @Test("IN with no element of the property's type matches nothing (realm-core's fast path matched every object)")
    func inWithOtherTypesMatchesNothing() throws {
        #expect(try count("price IN {'x'}") == 0)
    }

    @Test("IN[c] folds case like ==[c] (realm-core's IN fast path ignores [c])")
    func inHonoursCaseInsensitivity() throws {
        #expect(try count("name IN[c] {'p0', 'P1'}") == 2)
        #expect(try count("name ==[c] ANY {'p0', 'P1'}") == 2)
    }
}
