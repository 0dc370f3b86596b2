import RQLCore
import RQLEngine
import RQLIR
import RQLOptimizer
import RQLSema
import RQLStorage
import RQLTestSupport
import Testing

/// Every public realm-core case run three ways — the optimized plan with every pass, with no
/// pass, and the reference evaluator — each compared with realm-core's answer and with the
/// others (same keys in the same order, same error), and each way's count with its row list.
@Suite("Conformance, three ways")
struct ThreeWayConformanceTests {
    @Test("every public case agrees with realm-core with all passes, with none, and on the reference")
    func threeWays() throws {
        let suites = try ConformanceSuite.load(from: ConformanceSuite.fixtureURL(fromTestFile: #filePath))
        let runner = ThreeWayRunner()
        var cases = 0
        var failures: [String] = []
        for suite in suites {
            for testCase in suite.cases {
                cases += 1
                let arguments: [QueryArgument]
                do {
                    arguments = try testCase.arguments(in: suite.store)
                } catch {
                    failures.append("\(testCase): argument does not decode: \(error)")
                    continue
                }
                let outcomes = runner.run(
                    testCase.query,
                    className: testCase.className,
                    store: suite.store,
                    arguments: arguments
                )
                for (way, outcome, compiled) in outcomes {
                    if let problem = testCase.problem(with: outcome, in: suite.store) {
                        failures.append("\(testCase) [\(way)]: \(problem)")
                    }
                    if let compiled, let failure = compiled.optimizerFailure {
                        failures.append("\(testCase) [\(way)]: the optimizer failed: \(failure)")
                    }
                    if case .failure(.engine(let error, _)) = outcome {
                        failures.append("\(testCase) [\(way)]: \(error)")
                    }
                    if let compiled, case .success(let keys) = outcome {
                        let engine = runner.ways.first { $0.name == way }!.engine
                        let counted = engine.count(compiled, on: suite.store)
                        if counted != keys.count {
                            failures.append("\(testCase) [\(way)]: count \(counted) but \(keys.count) rows")
                        }
                    }
                }
                let reference = outcomes[outcomes.count - 1].outcome
                for (way, outcome, _) in outcomes.dropLast() where outcome != reference {
                    failures.append("\(testCase) [\(way)]: differs from the reference: \(outcome) vs \(reference)")
                }
            }
        }
        print("conformance three ways: \(cases - failures.count) of \(cases) cases agree")
        for failure in failures.prefix(40) { print("  " + failure) }
        #expect(cases > 900)
        #expect(failures.isEmpty, "\(failures.count) problems in \(cases) cases")
    }

    @Test("every public case gives the reference's keys with each pass disabled alone", arguments: Optimizer.passNames)
    func eachPassDisabled(pass: String) throws {
        let suites = try ConformanceSuite.load(from: ConformanceSuite.fixtureURL(fromTestFile: #filePath))
        let engine = try QueryEngine(
            options: EngineOptions(disabledPasses: [pass]),
            cache: CompiledQueryCache(),
            statisticsCache: StatisticsCache()
        )
        var failures: [String] = []
        for suite in suites {
            for testCase in suite.cases {
                guard case .result = testCase.expectation, let arguments = try? testCase.arguments(in: suite.store),
                    let compiled = try? engine.compile(
                        testCase.query,
                        className: testCase.className,
                        store: suite.store,
                        arguments: arguments
                    )
                else { continue }
                let keys = engine.run(compiled, on: suite.store)
                if keys != ReferenceEvaluator(store: suite.store).run(compiled.bound) {
                    failures.append("\(testCase)")
                }
                if let problem = testCase.problem(with: .success(keys), in: suite.store) {
                    failures.append("\(testCase): \(problem)")
                }
            }
        }
        for failure in failures.prefix(20) { print("without \(pass): " + failure) }
        #expect(failures.isEmpty)
    }
}
