import RQLCore
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

/// realm-core's own query test vectors (`Tests/Fixtures/realm-core-public.json`, mined from its
/// query and parser tests and re-run against a realm-core build), run through the binder and the
/// reference evaluator: parse, bind, evaluate, and compare the count, the order or the error
/// category with realm-core's. (`ThreeWayConformanceTests` runs them through the engine too.)
///
/// Every case must pass; where realm-core has a quirk we reproduce it and say so where it is
/// implemented. The failing cases are printed by query so a regression is easy to read.
@Suite("Conformance with realm-core")
struct ConformanceTests {
    @Test("realm-core's query vectors: counts, orders and error categories")
    func conformance() throws {
        let suites = try ConformanceSuite.load(from: ConformanceSuite.fixtureURL(fromTestFile: #filePath))
        var cases = 0
        var failures: [String] = []
        for suite in suites {
            for testCase in suite.cases {
                cases += 1
                let arguments: [QueryArgument]
                do {
                    arguments = try testCase.arguments(in: suite.store)
                } catch {
                    failures.append("\(testCase)\n      argument does not decode: \(error)")
                    continue
                }
                let outcome: Result<[RowKey], QueryError>
                do {
                    let compiled = try QueryEngine.reference.compile(
                        testCase.query,
                        className: testCase.className,
                        store: suite.store,
                        arguments: arguments
                    )
                    outcome = .success(QueryEngine.reference.run(compiled, on: suite.store))
                } catch {
                    outcome = .failure(error)
                }
                if let problem = testCase.problem(with: outcome, in: suite.store) {
                    failures.append("\(testCase)\n      \(problem)")
                }
            }
        }
        print("conformance: \(cases - failures.count) of \(cases) cases pass")
        for failure in failures { print("  " + failure) }
        #expect(cases > 900)
        #expect(failures.isEmpty, "\(failures.count) of \(cases) cases differ from realm-core")
    }
}
