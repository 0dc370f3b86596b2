import Foundation
import RQLCore
import RQLDatasets
import RQLEngine
import RQLSema
import RQLStorage

/// realm-core's public query vectors (`Tests/Fixtures/realm-core-public.json`): suites of a
/// dataset and cases (query, class, arguments, expectation), loaded once for any executor.
///
/// ```swift
/// let suites = try ConformanceSuite.load(from: fixtureURL)
/// for suite in suites { for testCase in suite.cases { … testCase.check(keys, in: suite.store) … } }
/// ```
public struct ConformanceSuite: Sendable {
    public let name: String
    /// The suite's dataset as JSON (for commands that read a file), and loaded.
    public let data: JSONValue
    public let store: BlockSnapshot
    /// The cases not marked `skip`, in file order.
    public let cases: [ConformanceCase]

    /// Reads every suite of the vectors file; a suite whose dataset does not load is an error.
    public static func load(from url: URL) throws -> [ConformanceSuite] {
        let document = try JSONValue.parse(String(contentsOf: url, encoding: .utf8))
        guard case .array(let suites)? = document["suites"] else { return [] }
        var loaded: [ConformanceSuite] = []
        for suite in suites {
            guard case .string(let name)? = suite["name"], let data = suite["data"],
                case .array(let cases)? = suite["cases"]
            else { continue }
            let store = try DatasetLoader.load(document: data)
            let parsed = cases.compactMap { json -> ConformanceCase? in
                guard json["skip"] == nil, case .string(let query)? = json["query"],
                    case .string(let className)? = json["class"]
                else { return nil }
                var arguments: [JSONValue] = []
                if case .array(let values)? = json["args"] { arguments = values }
                return ConformanceCase(
                    suite: name,
                    query: query,
                    className: className,
                    argumentJSON: arguments,
                    expectation: ConformanceCase.Expectation(json["expect"])
                )
            }
            loaded.append(ConformanceSuite(name: name, data: data, store: store, cases: parsed))
        }
        return loaded
    }

    /// The fixture file of this repository, found from a source file's path (`#filePath` of a
    /// test under `Tests/`).
    public static func fixtureURL(fromTestFile path: String) -> URL {
        var url = URL(fileURLWithPath: path)
        while url.lastPathComponent != "Tests" && url.pathComponents.count > 1 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/realm-core-public.json")
    }
}

/// One conformance case: a query on a class of its suite's dataset and what realm-core answered.
public struct ConformanceCase: Sendable, CustomStringConvertible {
    /// What realm-core gave.
    public enum Expectation: Sendable {
        /// An error of this category (`syntax`, `unknown_property`, …; `error` when unnamed).
        case error(String)
        /// A result: the number of objects, and optionally the values of a property in order.
        case result(count: Int64?, order: (property: String, values: [JSONValue])?)

        init(_ json: JSONValue?) {
            switch json?["error"] {
            case .string(let category)?:
                self = .error(category)
            case let error?:
                if case .string(let category)? = error["category"] {
                    self = .error(category)
                } else {
                    self = .error("error")
                }
            case nil:
                var count: Int64?
                if case .number(let number)? = json?["count"] { count = number.int64Value }
                var order: (String, [JSONValue])?
                if let orderJSON = json?["order"], case .string(let property)? = orderJSON["property"],
                    case .array(let values)? = orderJSON["values"]
                {
                    order = (property, values)
                }
                self = .result(count: count, order: order)
            }
        }
    }

    public let suite: String
    public let query: String
    public let className: String
    public let argumentJSON: [JSONValue]
    public let expectation: Expectation

    public var description: String { "[\(suite)] \(query)" }

    /// The arguments read for `store` (links resolve against its objects).
    public func arguments(in store: BlockSnapshot) throws -> [QueryArgument] {
        try argumentJSON.map { json throws in try ArgumentReader.read(json, store: store) }
    }

    /// What is wrong with an executor's answer — keys, or the query error — or nil when it is
    /// realm-core's.
    public func problem(with outcome: Result<[RowKey], QueryError>, in store: BlockSnapshot) -> String? {
        switch (expectation, outcome) {
        case (.error(let expected), .failure(let error)):
            return expected == error.category ? nil : "expected error \(expected), got \(error.category): \(error)"
        case (.error(let expected), .success):
            return "expected error \(expected), got a result"
        case (.result, .failure(let error)):
            return "unexpected error: \(error.category): \(error)"
        case (.result(let count, let order), .success(let keys)):
            if let count, count != Int64(keys.count) { return "expected \(count) objects, got \(keys.count)" }
            guard let order, let table = store.table(named: className) else { return nil }
            let actual: [JSONValue]
            do {
                actual = try keys.compactMap { key in
                    try table.position(of: key).flatMap {
                        try DatasetExporter.object(at: $0, in: table, store: store)[order.property]
                    }
                }
            } catch {
                return "the objects could not be written: \(error)"
            }
            guard actual.count == order.values.count, zip(actual, order.values).allSatisfy(Self.sameJSON) else {
                return "expected \(order.property) order \(JSONValue.array(order.values).serialized()), "
                    + "got \(JSONValue.array(actual).serialized())"
            }
            return nil
        }
    }

    /// JSON equality with numbers compared by value (an exporter may write 2.50 as 2.5).
    static func sameJSON(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if case .number(let a) = lhs, case .number(let b) = rhs {
            return a.text == b.text || a.doubleValue == b.doubleValue
        }
        return lhs == rhs
    }
}
