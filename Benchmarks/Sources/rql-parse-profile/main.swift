// rql-parse-profile: parses benchmark queries in a fixed loop, for a profiler.
//
//   valgrind --tool=callgrind Benchmarks/.build/release/rql-parse-profile 20000 Q7
//   rql-parse-profile [ITERATIONS] [Q1 … Q12 | all]
import BenchmarkKit
import RQLSyntax
import Suites

let arguments = CommandLine.arguments
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let which = arguments.count > 2 ? arguments[2] : "all"
let texts = BenchmarkQuery.all.filter { which == "all" || $0.id == which }.map(\.text)
for _ in 0..<iterations {
    for text in texts { blackHole(try? Parser.parse(text)) }
}
print("parsed \(iterations * texts.count) queries")
