import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

/// Queries that are legal but extreme end in a result or a clean error, never a trap or a hang.
@Suite("Extreme queries against the demo database")
struct RobustnessTests {
    static let store: BlockSnapshot? = try? DemoDataset.load()

    func outcome(_ query: String, _ className: String = "Dog") throws -> Result<Int, QueryError> {
        let store = try #require(Self.store)
        do {
            let compiled = try QueryEngine.reference.compile(query, className: className, store: store)
            return .success(QueryEngine.reference.run(compiled, on: store).count)
        } catch {
            return .failure(error)
        }
    }

    @Test("a 10,000-term sum is refused by the binder instead of overflowing the evaluator's stack")
    func longArithmetic() throws {
        let query = "age" + String(repeating: " + 1", count: 10_000) + " > 2"
        guard case .failure(.binding(let error)) = try outcome(query) else {
            Issue.record("expected a binding error")
            return
        }
        #expect(error.kind == .unsupportedOperation)
        #expect(
            try outcome("age" + String(repeating: " + 1", count: Binder.maximumArithmeticDepth - 1) + " > 2")
                == .success(20)
        )
    }

    @Test("nesting at the parser's limit evaluates")
    func deepNesting() throws {
        let depth = 200
        let parentheses = String(repeating: "(", count: depth) + "age > 2" + String(repeating: ")", count: depth)
        let nots = String(repeating: "NOT ", count: depth) + "age > 2"
        let positive = try outcome("age > 2")
        #expect(try outcome(parentheses) == positive)
        #expect(try outcome(nots) == positive)
    }

    @Test("SUBQUERYs nest to a bounded depth")
    func subqueryDepth() throws {
        let store = try DatasetLoader.load(
            json: """
                {"schema": {"P": {"properties": {"n": "int", "friends": "list<P>"}}},
                 "objects": {"P": [{"n": 1, "friends": [1]}, {"n": 2, "friends": [0]}]}}
                """
        )
        func nested(_ depth: Int) -> String {
            var predicate = "n > 0"
            for level in (0..<depth).reversed() {
                let collection = level == 0 ? "friends" : "$x\(level - 1).friends"
                predicate = "SUBQUERY(\(collection), $x\(level), \(predicate)).@count > 0"
            }
            return predicate
        }
        let allowed = try QueryEngine.reference.compile(
            nested(Binder.maximumSubqueryDepth),
            className: "P",
            store: store
        )
        #expect(QueryEngine.reference.run(allowed, on: store).count == 2)
        #expect {
            try QueryEngine.reference.compile(nested(Binder.maximumSubqueryDepth + 1), className: "P", store: store)
        } throws: { error in
            (error as? QueryError)?.category == "unsupported_operation"
        }
    }
}
