import RQLCore
import RQLDatasets
import RQLEngine
import RQLStorage
import RQLTestSupport
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
        let engine = QueryEngine.reference
        return engine.run(try engine.compile(query, className: "Item", store: store), on: store).count
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

    @Test("Int64 overflow carries on in decimal128 (realm-core wraps INT64_MAX + 1 to INT64_MIN)")
    func overflowIsExact() throws {
        #expect(try count("price + 9223372036854775807 > 0") == 3)
        #expect(try count("9223372036854775807 + 1 - price > 9223372036854775805") == 2)
    }

    @Test("dates before 1900 are read in both literal forms (realm-core refuses to convert them)")
    func oldDates() throws {
        let store = try DatasetLoader.load(
            json:
                #"{"schema": {"E": {"properties": {"at": "date"}}}, "objects": {"E": [{"at": "1850-01-01T00:00:00Z"}]}}"#
        )
        for query in ["at == 1850-01-01@00:00:00", "at == 1850-01-01T00:00:00", "at < 1900-01-01@00:00:00"] {
            #expect(
                QueryEngine.reference.run(
                    try QueryEngine.reference.compile(query, className: "E", store: store),
                    on: store
                ).count
                    == 1
            )
        }
    }

    @Test("a decimal integer beyond Int64 is the nearest double (realm-core's strtoll clamps it to INT64_MAX)")
    func bigIntegerLiteral() throws {
        #expect(try count("price < 99999999999999999999") == 3)
        #expect(try count("price > -99999999999999999999") == 3)
        #expect(try count("price >= 9223372036854775808") == 0)
    }
}
