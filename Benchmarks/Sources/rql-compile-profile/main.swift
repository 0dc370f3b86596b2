// rql-compile-profile: compiles benchmark queries (text → program, no query cache) in a fixed
// loop, for a profiler. The store is small; its statistics are cached after the first compile,
// as they are in use.
//
//   valgrind --tool=callgrind Benchmarks/.build/release/rql-compile-profile 20000 Q7
//   rql-compile-profile [ITERATIONS] [Q1 … Q12 | all]
import BenchmarkKit
import RQLOptimizer
import Suites

let arguments = CommandLine.arguments
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let which = arguments.count > 2 ? arguments[2] : "all"
let texts = BenchmarkQuery.all.filter { which == "all" || $0.id == which }.map(\.text)
let state = VMState(rows: 10_000, seed: 42)
let store = try state.store(indexed: false)
let cache = StatisticsCache()
for _ in 0..<iterations {
    for text in texts { blackHole((try? VMState.compile(text, store: store, cache: cache)) != nil) }
}
print("compiled \(iterations * texts.count) queries")
