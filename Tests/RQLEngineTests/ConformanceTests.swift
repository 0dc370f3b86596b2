import Foundation
import RQLCore
import RQLEngine
import RQLIR
import RQLSema
import RQLStorage
import Testing

/// realm-core's own query test vectors (`Tests/Fixtures/realm-core-public.json`, mined from its
/// query and parser tests and re-run against a realm-core build), run through the library:
/// parse, bind, evaluate, and compare the count, the order or the error category with realm-core's.
///
/// Every case must pass; where realm-core has a quirk we reproduce it and say so where it is
/// implemented. The failing cases are printed by query so a regression is easy to read.
@Suite("Conformance with realm-core")
struct ConformanceTests {
    /// One case's outcome.
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
                case .array(let cases)? = suite["cases"]
            else { continue }
            let store: ColumnStore
            do {
                store = try DatasetLoader.load(document: data)
            } catch {
                outcomes.append(Outcome(suite: name, query: "(dataset)", problem: "dataset does not load: \(error)"))
                continue
            }
            for testCase in cases where testCase["skip"] == nil {
                guard case .string(let query)? = testCase["query"], case .string(let className)? = testCase["class"]
                else { continue }
                outcomes.append(
                    Outcome(suite: name, query: query, problem: problem(testCase, query, className, store))
                )
            }
        }
        return outcomes
    }

    /// What is wrong with the library's answer to one case, or nil when it matches realm-core's.
    static func problem(_ testCase: JSONValue, _ query: String, _ className: String, _ store: ColumnStore) -> String? {
        var arguments: [QueryArgument] = []
        if case .array(let values)? = testCase["args"] {
            for value in values {
                do {
                    arguments.append(try ArgumentReader.read(value, store: store))
                } catch {
                    return "argument does not decode: \(error)"
                }
            }
        }
        let expect = testCase["expect"]
        let bound: BoundQuery
        do {
            bound = try QueryEngine.compile(query, className: className, schema: store.schema, arguments: arguments)
        } catch {
            guard let expected = expectedCategory(expect) else {
                return "unexpected error: \(error.category): \(error)"
            }
            return expected == error.category ? nil : "expected error \(expected), got \(error.category): \(error)"
        }
        if let expected = expectedCategory(expect) { return "expected error \(expected), got a result" }
        let keys = QueryEngine.run(bound, on: store)
        if case .number(let count)? = expect?["count"], count.int64Value != Int64(keys.count) {
            return "expected \(count.text) objects, got \(keys.count)"
        }
        if let order = expect?["order"], case .string(let property)? = order["property"],
            case .array(let expected)? = order["values"], let table = store.table(named: className)
        {
            let actual = keys.compactMap { key in
                table.position(of: key).flatMap { DatasetExporter.object(at: $0, in: table, store: store)[property] }
            }
            guard actual.count == expected.count, zip(actual, expected).allSatisfy(sameJSON) else {
                return "expected \(property) order \(JSONValue.array(expected).serialized()), "
                    + "got \(JSONValue.array(actual).serialized())"
            }
        }
        return nil
    }

    static func expectedCategory(_ expect: JSONValue?) -> String? {
        switch expect?["error"] {
        case .string(let category)?: category
        case let error?: if case .string(let category)? = error["category"] { category } else { "error" }
        case nil: nil
        }
    }

    /// JSON equality with numbers compared by value (an exporter may write 2.50 as 2.5).
    static func sameJSON(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if case .number(let a) = lhs, case .number(let b) = rhs {
            return a.text == b.text || a.doubleValue == b.doubleValue
        }
        return lhs == rhs
    }

    @Test("realm-core's query vectors: counts, orders and error categories")
    func conformance() throws {
        let outcomes = try Self.run()
        let failures = outcomes.filter { $0.problem != nil }
        let passed = outcomes.count - failures.count
        print("conformance: \(passed) of \(outcomes.count) cases pass")
        for failure in failures {
            print("  [\(failure.suite)] \(failure.query)\n      \(failure.problem ?? "")")
        }
        #expect(outcomes.count > 900)
        #expect(failures.isEmpty, "\(failures.count) of \(outcomes.count) cases differ from realm-core")
    }
}
