import BenchmarkKit
import RQLSyntax

/// Parse time: `Parser.parse` (RQL dialect) of each benchmark query, text to syntax tree.
///
///     rql-bench --filter parse/
///
/// The query string is created once, outside the loop, as a native Swift string; the parser's
/// `withUTF8` on it is then free, as it is for a query a program builds at run time.
extension Registry {
    public mutating func registerParseBenchmarks() {
        for query in BenchmarkQuery.all {
            let text = opaque(query.text)
            add(
                Benchmark(
                    suite: "parse",
                    name: query.id,
                    text: query.text,
                    setUp: { _ = try Parser.parse(text) },
                    body: { iterations in
                        for _ in 0..<iterations { blackHole(try? Parser.parse(text)) }
                    }
                )
            )
        }
    }

    /// Printer time: `SyntaxPrinter.print` of each query's syntax tree, tree to canonical text.
    ///
    ///     rql-bench --filter print/
    public mutating func registerPrintBenchmarks() {
        for query in BenchmarkQuery.all {
            let tree = try? Parser.parse(query.text)
            add(
                Benchmark(
                    suite: "print",
                    name: query.id,
                    text: query.text,
                    setUp: {
                        guard let tree else { throw SuiteError("\(query.id) does not parse") }
                        // The canonical text must parse back to the same text, or we time the wrong thing.
                        let printed = SyntaxPrinter.print(tree)
                        let reprinted = SyntaxPrinter.print(try Parser.parse(printed))
                        guard printed == reprinted else {
                            throw SuiteError("\(query.id): '\(printed)' reprints as '\(reprinted)'")
                        }
                    },
                    body: { iterations in
                        guard let tree = opaque(tree) else { return }
                        for _ in 0..<iterations { blackHole(SyntaxPrinter.print(tree)) }
                    }
                )
            )
        }
    }
}

/// A suite's set-up found something wrong: a query that does not parse, a wrong count.
public struct SuiteError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
