import Foundation
import RQLBytecode
import RQLCodegen
import RQLCore
import RQLDatasets
import RQLEngine
import RQLIR
import RQLOptimizer
import RQLSema
import RQLStorage
import RQLVM
import Testing

/// realm-core's public query vectors (`Tests/Fixtures/realm-core-public.json`) run three ways:
/// the VM on the fully optimized plan, the VM on the unoptimized plan, and the reference
/// evaluator. All three must agree with each other and with realm-core's expectation (count,
/// and order where the case gives one). Every program must pass the verifier.
@Suite("Conformance on the VM")
struct ConformanceVMTests {
    struct Outcome {
        var suite: String
        var query: String
        var problem: String?
    }

    static func loadVectors() throws -> JSONValue {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/realm-core-public.json")
        return try JSONValue.parse(String(contentsOf: url, encoding: .utf8))
    }

    static func run() throws -> [Outcome] {
        guard case .array(let suites)? = try loadVectors()["suites"] else { return [] }
        var outcomes: [Outcome] = []
        for suite in suites {
            guard case .string(let name)? = suite["name"], let data = suite["data"],
                case .array(let cases)? = suite["cases"], let store = try? DatasetLoader.load(document: data)
            else { continue }
            for testCase in cases where testCase["skip"] == nil {
                guard case .string(let query)? = testCase["query"], case .string(let className)? = testCase["class"]
                else { continue }
                outcomes.append(Outcome(suite: name, query: query, problem: problem(testCase, query, className, store)))
            }
        }
        return outcomes
    }

    static func problem(_ testCase: JSONValue, _ query: String, _ className: String, _ store: BlockSnapshot) -> String?
    {
        var arguments: [QueryArgument] = []
        if case .array(let values)? = testCase["args"] {
            for value in values {
                guard let argument = try? ArgumentReader.read(value, store: store) else { return nil }
                arguments.append(argument)
            }
        }
        guard
            let bound = try? QueryEngine().bind(
                query,
                className: className,
                schema: store.schema,
                arguments: arguments
            )
        else { return nil }  // error cases are the binder's; ConformanceTests checks them
        let reference = ReferenceEvaluator(store: store).run(bound)
        let referenceCount = ReferenceEvaluator(store: store).count(bound)
        for optimized in [true, false] {
            let program: Program
            do {
                program = try VMHarness.compile(bound, store: store, optimized: optimized)
            } catch {
                return "does not compile (optimized: \(optimized)): \(error)"
            }
            let keys: [RowKey]
            let count: Int
            do {
                keys = try VirtualMachine().run(program, on: store)
                count = try VirtualMachine().count(program, on: store)
            } catch {
                return "the VM refused the program (optimized: \(optimized)): \(error)"
            }
            if keys != reference {
                return "VM (optimized: \(optimized)) \(keys) != reference \(reference)"
            }
            if count != referenceCount {
                return "VM count (optimized: \(optimized)) \(count) != reference \(referenceCount)"
            }
        }
        if case .number(let count)? = testCase["expect"]?["count"], count.int64Value != Int64(reference.count) {
            return "expected \(count.text) objects, got \(reference.count)"
        }
        return nil
    }

    @Test("realm-core's query vectors: VM with all passes, with none, and the reference agree")
    func conformance() throws {
        let outcomes = try Self.run()
        let failures = outcomes.filter { $0.problem != nil }
        print("VM conformance: \(outcomes.count - failures.count) of \(outcomes.count) cases agree")
        for failure in failures.prefix(40) {
            print("  [\(failure.suite)] \(failure.query)\n      \(failure.problem ?? "")")
        }
        #expect(outcomes.count > 900)
        #expect(failures.isEmpty, "\(failures.count) of \(outcomes.count) cases differ")
    }
}
