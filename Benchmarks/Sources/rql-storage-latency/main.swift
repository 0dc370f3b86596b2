// rql-storage-latency: the latency distribution of single-object commits on the block store
// loaded with the benchmark dataset, each commit timed on its own (rql-bench times batches, so
// it reports means; this reports the median and the tail).
//
//     swift build --package-path Benchmarks -c release
//     Benchmarks/.build/release/rql-storage-latency [ROWS] [COMMITS]
import BenchmarkKit
import Suites

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rows = arguments.first ?? 1_000_000
let commits = arguments.dropFirst().first ?? 10_000
if BuildConfiguration.isDebug {
    printError("rql-storage-latency: refusing to run a debug build")
    exit(1)
}
let state = StorageState(rows: rows, seed: 42)
do {
    try state.prepareStore()
} catch {
    printError("rql-storage-latency: \(error)")
    exit(1)
}

func measure(_ name: String, _ body: () -> Void) {
    for _ in 0..<200 { body() }  // warm-up
    var samples: [Double] = []
    samples.reserveCapacity(commits)
    for _ in 0..<commits {
        let start = MonotonicClock.now()
        body()
        samples.append(Double(MonotonicClock.now() &- start))
    }
    let stats = Statistics(samples)
    print(
        "\(name): \(commits) commits on \(rows) objects: median \(Int(stats.median)) ns, p99 \(Int(stats.percentile(99))) ns, max \(Int(stats.max)) ns"
    )
}

measure("insert one object") { state.commitInsert() }
measure("update one property") { state.commitUpdate() }
